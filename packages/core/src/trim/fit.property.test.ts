import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fitText, MIN_LINE_FIT } from './fit.js'
import { DEFAULT_PROFILES } from './profiles.js'

// Lines of a log: noise, failures that repeat (count notes), traces that grow, long lines.
const lineArb = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 999 }).map((n) => `[INFO] step ${n} done in ${n % 97} ms`) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 40 }).map((n) => `ERROR job ${n % 7} failed: connection reset by peer`) },
  { weight: 1, arbitrary: fc.constantFrom('java.lang.IllegalStateException: boom', '\tat a.B.c(B.java:12)', 'Caused by: java.io.IOException: disk', 'FAILED tests/x.py::test_y - assert 1 == 2', '--- FAIL: TestX (0.00s)', 'warning: unused variable', '') },
  { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
  { weight: 1, arbitrary: fc.nat(1500).map((n) => `E ${'x'.repeat(n)}`) },
)
const textArb = fc.array(lineArb, { minLength: 20, maxLength: 600 }).map((ls) => ls.join('\n'))
const profileArb = fc.constantFrom(...Object.keys(DEFAULT_PROFILES))

// The main marker (line form) and the gap markers, as `fit.ts` writes them.
const MAIN = /^\[\.\.\. spillway: omitted lines? (\d+)(?:-(\d+))? of \d+ \((\d+) chars/m
const GAP = /^(?:\d+: )?\[\.\.\. lines? (\d+)(?:-(\d+))? omitted \((\d+) chars/gm

describe('fitText: what an excerpt says it left out is what it left out', () => {
  it('the omitted ranges are the returned excerpt\'s: their chars are the main marker\'s, and each gap marker lies in one', () => {
    fc.assert(
      fc.property(textArb, fc.integer({ min: MIN_LINE_FIT, max: 12_000 }), profileArb, (text, budget, name) => {
        const out = fitText(text, budget, DEFAULT_PROFILES[name]!)
        expect(out.text.length).toBeLessThanOrEqual(budget)
        const main = MAIN.exec(out.text)
        if (main === null) return
        expect(out.omitted.reduce((sum, r) => sum + r.chars, 0)).toBe(Number(main[3]))
        for (const g of out.text.matchAll(GAP)) {
          const from = Number(g[1])
          const to = g[2] !== undefined ? Number(g[2]) : from
          expect(out.omitted.some((r) => r.start <= from && to <= r.end)).toBe(true)
        }
      }),
      { numRuns: 300 },
    )
  })
})
