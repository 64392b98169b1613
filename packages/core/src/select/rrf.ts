/** Reciprocal rank fusion constant (Cormack, Clarke & Büttcher 2009). */
export const DEFAULT_RRF_K = 60

/** A fused item: its RRF score and its 1-based rank in each list that had it. */
export interface Fused<T> {
  item: T
  score: number
  ranks: number[] // per input list; 0 = absent
}

/**
 * Reciprocal rank fusion: `score(d) = sum over lists of 1 / (k + rank(d))`, ranks 1-based; an item
 * missing from a list gets nothing from it. Best first; ties by the first list's order, then the
 * next, then first appearance, so the result is deterministic.
 */
export function reciprocalRankFusion<T>(lists: ReadonlyArray<readonly T[]>, k: number = DEFAULT_RRF_K): Fused<T>[] {
  const byItem = new Map<T, Fused<T> & { first: number }>()
  let order = 0
  lists.forEach((list, li) => {
    list.forEach((item, i) => {
      let f = byItem.get(item)
      if (f === undefined) byItem.set(item, (f = { item, score: 0, ranks: new Array<number>(lists.length).fill(0), first: order++ }))
      if (f.ranks[li] !== 0) return // duplicates in one list count once, at their best rank
      f.ranks[li] = i + 1
      f.score += 1 / (k + i + 1)
    })
  })
  const tieKey = (f: Fused<T>): number[] => f.ranks.map((r) => (r === 0 ? Infinity : r))
  return [...byItem.values()]
    .sort((a, b) => {
      if (b.score !== a.score) return b.score - a.score
      const ka = tieKey(a)
      const kb = tieKey(b)
      for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i]! - kb[i]!
      return a.first - b.first
    })
    .map(({ item, score, ranks }) => ({ item, score, ranks }))
}
