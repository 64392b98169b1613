import { describe, expect, it } from 'vitest'
import { oracleExcerpt, oracleRetention } from '../src/metrics/oracle.js'
import { retention, splitJavaLines } from '../src/metrics/retention.js'
import { recallAt, reciprocalRank, scoreRankings } from '../src/metrics/retrieval.js'
import { median, quantile } from '../src/metrics/stats.js'
import { diffFiles, factStated, filesNamed, grepFiles, jsonShapeFacts, shapeStated } from '../src/metrics/structure.js'

describe('retention', () => {
  it('counts labelled lines shown in the excerpt, ignoring ANSI codes, blanks, indentation, line numbers and repeat counts', () => {
    const labelled = ['\x1b[31mERROR: build failed\x1b[0m', '   at Foo.bar(Foo.java:3)', '', 'never shown', 'Caused by: x', '42: a line that starts with a number', 'retrying']
    // spillway numbers kept lines "N: " and counts collapsed runs "(xN)", cat -n (deepagents) "N<tab>".
    const excerpt = 'head\n12: \x1b[31mERROR: build failed\nat Foo.bar(Foo.java:3)\n    88\tCaused by: x\n42: a line that starts with a number\n7: retrying (x3)\ntail'
    expect(retention(excerpt, labelled)).toBe(5 / 6)
  })
  it('matches whole-line labels per line: a short label inside another line does not count', () => {
    expect(retention('[ERROR] Failed to execute goal\n[INFO] done', ['[ERROR]'])).toBe(0)
    expect(retention('[ERROR] Failed to execute goal\n[ERROR]\n', ['[ERROR]'])).toBe(1)
    expect(retention('ERROR: build failed (exit 2)', ['ERROR: build failed'])).toBe(0)
  })
  it('matches span labels (LogChunks) inside one line, never across lines', () => {
    expect(retention('2609: --- FAIL: TestParallel (2.60s)', ['FAIL: TestParallel (2.60s)'], 'span')).toBe(1)
    expect(retention('a FAIL:\nTestParallel', ['FAIL: TestParallel'], 'span')).toBe(0)
    expect(retention('nothing here', ['FAIL: TestParallel'], 'span')).toBe(0)
  })
  it('compares only the first 200 chars of a long line', () => {
    const long = 'x'.repeat(300)
    expect(retention(`${'x'.repeat(200)} [100 chars cut]`, [long])).toBe(1)
    expect(retention('x'.repeat(199), [long])).toBe(0)
    expect(retention(`12: ${'x'.repeat(250)}`, [long])).toBe(1)
    expect(retention(`pre ${'x'.repeat(300)}`, [long], 'span')).toBe(1)
  })
  it('is undefined without a non-blank label', () => {
    expect(retention('anything', ['', '  '])).toBeUndefined()
  })
  it('splits lines like Java readLine (CR, LF, CRLF)', () => {
    expect(splitJavaLines('a\r\nb\rc\nd')).toEqual(['a', 'b', 'c', 'd'])
  })
})

describe('labels-known reference (oracle.ts)', () => {
  const labelled = ['\x1b[31mERROR: a much longer failure line that costs many chars\x1b[0m', 'FAIL b', 'FAIL c', '', 'FAIL b', 'x'.repeat(300)]
  it('shows the labelled lines alone, each once, within the budget; the same rule scores it', () => {
    const all = oracleExcerpt(labelled, 10_000)
    expect(all.split('\n')).toEqual(['ERROR: a much longer failure line that costs many chars', 'FAIL b', 'FAIL c', 'x'.repeat(200)])
    expect(retention(all, labelled)).toBe(1)
    expect(oracleRetention(labelled, 'line', [10_000])).toEqual([1])
  })
  it('takes the most labels per char first: a repeated label, then short ones', () => {
    // "FAIL b" matches two labels: it goes first; then "FAIL c"; the long lines do not fit 20 chars.
    const out = oracleExcerpt(labelled, 20)
    expect(out).toBe('FAIL b\nFAIL c')
    expect(out.length).toBeLessThanOrEqual(20)
    expect(oracleRetention(labelled, 'line', [6, 13, 20])).toEqual([2 / 5, 3 / 5, 3 / 5])
  })
  it('distinct labels: shows as many as any excerpt of the budget could (the shortest first), never over it', () => {
    for (let seed = 1; seed < 200; seed++) {
      const ls = Array.from({ length: seed % 17 }, (_, i) => `L${i}-${'y'.repeat((i * 31 + seed) % 90)}`)
      for (const budget of [0, 10, 50, 200, 1000]) {
        const out = oracleExcerpt(ls, budget)
        expect(out.length).toBeLessThanOrEqual(budget)
        // Most lines of these lengths that fit: the shortest first (n lines cost their chars and n - 1 newlines).
        const lengths = ls.map((l) => l.length).sort((a, b) => a - b)
        let most = 0
        for (let used = -1; most < lengths.length && used + lengths[most]! + 1 <= budget; most++) used += lengths[most]! + 1
        expect(out === '' ? 0 : out.split('\n').length).toBe(most)
        expect(retention(out, ls) ?? 0).toBeCloseTo(ls.length === 0 ? 0 : most / ls.length)
      }
    }
  })
  it('span labels (LogChunks) count as kept by the line that is the span', () => {
    expect(oracleRetention(['FAIL: TestParallel (2.60s)'], 'span', [100])).toEqual([1])
  })
})

