/** Recall@k of one query: share of the relevant names among the first k ranked. */
export function recallAt(ranked: readonly string[], relevant: readonly string[], k: number): number {
  if (relevant.length === 0) return 0
  const top = new Set(ranked.slice(0, k))
  let hit = 0
  for (const r of relevant) if (top.has(r)) hit++
  return hit / relevant.length
}

/** Reciprocal rank of the first relevant name (1-based), 0 when none is ranked. */
export function reciprocalRank(ranked: readonly string[], relevant: readonly string[]): number {
  const want = new Set(relevant)
  for (let i = 0; i < ranked.length; i++) if (want.has(ranked[i]!)) return 1 / (i + 1)
  return 0
}

/** Mean Recall@1/5/10 and MRR over queries. */
export interface RetrievalScores {
  recall1: number
  recall5: number
  recall10: number
  mrr: number
  queries: number
}

/** Averages the per-query metrics. */
export function scoreRankings(rows: ReadonlyArray<{ ranked: readonly string[]; relevant: readonly string[] }>): RetrievalScores {
  let r1 = 0, r5 = 0, r10 = 0, mrr = 0
  for (const { ranked, relevant } of rows) {
    r1 += recallAt(ranked, relevant, 1)
    r5 += recallAt(ranked, relevant, 5)
    r10 += recallAt(ranked, relevant, 10)
    mrr += reciprocalRank(ranked, relevant)
  }
  const n = Math.max(1, rows.length)
  return { recall1: r1 / n, recall5: r5 / n, recall10: r10 / n, mrr: mrr / n, queries: rows.length }
}
