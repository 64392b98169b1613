import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { trimResult } from '../pipeline/trim-result.js'
import { countLines } from './text.js'

const TOOLS = [undefined, 'terminal', 'read_file', 'search_files', 'web_extract', 'mystery_tool']

// Text shaped like tool output: lines of mixed content, some salient, some huge, some empty.
const lineArb = fc.oneof(
  { weight: 5, arbitrary: fc.string({ maxLength: 80 }) },
  { weight: 2, arbitrary: fc.constantFrom('ERROR: boom', 'Traceback (most recent call last):', '  at Foo.bar(Foo.java:12)', 'warning: unused', 'FAILED tests/x.py::test_y', 'exit code 1', '') },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 60 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.nat(3000).map((n) => 'x'.repeat(n)) },
  // line prefixes and colours the scan reads (round 14): labels, stamps, GitLab's marker, red codes
  {
    weight: 2,
    arbitrary: fc.tuple(
      fc.constantFrom('', 'web:test: ', 'packages/web test: ', '[@acme/web]: ', '[pod/w-1/c] ', 'web-1  | ', 'build\tRun tests\t2024-01-02T03:04:05.1234567Z ', 'build\tRun tests\t\ufeff2024-01-02T03:04:05.1234567Z ', '2024-01-02T03:04:05.123456Z 01O ', '2024-01-02T03:04:05.123456Z 00O+', '2024-01-02T03:04:05.1234567Z web:test: '),
      fc.constantFrom('', '\x1b[31m', '\x1b[1;31m', '\x1b[91m', '\x1b[38;5;31m', '\x1b[31m\x1b[0m', '  \x1b[31m'),
      fc.constantFrom('Use x instead of y at line 3, column 2.', '--- FAIL: TestX (0.00s)', 'ok', '', '\x1b[0m', 'DONE 3 tests, 1 failure'),
    ).map(([a, b, c]) => a + b + c),
  },
)
const textArb = fc.oneof(
  fc.array(lineArb, { maxLength: 400 }).map((ls) => ls.join('\n')),
  fc.array(lineArb, { maxLength: 100 }).map((ls) => ls.join('\r\n')),
  fc.string({ unit: 'binary', maxLength: 3000 }),
  fc.string({ maxLength: 3000 }),
)
// Any UTF-16 string, lone surrogates included.
const anyString = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 2000 })
const budgetArb = fc.oneof(fc.nat(60), fc.nat(1200), fc.integer({ min: 400, max: 20_000 }))
const optsArb = fc.record({ maxChars: budgetArb, tool: fc.constantFrom(...TOOLS) })

const params = { numRuns: 300 }