describe('structure figures', () => {
  it('finds the files of a git show', () => {
    const diff = 'commit abc\n\ndiff --git a/lib/a.js b/lib/a.js\n--- a/lib/a.js\n+++ b/lib/a.js\n@@ -1 +1 @@\n-x\n+y\ndiff --git a/old.md b/new.md\nrename from old.md\n'
    expect(diffFiles(diff)).toEqual(['lib/a.js', 'new.md'])
  })
  it('finds grep files in -n, -c, --heading, -C and -l outputs', () => {
    expect(grepFiles('lib/a.js:3:foo\nlib/b.js:10:bar:baz\nlib/a.js:4:x')).toEqual(['lib/a.js', 'lib/b.js'])
    expect(grepFiles('./pkg/x.go:25\n./pkg/y.go:3')).toEqual(['./pkg/x.go', './pkg/y.go'])
    expect(grepFiles('test/a.js\n102:    res.send(x);\n\ntest/b.js\n7:foo\n8:bar')).toEqual(['test/a.js', 'test/b.js'])
    expect(grepFiles('pkg/t.go-22-// ctx\npkg/t.go:24:// hit\n--\npkg/u.go:3:x')).toEqual(['pkg/t.go', 'pkg/u.go'])
    expect(grepFiles('./go.mod\n./ui/src/a.tsx')).toEqual(['./go.mod', './ui/src/a.tsx'])
  })
  it('measures the share of paths named verbatim', () => {
    expect(filesNamed('lib/a.js (2 hunks)', ['lib/a.js', 'lib/b.js'])).toBe(0.5)
    expect(filesNamed('x', [])).toBeUndefined()
  })
  it('counts a path read back from a search index, and only from one', () => {
    const paths = ['pkg/a.go', 'pkg/b_test.go', 'pkg/c.go', 'top.md']
    const listing = '[search: 6 matches in 4 files. Files by directory as name:count (no count = 1 match)]\npkg/*.go a:3\npkg/*_test.go b\n[... 2 more files not listed ...]'
    expect(filesNamed(listing, paths)).toBe(0.5)
    // the same index lines without a search title are not a listing: nothing is named
    expect(filesNamed('pkg/*.go a:3\npkg/*_test.go b', paths)).toBe(0)
    // raw grep lines count verbatim, whatever the method
    expect(filesNamed('top.md:3:x\npkg/c.go:1:y', paths)).toBe(0.5)
  })
  it('lists the shape facts of arrays and objects', () => {
    expect(jsonShapeFacts('[1,2,3]')).toEqual([{ type: 'length', path: '$', length: 3 }])
    expect(jsonShapeFacts('{"total":2,"items":[{},{}]}')).toEqual([
      { type: 'key', key: 'total' },
      { type: 'key', key: 'items' },
      { type: 'length', path: '$.items', length: 2 },
    ])
    expect(jsonShapeFacts('not json')).toEqual([])
  })
  it('counts a length only when it is written as a count', () => {
    const fact = { type: 'length', path: '$', length: 30 } as const
    expect(factStated('array of 30 items', fact)).toBe(true)
    expect(factStated('[JSON excerpt — array[30]]', fact)).toBe(true)
    expect(factStated('{"id": 30, "n": 300}', fact)).toBe(false)
    expect(factStated('{"total_count": 1, "items": []}', { type: 'key', key: 'items' })).toBe(true)
    expect(factStated('{"total_count": 1}', { type: 'key', key: 'items' })).toBe(false)
    expect(shapeStated('items: 30 entries', [fact, { type: 'key', key: 'items' }])).toBe(1)
  })
})

describe('retrieval metrics', () => {
  it('computes recall@k and the reciprocal rank', () => {
    const ranked = ['a', 'b', 'c', 'd']
    expect(recallAt(ranked, ['c', 'x'], 1)).toBe(0)
    expect(recallAt(ranked, ['c', 'x'], 3)).toBe(0.5)
    expect(reciprocalRank(ranked, ['c', 'b'])).toBe(0.5)
    expect(reciprocalRank(ranked, ['z'])).toBe(0)
  })
  it('averages over queries', () => {
    const s = scoreRankings([
      { ranked: ['a', 'b'], relevant: ['a'] },
      { ranked: ['b', 'c', 'd', 'e', 'f', 'a'], relevant: ['a'] },
    ])
    expect(s).toMatchObject({ recall1: 0.5, recall5: 0.5, recall10: 1, queries: 2 })
    expect(s.mrr).toBeCloseTo((1 + 1 / 6) / 2)
  })
})

describe('stats', () => {
  it('takes nearest-rank quantiles', () => {
    expect(median([3, 1, 2])).toBe(2)
    expect(quantile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.95)).toBe(10)
    expect(quantile([], 0.5)).toBeNaN()
  })
})
