import { describe, expect, it } from 'vitest'
import type { TrimMethod } from '../src/baselines/types.js'
import type { TrimCase } from '../src/corpus/types.js'
import { sampleEvenly } from '../src/suites/retrieval.js'
import { scanLines, trimResult } from '@spillway/core'
import { denseInput, excerptShaped, newlineScan, speedInput } from '../src/suites/speed.js'
import { REPORT_BUDGETS, runTrimming } from '../src/suites/trimming.js'
import { LINE_PREFIXES, isStamped, prefixesMarkdown, runPrefixes, withPrefix } from '../src/suites/prefixes.js'

const quiet = (): void => {}
// A method that keeps the first `budget` chars: a labelled line at char 5000 is kept from 8k up.
const prefix: TrimMethod = { id: 'prefix', label: 'prefix', source: 'test', budgetNative: true, run: (t, { budget }) => t.slice(0, budget) }
const log = `${'x'.repeat(4999)}\nFAILED here\n${'y'.repeat(20000)}`
const cases: TrimCase[] = [
  { kind: 'ci-log', name: 'a', text: log, labelled: ['FAILED here'], labelSource: 'toy' },
  { kind: 'json', name: 'b', text: JSON.stringify({ items: [1, 2, 3] }), jsonFacts: [{ type: 'key', key: 'items' }, { type: 'length', path: '$.items', length: 3 }] },
]

describe('trimming suite', () => {
  const result = runTrimming(cases, [prefix], (s) => s.length, quiet)
  it('aggregates tokens, retention and shape per kind and budget', () => {
    const ci = result.cells.filter((c) => c.kind === 'ci-log')
    expect(ci.map((c) => c.budget)).toEqual([...REPORT_BUDGETS])
    expect(ci.map((c) => c.retention)).toEqual([0, 0, 1, 1])
    expect(ci.find((c) => c.budget === 2000)?.keptShare).toBeCloseTo(2000 / log.length)
    expect(ci.every((c) => c.overBudget === 0)).toBe(true)
    // The JSON body fits every budget: shown whole, its shape counts as stated.
    expect(result.cells.filter((c) => c.kind === 'json').map((c) => c.shapeStated)).toEqual([1, 1, 1, 1])
    expect(result.kinds).toEqual([
      { kind: 'ci-log', cases: 1, tokens: log.length, chars: log.length },
      { kind: 'json', cases: 1, tokens: cases[1]!.text.length, chars: cases[1]!.text.length },
    ])
  })
  it('finds the smallest grid budget that keeps 90% of the labelled lines', () => {
    expect(result.curves).toHaveLength(1)
    expect(result.curves[0]).toMatchObject({ method: 'prefix', labelSource: 'toy', kind: 'ci-log', budgetFor90: 6000, medianPerLogBudgetFor90: 6000, logsAt90At8k: 1 })
  })
  it('leaves logs without a non-blank label out of the curves, as out of the cells', () => {
    const blank: TrimCase = { kind: 'ci-log', name: 'c', text: log, labelled: ['', '   '], labelSource: 'toy' }
    const withBlank = runTrimming([...cases, blank], [prefix], (s) => s.length, quiet)
    expect(withBlank.curves[0]).toMatchObject({ cases: 1, budgetFor90: 6000, logsAt90At8k: 1 })
    expect(withBlank.curves[0]!.points).toEqual(result.curves[0]!.points)
    expect(withBlank.cells.filter((c) => c.kind === 'ci-log').map((c) => c.retention)).toEqual([0, 0, 1, 1])
  })
})

describe('helpers', () => {
  it('samples evenly and keeps short lists whole', () => {
    expect(sampleEvenly([1, 2, 3], 5)).toEqual([1, 2, 3])
    expect(sampleEvenly([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 5)).toEqual([0, 2, 4, 6, 8])
  })
  it('builds deterministic speed inputs of the asked size and counts newlines', () => {
    const a = speedInput(1)
    expect(a).toBe(speedInput(1))
    expect(Math.abs(a.length - 2 ** 20) / 2 ** 20).toBeLessThan(0.01)
    expect(a).toContain('FATAL')
    expect(newlineScan('a\nb\n\nc')).toBe(3)
  })
  it('builds a deterministic dense log whose every line the scan finds salient, past its limit', () => {
    const d = denseInput(1)
    expect(d).toBe(denseInput(1))
    expect(Math.abs(d.length - 2 ** 20) / 2 ** 20).toBeLessThan(0.01)
    const scan = scanLines(d, true)
    expect(scan.salientTotal).toBe(scan.lines)
    expect(scan.salientTotal).toBeGreaterThan(10_000)
  })
  it('builds an excerpt-shaped text that trimResult re-fits in its numbers, and with the marker renamed fits as any log', () => {
    const ours = excerptShaped(2000)
    expect(ours).toBe(excerptShaped(2000))
    const refit = trimResult(ours, { tool: 'terminal', maxChars: 4000 })
    expect(refit.applied).toEqual(['refit'])
    expect(refit.text).toMatch(/^head\n\[\.\.\. spillway: omitted lines \d+-\d+ of 2002 /)
    const other = trimResult(ours.replace('[... spillway:', '[... other:'), { tool: 'terminal', maxChars: 4000 })
    expect(other.applied).toContain('fit')
    expect(other.applied).not.toContain('refit')
  })
})

describe('prefix suite', () => {
  const plain: TrimCase = { kind: 'ci-log', name: 'p', text: 'step 1\n  [ERROR] Tests run: 2, Failures: 1\nstep 2\n', labelled: ['[ERROR] Tests run: 2, Failures: 1'], labelSource: 'toy' }
  const stamped: TrimCase = { kind: 'ci-log', name: 's', text: Array.from({ length: 10 }, (_, i) => `2024-01-02T03:04:0${i}.1234567Z line ${i}`).join('\n'), labelled: ['2024-01-02T03:04:01.1234567Z line 1'], labelSource: 'toy' }
  it('puts the prefix before every line and on the labels, as the lines they match', () => {
    const compose = LINE_PREFIXES.find((p) => p.id === 'compose')!
    const out = withPrefix(plain, compose)
    expect(out.text).toBe('app-1  | step 1\napp-1  |   [ERROR] Tests run: 2, Failures: 1\napp-1  | step 2\n')
    expect(out.labelled).toEqual(['app-1  |   [ERROR] Tests run: 2, Failures: 1'])
    const none = withPrefix(plain, LINE_PREFIXES[0]!)
    expect(none.text).toBe(plain.text)
    expect(none.labelled!.map((l) => l.trim())).toEqual(plain.labelled)
  })
  it('leaves logs that carry a timestamp already out, and reports every method under every prefix', () => {
    expect(isStamped(stamped)).toBe(true)
    expect(isStamped(plain)).toBe(false)
    const r = runPrefixes([['toy', [plain, stamped]]], [prefix])
    expect(r.rows).toHaveLength(LINE_PREFIXES.length)
    expect(r.rows.every((row) => row.logs === 1 && row.retention.every((x) => x === 1))).toBe(true)
    expect(r.overBudget).toBe(0)
    expect(prefixesMarkdown(r)).toContain('app-1  \\| ')
  })
})
