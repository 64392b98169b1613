// Retrieval suite: Recall@1/5/10, MRR and per-query latency for spillway's keyword mode and the
// keyword baselines, on every retrieval set, same queries.
import { join } from 'node:path'
import { createToolIndex, selectTools } from '@spillway/core'
import { aiSdkToolSearch } from '../baselines/ai-sdk-tool-search.js'
import { hermesBm25, plainBm25 } from '../baselines/bm25.js'
import type { RetrievalSet } from '../corpus/types.js'
import { scoreRankings, type RetrievalScores } from '../metrics/retrieval.js'
import { median } from '../metrics/stats.js'
import type { Progress } from '../progress.js'
import { coldBuilds, type ColdBuild } from './cold-build.js'

/** One (set, method) row. */
export interface RetrievalRow extends RetrievalScores {
  set: string
  method: string
  tools: number
  /** Median query latency, microseconds. */
  medianUs: number
  /** Index build time, ms (in this process: warm for every set after the first). */
  buildMs: number
  /**
   * spillway rows only: median latency of `selectTools({ index, query, k: 5 })` and of
   * `searchKeyword(query, 5)` over the same queries, alternating, and their ratio.
   */
  select?: { selectUs: number; searchUs: number; ratio: number }
  /** spillway row of the largest set, when `coldDir` is given: first build in fresh processes vs plain BM25. */
  coldBuild?: ColdBuild
}

/** Fresh-process builds per method for {@link ColdBuild} (full mode; quick mode uses 1). */
export const COLD_REPS = 5

/** Retrieval methods in report order: id, label, source. */
export const RETRIEVAL_METHODS = [
  { id: 'spillway', label: 'spillway keyword', source: '@spillway/core createToolIndex + searchKeyword (BM25F, stemming, stop words)' },
  { id: 'spillway-extra', label: 'spillway keyword + extraText', source: 'as spillway, plus extraText = the other string fields of tools.json (long description, API category...)' },
  { id: 'bm25', label: 'plain BM25', source: 'Okapi BM25 k1 1.2 b 0.75, name + description' },
  { id: 'hermes-bm25', label: 'Hermes-style BM25', source: 'k1 1.5 b 0.75, name + description + parameter names (progressive-tool-disclosure-pr.txt)' },
  { id: 'ai-sdk-7', label: 'AI SDK 7 toolSearch', source: 'ai 7.0.173 toolSearch() bound by ai/internal createToolSearchState (the SDK\'s own default scoring: +2 term in name, +1 in description)' },
] as const

/** Picks at most `max` items spread evenly over the list (deterministic). */
export function sampleEvenly<T>(queries: readonly T[], max: number): T[] {
  if (queries.length <= max) return [...queries]
  const step = queries.length / max
  return Array.from({ length: max }, (_, i) => queries[Math.floor(i * step)]!)
}

/** Runs the retrieval suite; `maxQueries` caps the queries per set (quick mode). */
export async function runRetrieval(sets: readonly RetrievalSet[], maxQueries: number, progress: Progress, coldDir?: string, coldReps = COLD_REPS): Promise<RetrievalRow[]> {
  const rows: RetrievalRow[] = []
  const largest = sets.reduce<RetrievalSet | undefined>((a, s) => (a === undefined || s.tools.length > a.tools.length ? s : a), undefined)
  for (const set of sets) {
    const queries = sampleEvenly(set.queries, maxQueries)
    const rankers: Array<{ id: string; rank: (query: string) => string[] | Promise<string[]>; buildMs: number }> = []
    let t0 = performance.now()
    const index = await createToolIndex(set.tools)
    const size = index.size
    rankers.push({ id: 'spillway', rank: (q) => index.searchKeyword(q, size).map((h) => h.name), buildMs: performance.now() - t0 })
    if (Object.keys(set.extra).length > 0) {
      t0 = performance.now()
      const withExtra = await createToolIndex(set.tools, { extraText: (t) => set.extra[t.name] })
      rankers.push({ id: 'spillway-extra', rank: (q) => withExtra.searchKeyword(q, size).map((h) => h.name), buildMs: performance.now() - t0 })
    }
    t0 = performance.now()
    const bm = plainBm25(set.tools)
    rankers.push({ id: 'bm25', rank: bm.rank, buildMs: performance.now() - t0 })
    t0 = performance.now()
    const hb = hermesBm25(set.tools)
    rankers.push({ id: 'hermes-bm25', rank: hb.rank, buildMs: performance.now() - t0 })
    t0 = performance.now()
    const sdk = aiSdkToolSearch(set.tools)
    rankers.push({ id: 'ai-sdk-7', rank: (q) => sdk.rank(q), buildMs: performance.now() - t0 })

    const ranked = rankers.map(() => [] as Array<{ ranked: string[]; relevant: string[] }>)
    const times = rankers.map(() => [] as number[])
    for (const [qi, q] of queries.entries()) {
      // Rotate the order per query so no method always runs first (warm caches, GC).
      for (let j = 0; j < rankers.length; j++) {
        const m = (qi + j) % rankers.length
        const s = performance.now()
        const answer = rankers[m]!.rank(q.query)
        // Only the AI SDK's search is async (its tool's execute); awaited inside its own timing.
        const r = Array.isArray(answer) ? answer : await answer
        times[m]!.push((performance.now() - s) * 1000)
        ranked[m]!.push({ ranked: r, relevant: q.relevant })
      }
    }
    // selectTools against the search it wraps, same queries, alternating which runs first.
    const selectUs: number[] = []
    const searchUs: number[] = []
    for (const [qi, q] of queries.entries()) {
      const runSelect = async (): Promise<void> => {
        const s = performance.now()
        await selectTools({ index, query: q.query, k: 5 })
        selectUs.push((performance.now() - s) * 1000)
      }
      const runSearch = (): void => {
        const s = performance.now()
        index.searchKeyword(q.query, 5)
        searchUs.push((performance.now() - s) * 1000)
      }
      if (qi % 2 === 0) {
        await runSelect()
        runSearch()
      } else {
        runSearch()
        await runSelect()
      }
    }
    const select = { selectUs: median(selectUs), searchUs: median(searchUs), ratio: median(searchUs) > 0 ? median(selectUs) / median(searchUs) : 0 }
    const cold = coldDir !== undefined && set === largest ? coldBuilds(join(coldDir, set.name, 'tools.json'), coldReps) : undefined
    rankers.forEach((r, m) => {
      const row: RetrievalRow = { set: set.name, method: r.id, tools: set.tools.length, ...scoreRankings(ranked[m]!), medianUs: median(times[m]!), buildMs: r.buildMs }
      if (r.id === 'spillway') {
        row.select = select
        if (cold !== undefined) row.coldBuild = cold
      }
      rows.push(row)
    })
    progress(`retrieval: ${set.name} (${set.tools.length} tools, ${queries.length} queries) done`)
  }
  return rows
}