describe('trimResult invariants', () => {
  it('always fits the budget', () => {
    fc.assert(
      fc.property(fc.oneof(textArb, anyString), optsArb, (text, { maxChars, tool }) => {
        const out = trimResult(text, tool === undefined ? { maxChars } : { maxChars, tool })
        expect(out.text.length).toBeLessThanOrEqual(maxChars)
      }),
      params,
    )
  })

  it('is deterministic: same input, byte-identical output', () => {
    fc.assert(
      fc.property(textArb, optsArb, (text, { maxChars, tool }) => {
        const opts = tool === undefined ? { maxChars } : { maxChars, tool }
        const a = trimResult(text, opts)
        const b = trimResult(text.slice(), { ...opts })
        expect(b).toEqual(a)
      }),
      params,
    )
  })

  it('never throws, whatever the options', () => {
    const junkOptions = fc.oneof(
      fc.constant(undefined),
      fc.constant(null),
      fc.record({ maxChars: fc.oneof(fc.double(), fc.constant(Number.NaN), fc.constant(-5), fc.constant(Infinity)) }),
      fc.record({ contextWindow: fc.oneof(fc.double(), fc.integer()) }),
      fc.record({ maxChars: fc.nat(5000), profiles: fc.dictionary(fc.string({ maxLength: 12 }), fc.object() as fc.Arbitrary<object>) }),
      fc.record({ maxChars: fc.nat(5000), tokenizer: fc.constant(() => { throw new Error('tokenizer down') }) }),
      fc.record({ maxChars: fc.nat(5000), tool: fc.string({ maxLength: 20 }), args: fc.anything() }),
    )
    fc.assert(
      fc.property(fc.oneof(textArb, anyString), junkOptions, (text, opts) => {
        expect(() => trimResult(text, opts as never)).not.toThrow()
      }),
      params,
    )
  })

  it('never splits a surrogate pair', () => {
    const emojiText = fc.array(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 30 }), fc.constant('😀🎉𝄞'.repeat(50))), { maxLength: 200 }).map((ls) => ls.join('\n'))
    fc.assert(
      fc.property(emojiText, budgetArb, (text, maxChars) => {
        const out = trimResult(text, { maxChars })
        expect(out.text.isWellFormed()).toBe(true)
      }),
      params,
    )
  })

  it('returns input at or under budget unchanged', () => {
    fc.assert(
      fc.property(fc.oneof(textArb, anyString), fc.constantFrom(...TOOLS), fc.nat(500), (text, tool, slack) => {
        const maxChars = text.length + slack
        const out = trimResult(text, tool === undefined ? { maxChars } : { maxChars, tool })
        expect(out.text).toBe(text)
        expect(out.changed).toBe(false)
        expect(out.omitted).toEqual([])
      }),
      params,
    )
  })

  it('shows a marker whenever something was omitted, and reports what', () => {
    fc.assert(
      fc.property(textArb, fc.integer({ min: 400, max: 8000 }), fc.constantFrom(...TOOLS), (text, maxChars, tool) => {
        fc.pre(text.length > maxChars)
        const out = trimResult(text, tool === undefined ? { maxChars } : { maxChars, tool })
        expect(out.changed).toBe(true)
        if (!out.applied.includes('fit') && out.applied.every((f) => f === 'dedup-exact' || f === 'blank' || f === 'ansi')) {
          // Only merged runs, each with its count, or colour codes stripped: nothing left out, nothing to mark.
          expect(out.omitted).toEqual([])
          if (out.applied.some((f) => f !== 'ansi')) expect(out.text).toMatch(/ \(x\d+\)$|^\[\d+ blank lines\]$/m)
          return
        }
        expect(out.text).toMatch(/\[\.\.\. (?:spillway: omitted|lines? \d)/)
        expect(out.omitted.length).toBeGreaterThan(0)
        const lines = countLines(text)
        let prevEnd = 0
        for (const r of out.omitted) {
          expect(r.start).toBeGreaterThan(prevEnd)
          expect(r.end).toBeGreaterThanOrEqual(r.start)
          expect(r.end).toBeLessThanOrEqual(Math.max(1, lines))
          expect(r.chars).toBeGreaterThan(0)
          prevEnd = r.end
        }
      }),
      params,
    )
  })

  // Exact dedup and blank-run collapse merge runs before the fit: every `N: line` of the
  // excerpt is still line N of the input (or the first of a run shown with its count), and the
  // omitted ranges are the input's lines.
  it('numbers kept lines with their original numbers when runs were merged', () => {
    const runLine = fc.oneof(
      { weight: 4, arbitrary: fc.stringMatching(/^[a-z][a-z0-9 =._]{10,60}$/) },
      { weight: 2, arbitrary: fc.constantFrom('WARN retrying connection...', 'ERROR: boom', 'FAILED tests/x.py::test_y', '  at Foo.bar(Foo.java:12)', 'exit code 1', '') },
    )
    // At least 60 runs and budgets up to 3,000: enough left after merging that the fitter must
    // number middle lines on every seed (with 5 runs, some seeds never needed a fit at all).
    const runs = fc.array(fc.tuple(runLine, fc.oneof(fc.constant(1), fc.integer({ min: 2, max: 400 }))), { minLength: 60, maxLength: 200 })
    let numbered = 0
    fc.assert(
      fc.property(runs, fc.integer({ min: 400, max: 3000 }), fc.constantFrom(undefined, 'terminal', 'bash'), (rs, maxChars, tool) => {
        const lines = rs.flatMap(([l, n]) => Array<string>(n).fill(l))
        const text = lines.join('\n')
        const out = trimResult(text, tool === undefined ? { maxChars } : { maxChars, tool })
        expect(out.text.length).toBeLessThanOrEqual(maxChars)
        for (const m of out.text.matchAll(/^(\d+): (.*)$/gm)) {
          const n = Number(m[1])
          const shown = m[2]!
          numbered++
          const rep = / \(x(\d+)\)$/.exec(shown)
          const blank = /^\[(\d+) blank lines\]$/.exec(shown)
          if (lines[n - 1] === shown) continue
          if (blank !== null) for (let k = 0; k < Number(blank[1]); k++) expect(lines[n - 1 + k]).toBe('')
          else if (rep !== null) for (let k = 0; k < Number(rep[1]); k++) expect(lines[n - 1 + k]).toBe(shown.slice(0, rep.index))
          else expect(lines[n - 1]).toBe(shown)
        }
        let prevEnd = 0
        for (const r of out.omitted) {
          expect(r.start).toBeGreaterThan(prevEnd)
          expect(r.end).toBeGreaterThanOrEqual(r.start)
          expect(r.end).toBeLessThanOrEqual(countLines(text))
          prevEnd = r.end
        }
        // The marker names lines of the input too.
        const marker = /spillway: omitted lines? (\d+)(?:-(\d+))? of (\d+)/.exec(out.text)
        if (marker !== null) expect(Number(marker[3])).toBe(countLines(text))
      }),
      { numRuns: 200 },
    )
    expect(numbered).toBeGreaterThan(0)
  })

  it('keeps an error line buried anywhere in the middle, with its line number', () => {
    fc.assert(
      fc.property(fc.integer({ min: 200, max: 5000 }), fc.double({ min: 0.05, max: 0.95, noNaN: true }), fc.constantFrom(...TOOLS), (n, at, tool) => {
        const lines = Array.from({ length: n }, (_, i) => `step ${i}: compiled module_${i % 97} ok`)
        const where = Math.floor(n * at)
        lines[where] = 'java.lang.IllegalStateException: connection pool exhausted'
        const out = trimResult(lines.join('\n'), tool === undefined ? { maxChars: 2000 } : { maxChars: 2000, tool })
        expect(out.salient).toEqual([where + 1])
        expect(out.text).toContain('java.lang.IllegalStateException: connection pool exhausted')
        // Kept from the middle it carries its true line number; in head or tail it stands as is.
        const numbered = /(\d+): java\.lang/.exec(out.text)
        if (numbered !== null) expect(Number(numbered[1])).toBe(where + 1)
      }),
      { numRuns: 100 },
    )
  })
})
