import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { listedFiles } from './listing.js'
import type { SearchParse } from './parse.js'
import { renderSearch, summarizeSearch } from './search.js'

const BIG = 10_000_000 // a budget that lists every file

const parsed = (paths: readonly string[], counts: readonly number[], mode: 'n' | 'c' | 'l'): SearchParse => {
  const files = paths.map((path, i) => ({ path, matches: mode === 'l' ? 0 : counts[i % counts.length]!, first: [] }))
  const matches = files.reduce((n, f) => n + f.matches, 0)
  return { files, matches, context: 0, namesOnly: mode === 'l', counts: mode === 'c', unparsed: 0, lines: files.length }
}

// Path pieces meant to hit every corner of the index format: templates (`.go`, `_test`), counts
// (`:3` at the end of a name), blanks and quotes (quoted form), `./` and `*` in directories,
// the `…+N` marker, empty names.
const piece = fc.constantFrom('a', 'b', 'lib', 'x y', 'we:ird', 'n:3', '"q"', '*', '.', '', '…+2', 'Ünï', 'c\\d', '[x]', 'a\tb')
const nameArb = fc.tuple(piece, fc.constantFrom('', '_test', '.test', '.spec', '-test'), fc.constantFrom('', '.go', '.ts', '.js', '.tar.gz', ':7')).map(([s, t, e]) => s + t + e)
const pathArb = fc.tuple(fc.array(piece, { maxLength: 3 }), nameArb).map(([dirs, name]) => [...dirs, name].join('/'))
const setArb = fc.tuple(fc.uniqueArray(pathArb, { minLength: 1, maxLength: 40 }), fc.boolean()).map(([ps, dot]) => [...new Set(dot ? ps.map((p) => `./${p}`) : ps)])

describe('listedFiles', () => {
  it('reads the plain, template, suffix and quoted forms back to full paths', () => {
    const excerpt = [
      '[search: 9 matches in 6 files. Files by directory as name:count (no count = 1 match); first matches below]',
      'pkg/context/ mcp_info.go:2',
      'pkg/github/*.go search:2 issues',
      'pkg/github/*_test.go repo:3',
      './ go.mod',
      '"my dir/a b.go":1',
      '',
      'pkg/github/search.go',
      '12:func x() {}',
      '[... spillway: 8 of 9 matching lines not shown ...]',
    ].join('\n')
    expect(listedFiles(excerpt)).toEqual(['pkg/context/mcp_info.go', 'pkg/github/search.go', 'pkg/github/issues.go', 'pkg/github/repo_test.go', 'go.mod', 'my dir/a b.go'])
  })

  it('adds ./ when the title says under ./, skips cut lines, and reads -l titles without counts', () => {
    expect(listedFiles('[3 files under ./, by directory]\npkg/ a:3 b.go …+5\n[... 5 more files not listed ...]\nlater/ x.go')).toEqual(['./pkg/a:3', './pkg/b.go'])
  })

  it('takes the path of verbatim grep -n lines, not the lines of a match block', () => {
    expect(listedFiles('head\nsrc/a b.ts:12:const x = 1\nC:/w.txt:3:y\n194:  if (a:1:b)\nL194:  if (c:1:d)\n')).toEqual(['src/a b.ts', 'C:/w.txt'])
  })

  it('finds nothing in text without a listing', () => {
    expect(listedFiles('')).toEqual([])
    expect(listedFiles('hello world\npkg/ a.go b.go\n')).toEqual([])
  })

  it('round-trips: an index that lists every file reads back as exactly those files (-n, -c, -l)', () => {
    fc.assert(
      fc.property(setArb, fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 5 }), fc.constantFrom('n', 'c', 'l'), (paths, counts, mode) => {
        const out = renderSearch(parsed(paths, counts, mode as 'n' | 'c' | 'l'), BIG)
        expect(out).not.toContain('more files not listed')
        expect(new Set(listedFiles(out))).toEqual(new Set(paths))
      }),
      { numRuns: 400 },
    )
  })

  it('round-trips through the filter on grep -n text', () => {
    // grep's own format cannot carry `:digits` or a leading `-digits-` in a path, so no such pieces here
    const safe = fc.constantFrom('a', 'lib', 'x y', 'we:ird', '*', '.', 'b_test', 'c.spec')
    const p = fc.tuple(fc.array(safe, { maxLength: 3 }), safe, fc.constantFrom('', '.go', '.ts')).map(([d, n, e]) => [...d, n + e].join('/'))
    fc.assert(
      fc.property(fc.uniqueArray(p, { minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 4 }), (paths, per) => {
        const text = paths.flatMap((path) => Array.from({ length: per }, (_, i) => `${path}:${i + 1}:  hit ${i}`)).join('\n')
        const out = summarizeSearch(text, BIG)!
        expect(new Set(listedFiles(out))).toEqual(new Set(paths))
      }),
      { numRuns: 200 },
    )
  })

  it('reads back only the files a cut index names, and each of them is real', () => {
    fc.assert(
      fc.property(setArb, fc.integer({ min: 200, max: 3000 }), (paths, budget) => {
        const out = renderSearch(parsed(paths, [2, 1], 'n'), budget)
        const all = new Set(paths)
        for (const f of listedFiles(out)) expect(all.has(f)).toBe(true)
      }),
      { numRuns: 200 },
    )
  })
})
