import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { detectKind } from '../../detect/detect.js'
import { trimResult } from '../../pipeline/trim-result.js'
import { parseSearch } from './parse.js'
import { summarizeSearch } from './search.js'

// The real outputs of ../shared/corpus (never copied into the repo); skipped when absent.
const CORPUS = fileURLToPath(new URL('../../../../../../shared/corpus', import.meta.url))
const hasCorpus = existsSync(join(CORPUS, 'README.md'))

const grepN = (files: number, per: number): string =>
  Array.from({ length: files }, (_, f) => Array.from({ length: per }, (_, i) => `src/dir${f % 7}/file${f}.ts:${i * 3 + 1}:  const value${i} = compute(${i}) // match`).join('\n')).join('\n') + '\n'

describe('parseSearch', () => {
  it('reads path:line:text, even with colons in file names and text', () => {
    const p = parseSearch('we:ird/na:me.js:12:a: b :3: c\nC:/x.txt:4:y\nplain.js:7:key: 1:2:\n')
    expect(p.files.map((f) => [f.path, f.matches, f.first[0]!.line, f.first[0]!.text])).toEqual([
      ['we:ird/na:me.js', 1, 12, 'a: b :3: c'],
      ['C:/x.txt', 1, 4, 'y'],
      ['plain.js', 1, 7, 'key: 1:2:'],
    ])
  })

  it('reads rg --heading blocks, -C context lines, -c counts and -l names', () => {
    const heading = parseSearch('lib/a.js\n3:x\n9:y\n\nlib/b.js\n1:z\n')
    expect(heading.files.map((f) => [f.path, f.matches])).toEqual([['lib/a.js', 2], ['lib/b.js', 1]])
    const ctx = parseSearch('a/b-c.go-1-before\na/b-c.go:2:hit\na/b-c.go-3-after\n--\nd.go-9-x\nd.go:10:y\n')
    expect(ctx.files.map((f) => [f.path, f.matches])).toEqual([['a/b-c.go', 1], ['d.go', 1]])
    expect(ctx.context).toBe(3)
    const counts = parseSearch('./a.go:25\n./b/c.go:3\n')
    expect(counts.counts).toBe(true)
    expect(counts.matches).toBe(28)
    const names = parseSearch('./go.mod\n./ui/src/App.tsx\n')
    expect(names.namesOnly).toBe(true)
    expect(names.files).toHaveLength(2)
  })

  it('does not take a list of numbers for file names', () => {
    expect(detectKind('3.14\n2.71\n1.41\n1.2.3\n')).toBe('text')
    expect(detectKind('./a/b.go\n./c.md\n./d/e/f.ts\n')).toBe('search')
  })

  it('does not take log timestamps for file names', () => {
    const p = parseSearch('2022-05-30T09:10:31.1584995Z Requested labels\n')
    expect(p.files).toEqual([])
    expect(detectKind('2022-05-30T09:10:31.1584995Z Requested labels: ubuntu\n'.repeat(20))).not.toBe('search')
  })
})

describe('summarizeSearch', () => {
  it('names every file with its count, states totals, and gives each file its first match', () => {
    const out = summarizeSearch(grepN(80, 20), 4000)!
    expect(out.length).toBeLessThanOrEqual(4000)
    expect(out.split('\n')[0]).toBe('[search: 1600 matches in 80 files. Files by directory as name:count (no count = 1 match); "dir/*.go a b" means dir/a.go, dir/b.go; first matches below]')
    for (let f = 0; f < 80; f++) expect(out).toMatch(new RegExp(`(?:^| )file${f}(?:\\.ts)?:20(?: |$)`, 'm'))
    expect(out).toContain('src/dir0/file0.ts\nL1:  const value0 = compute(0) // match')
  })

  it('lists -l output by directory', () => {
    const out = summarizeSearch(Array.from({ length: 300 }, (_, i) => `./pkg/m${i % 5}/f${i}.go`).join('\n'), 2000)!
    expect(out.split('\n')[0]).toBe('[300 files under ./, by directory; "dir/*.go a b" means dir/a.go, dir/b.go]')
    expect(out).toMatch(/^pkg\/m0\/(?:\*\.go)? /m)
  })

  it('counts the lines that are not matches (a command echo, a warning) in its title', () => {
    const rows = Array.from({ length: 300 }, (_, i) => `src/dir${i % 10}/f${i % 30}.ts:${i + 1}:  hit(${i})`)
    const out = summarizeSearch(['$ rg -n hit src', ...rows, 'rg: src/secret: Permission denied (os error 13)'].join('\n'), 3000)!
    expect(out.split('\n')[0]).toContain('; 2 other lines (not matches) not shown')
    expect(summarizeSearch(rows.join('\n'), 3000)!.split('\n')[0]).not.toContain('other line')
  })

  it('steps aside when the text is not search output', () => {
    expect(summarizeSearch('hello world\nthis is prose\nnot grep output\n', 100)).toBeUndefined()
  })

  it('runs for the search profile even when detection says text', () => {
    const heading = Array.from({ length: 40 }, (_, f) => `test/t${f}.js\n${Array.from({ length: 10 }, (_, i) => `${i + 1}:    res.send(req.x${i})`).join('\n')}`).join('\n\n')
    const out = trimResult(heading, { tool: 'grep', maxChars: 2000 })
    expect(out.applied).toEqual(['search'])
    expect(out.text).toContain('[search: 400 matches in 40 files.')
  })
})

describe.skipIf(!hasCorpus)('real grep / rg outputs (corpus grep/)', () => {
  it('handles every output format of the corpus', () => {
    const index = readFileSync(join(CORPUS, 'grep/index.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { file: string; command: string })
    for (const row of index) {
      const text = readFileSync(join(CORPUS, 'grep', row.file), 'utf8')
      const p = parseSearch(text)
      expect(p.unparsed, row.command).toBe(0)
      const out = trimResult(text, { tool: 'search_files', maxChars: 4000 })
      expect(out.text.length).toBeLessThanOrEqual(4000)
      if (text.length > 4000) expect(out.applied, row.command).toEqual(['search'])
    }
  })
})
