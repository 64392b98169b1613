import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { reciprocalRankFusion } from './rrf.js'

/** Reference: the proposal's fusion loop, 1-based ranks, first occurrence in a list counts. */
function naiveRrf(lists: string[][], k: number): Map<string, number> {
  const scores = new Map<string, number>()
  for (const list of lists) {
    const seen = new Set<string>()
    list.forEach((item, i) => {
      if (seen.has(item)) return
      seen.add(item)
      scores.set(item, (scores.get(item) ?? 0) + 1 / (k + i + 1))
    })
  }
  return scores
}

describe('reciprocalRankFusion', () => {
  it('agrees with a naive reference and sorts by score', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g'), { maxLength: 10 }), { maxLength: 4 }),
        fc.integer({ min: 1, max: 100 }),
        (lists, k) => {
          const fused = reciprocalRankFusion(lists, k)
          const ref = naiveRrf(lists, k)
          expect(new Set(fused.map((f) => f.item))).toEqual(new Set(ref.keys()))
          for (const f of fused) expect(f.score).toBeCloseTo(ref.get(f.item)!, 12)
          for (let i = 1; i < fused.length; i++) expect(fused[i - 1]!.score).toBeGreaterThanOrEqual(fused[i]!.score - 1e-15)
          for (const f of fused) f.ranks.forEach((r, li) => expect(r).toBe(lists[li]!.indexOf(f.item) + 1))
        },
      ),
      { numRuns: 300 },
    )
  })

  it('uses k = 60 by default and ranks agreement above a single list', () => {
    const fused = reciprocalRankFusion([
      ['x', 'y', 'z'],
      ['y', 'x', 'w'],
    ])
    expect(fused[0]!.score).toBeCloseTo(1 / 61 + 1 / 62, 12)
    expect(fused.map((f) => f.item).slice(0, 2).sort()).toEqual(['x', 'y'])
    expect(fused.map((f) => f.item).slice(2)).toEqual(['z', 'w']) // tie broken by the first list
  })
})
