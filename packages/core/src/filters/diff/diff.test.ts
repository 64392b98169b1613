import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { trimResult } from '../../pipeline/trim-result.js'
import { describeFile, summarizeDiff } from './diff.js'
import { summarizeDiffInJson } from './json-diff.js'
import { parseDiff } from './parse.js'

// The real outputs of ../shared/corpus (never copied into the repo); skipped when absent.
const CORPUS = fileURLToPath(new URL('../../../../../../shared/corpus', import.meta.url))
const hasCorpus = existsSync(join(CORPUS, 'README.md'))

const hunk = (n: number, body: string): string => `@@ -${n},3 +${n},4 @@\n ctx\n-old ${n}\n+new ${n}\n+added ${n}\n ctx\n`
const fileDiff = (path: string, hunks: number): string =>
  `diff --git a/${path} b/${path}\nindex 111..222 100644\n--- a/${path}\n+++ b/${path}\n${Array.from({ length: hunks }, (_, i) => hunk(i * 10 + 1, '')).join('')}`

describe('parseDiff', () => {
  it('counts hunks and +/- lines per file, even when a removed line starts with ---', () => {
    const text = `diff --git a/x.md b/x.md\n--- a/x.md\n+++ b/x.md\n@@ -1,2 +1,2 @@\n---- old rule\n++++ new rule\n context\n`
    const [c] = parseDiff(text)
    expect(c!.files).toHaveLength(1)
    expect(describeFile(c!.files[0]!)).toBe('x.md (1 hunk, +1/-1)')
  })

  it('reports renames, new, deleted and binary files', () => {
    const text = [
      'diff --git a/old/name.js b/new/name.js',
      'similarity index 92%',
      'rename from old/name.js',
      'rename to new/name.js',
      'diff --git a/logo.png b/logo.png',
      'new file mode 100644',
      'index 0000000..1234567',
      'Binary files /dev/null and b/logo.png differ',
      'diff --git a/gone.txt b/gone.txt',
      'deleted file mode 100644',
      '--- a/gone.txt',
      '+++ /dev/null',
      '@@ -1,2 +0,0 @@',
      '-a',
      '-b',
      '',
    ].join('\n')
    const files = parseDiff(text).flatMap((c) => c.files).map(describeFile)
    expect(files).toEqual(['old/name.js -> new/name.js (renamed 92%)', 'logo.png (new file, binary)', 'gone.txt (deleted, 1 hunk, +0/-2)'])
  })

  it('reads a plain unified diff without git headers, with timestamps after the paths', () => {
    const text = '--- a/f.c\t2024-01-01 10:00:00\n+++ b/f.c\t2024-01-02 10:00:00\n@@ -1 +1 @@\n-x\n+y\n'
    expect(parseDiff(text).flatMap((c) => c.files).map(describeFile)).toEqual(['f.c (1 hunk, +1/-1)'])
  })

  it('finds nothing in an empty diff', () => {
    expect(parseDiff('')).toEqual([])
    expect(summarizeDiff('', 1000)).toBeUndefined()
  })
})

describe('summarizeDiff', () => {
  it('names every file, keeps whole hunks while they fit, and counts the rest', () => {
    const text = `commit ${'a'.repeat(40)}\nAuthor: A <a@b.c>\nDate:   today\n\n    Big change\n\n` + Array.from({ length: 60 }, (_, i) => fileDiff(`src/module${i}/file${i}.ts`, 3)).join('')
    const out = summarizeDiff(text, 4000)!
    expect(out.length).toBeLessThanOrEqual(4000)
    expect(out.startsWith(`commit ${'a'.repeat(40)}\nAuthor: A <a@b.c>`)).toBe(true)
    for (let i = 0; i < 60; i++) expect(out).toContain(`src/module${i}/file${i}.ts`)
    expect(out).toContain('60 files changed, +360/-180:')
    expect(out).toMatch(/\[\.\.\. spillway: \d+ of 180 hunks not shown \(\d+ chars\) \.\.\.\]$/)
    // kept hunks are whole: every kept @@ header is followed by its 5 lines
    const kept = out.split('\n@@ ').slice(1)
    expect(kept.length).toBeGreaterThan(0)
    for (const k of kept) expect(k.split('\n').length).toBeGreaterThanOrEqual(6)
  })

  it('reports a binary-only change', () => {
    const text = `commit ${'b'.repeat(40)}\nAuthor: A\n\n    drop image\n\ndiff --git a/t.png b/t.png\ndeleted file mode 100644\nindex cbf1..0000\nBinary files a/t.png and /dev/null differ\n`
    const out = trimResult(text, { maxChars: 150 })
    expect(out.kind).toBe('diff')
    expect(out.text).toContain('t.png (deleted, binary)')
  })

  it('summarises a diff inside a JSON patch result, keeping the other fields', () => {
    const diff = fileDiff('a/b.py', 40)
    const text = JSON.stringify({ success: true, path: 'a/b.py', diff })
    const out = summarizeDiffInJson(text, 1500)!
    expect(out.length).toBeLessThanOrEqual(1500)
    expect(out.split('\n')[0]).toBe(`{"success":true,"path":"a/b.py","diff":"<diff, ${diff.length} chars: summarised below>"}`)
    expect(out).toContain('a/b.py (40 hunks, +80/-40)')
    const viaTrim = trimResult(text, { tool: 'patch', maxChars: 1500 })
    expect(viaTrim.applied).toEqual(['diff'])
    expect(summarizeDiffInJson('{"ok":true}', 1000)).toBeUndefined()
  })

  it('gives the same summary when asked twice (the shared parse is never modified)', () => {
    const text = JSON.stringify({ result: { ok: true, patch: fileDiff('src/x.ts', 12) } })
    const first = summarizeDiffInJson(text, 1200)
    expect(first).toContain('src/x.ts (12 hunks')
    expect(summarizeDiffInJson(text, 1200)).toBe(first)
    expect(trimResult(text, { tool: 'patch', maxChars: 1200 }).text).toBe(trimResult(text, { tool: 'patch', maxChars: 1200 }).text)
  })
})

describe.skipIf(!hasCorpus)('real git show output (corpus diffs/express)', () => {
  const dir = join(CORPUS, 'diffs/express')
  const files = hasCorpus ? readdirSync(dir).filter((f) => f.endsWith('.diff')) : []

  it('names every changed file of every commit at 4,000 chars', () => {
    for (const f of files) {
      const text = readFileSync(join(dir, f), 'utf8')
      const changed = [...text.matchAll(/^diff --git a\/(.*) b\/(.*)$/gm)].map((m) => m[2]!)
      const out = trimResult(text, { maxChars: 4000 })
      expect(out.text.length).toBeLessThanOrEqual(4000)
      for (const path of changed) expect(out.text, `${f}: ${path}`).toContain(path)
    }
  })
})
