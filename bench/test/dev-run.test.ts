import { describe, expect, it } from 'vitest'
import { devRetention } from '../src/dev-run.js'
import { syntheticCorpus } from '../src/corpus/synthetic.js'
import type { TrimCase } from '../src/corpus/types.js'
import { fitWeights } from '../src/metrics/fit-weights.js'
import { mean } from '../src/metrics/stats.js'

const quiet = (): void => {}
const cases: TrimCase[] = syntheticCorpus().cases
  .filter((c) => c.kind === 'ci-log' && c.labelled !== undefined)
  .slice(0, 4)
  .map((c, i) => ({ ...c, labelSource: `src-${i % 2}` }))
const budgets = [1000, 8000]

describe('dev-run (the fast development check)', () => {
  it("gives the trimming suite's shipped-defaults figures for the same logs", () => {
    const fit = fitWeights(cases, budgets, () => 'line', quiet)
    const suite = fit.shipped.length > 0 ? fit.shipped : fit.inSample
    const fast = devRetention(cases, budgets)
    expect(fast).toHaveLength(cases.length)
    const means = budgets.map((_, i) => mean(fast.map((r) => r[i]!)))
    for (const [i, m] of means.entries()) expect(m).toBeCloseTo(suite[i]!, 10)
    // 1k keeps some labelled lines and not all of them: a figure a wrong tool or label rule would move.
    expect(means[0]!).toBeGreaterThan(0)
    expect(means[0]!).toBeLessThan(1)
  })
})
