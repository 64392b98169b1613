import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseSearch } from '../src/filters/search/parse.js'
import { listedFiles, trimResult } from '../src/index.js'
import { CORPUS, hasCorpus } from './corpus.js'

// The figures of issue 3, at maxChars 4,000 on the real outputs of ../shared/corpus. They are
// deterministic quality figures (no timing): each asserts the threshold and that a plain
// 50/50 head+tail cut at the same budget does worse.
const BUDGET = 4000
const halves = (t: string): string => (t.length <= BUDGET ? t : t.slice(0, BUDGET / 2) + t.slice(t.length - BUDGET / 2))
const read = (...p: string[]): string => readFileSync(join(CORPUS, ...p), 'utf8')

/**
 * How many of `paths` an excerpt names: verbatim, or read back from the search filter's index by
 * `listedFiles` (the same rule as the benchmark's `filesNamed`, applied to every method alike).
 */
function namedCount(out: string, paths: readonly string[]): number {
  const listed = new Set(listedFiles(out))
  return paths.filter((p) => listed.has(p) || out.includes(p)).length
}

describe.skipIf(!hasCorpus)('issue 3 figures on the real corpus at 4,000 chars', () => {
  it('diffs: >= 95% of changed files named (a 50/50 cut names about a third)', () => {
    let files = 0
    let ours = 0
    let cut = 0
    for (const f of readdirSync(join(CORPUS, 'diffs/express')).filter((x) => x.endsWith('.diff'))) {
      const text = read('diffs/express', f)
      const changed = [...text.matchAll(/^diff --git a\/(.*) b\/(.*)$/gm)].map((m) => m[2]!)
      if (changed.length > 100) continue
      const out = trimResult(text, { maxChars: BUDGET }).text
      files += changed.length
      ours += namedCount(out, changed)
      cut += namedCount(halves(text), changed)
    }
    expect(files).toBeGreaterThan(300)
    expect(ours / files).toBeGreaterThanOrEqual(0.95)
    expect(cut / files).toBeLessThan(0.5)
  })

  it('grep / rg: >= 95% of matching files named, with and without a search tool name', () => {
    const rows = read('grep/index.jsonl').trim().split('\n').map((l) => JSON.parse(l) as { file: string })
    for (const tool of [undefined, 'search_files']) {
      let files = 0
      let ours = 0
      let cut = 0
      for (const row of rows) {
        const text = read('grep', row.file)
        const paths = parseSearch(text).files.map((f) => f.path)
        const out = trimResult(text, tool === undefined ? { maxChars: BUDGET } : { maxChars: BUDGET, tool }).text
        files += paths.length
        ours += namedCount(out, paths)
        cut += namedCount(halves(text), paths)
      }
      expect(files).toBeGreaterThan(1000)
      expect(ours / files).toBeGreaterThanOrEqual(0.95)
      expect(cut / files).toBeLessThan(0.5)
    }
  })

  it('JSON: the synopsis states array lengths and top-level keys (>= 95% of files, macro)', () => {
    const dir = 'json/github-api-octokit-rb'
    const scores: number[] = []
    for (const f of readdirSync(join(CORPUS, dir)).filter((x) => x.endsWith('.json'))) {
      const text = read(dir, f)
      const v = JSON.parse(text) as unknown
      const out = trimResult(text, { maxChars: BUDGET }).text
      const same = out === text
      const checks: boolean[] = []
      if (Array.isArray(v)) checks.push(same || out.includes(`array[${v.length}]`))
      else {
        const obj = v as Record<string, unknown>
        const keys = Object.keys(obj)
        // A map of hundreds of keys cannot be listed in 4,000 chars: its key count must be stated.
        if (keys.length > 100) checks.push(out.includes(`JSON object with ${keys.length} keys`))
        // named in the synopsis (`key: type`) or in the body (`"key": value`)
        else for (const k of keys) checks.push(same || out.includes(`${k}: `) || out.includes(`${JSON.stringify(k)}: `))
        for (const k of keys) if (Array.isArray(obj[k])) checks.push(same || out.includes(`${k}: array[${(obj[k] as unknown[]).length}]`))
      }
      scores.push(checks.filter(Boolean).length / checks.length)
    }
    expect(scores.length).toBe(33)
    expect(scores.reduce((a, b) => a + b, 0) / scores.length).toBeGreaterThanOrEqual(0.95)
  })
})
