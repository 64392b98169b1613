// Test helper: retrieval sets of ../shared/corpus/retrieval (never copied into the repo), the
// plain-BM25 reference scorer and the Recall@k / MRR metrics.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { CORPUS } from './corpus.js'

export interface RetrievalTool {
  name: string
  description?: string
  parameters?: unknown
  [extra: string]: unknown
}
export interface RetrievalQuery {
  query: string
  relevant: string[]
}
export interface RetrievalSet {
  name: string
  tools: RetrievalTool[]
  queries: RetrievalQuery[]
}

export const RETRIEVAL_SETS = ['metatool', 'toolbench'] as const
export const hasRetrievalCorpus = RETRIEVAL_SETS.every((s) => existsSync(join(CORPUS, 'retrieval', s, 'tools.json')))

export function loadRetrievalSet(name: (typeof RETRIEVAL_SETS)[number]): RetrievalSet {
  const dir = join(CORPUS, 'retrieval', name)
  const tools = JSON.parse(readFileSync(join(dir, 'tools.json'), 'utf8')) as RetrievalTool[]
  const queries = readFileSync(join(dir, 'queries.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as RetrievalQuery)
  return { name, tools, queries }
}

/** Lowercase words of letters and digits: the "simple" tokenization of the plain baseline. */
export const plainTokens = (text: string): string[] => text.toLowerCase().match(/[a-z0-9]+/g) ?? []

/**
 * Plain BM25 as rank-bm25's `BM25Okapi` computes it (the library the pre-selection proposal
 * names): k1 1.2, b 0.75, idf ln((N - df + 0.5) / (df + 0.5)) with negative idfs raised to
 * 0.25 x the mean idf. Over name + description, no stemming, no stop words, scored by a naive
 * full scan. (It scores slightly above the ln(1 + ...) idf variant on both sets, so it is the
 * stricter baseline.) Returns a ranker: names best first, ties by catalog order, zero scores
 * left out.
 */
export function plainBm25(tools: readonly RetrievalTool[], k1 = 1.2, b = 0.75): (query: string, k: number) => string[] {
  const docs = tools.map((t) => {
    const tf = new Map<string, number>()
    const toks = plainTokens(`${t.name} ${t.description ?? ''}`)
    for (const w of toks) tf.set(w, (tf.get(w) ?? 0) + 1)
    return { tf, len: toks.length }
  })
  const n = docs.length
  const avgdl = docs.reduce((s, d) => s + d.len, 0) / Math.max(1, n) || 1
  const df = new Map<string, number>()
  for (const d of docs) for (const w of d.tf.keys()) df.set(w, (df.get(w) ?? 0) + 1)
  const idf = new Map<string, number>()
  let sum = 0
  for (const [w, f] of df) {
    const v = Math.log((n - f + 0.5) / (f + 0.5))
    idf.set(w, v)
    sum += v
  }
  const eps = (0.25 * sum) / Math.max(1, idf.size)
  for (const [w, v] of idf) if (v < 0) idf.set(w, eps)
  return (query, k) => {
    const q = plainTokens(query)
    const scored = docs.map((d, i) => {
      let s = 0
      for (const w of q) {
        const tf = d.tf.get(w) ?? 0
        if (tf === 0) continue
        s += idf.get(w)! * ((tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * d.len) / avgdl)))
      }
      return { i, s }
    })
    return scored
      .filter((x) => x.s > 0)
      .sort((a, b) => b.s - a.s || a.i - b.i)
      .slice(0, k)
      .map((x) => tools[x.i]!.name)
  }
}

export interface RetrievalMetrics {
  queries: number
  r1: number
  r5: number
  r10: number
  mrr: number
}

/** Mean Recall@1/5/10 (share of a query's relevant tools in the top k) and MRR (first relevant hit). */
export function evaluate(queries: readonly RetrievalQuery[], rank: (query: string, k: number) => string[]): RetrievalMetrics {
  let r1 = 0
  let r5 = 0
  let r10 = 0
  let mrr = 0
  for (const q of queries) {
    const got = rank(q.query, 10)
    const rel = new Set(q.relevant)
    const recall = (k: number): number => got.slice(0, k).filter((n) => rel.has(n)).length / rel.size
    r1 += recall(1)
    r5 += recall(5)
    r10 += recall(10)
    const first = got.findIndex((n) => rel.has(n))
    mrr += first === -1 ? 0 : 1 / (first + 1)
  }
  const n = Math.max(1, queries.length)
  return { queries: queries.length, r1: r1 / n, r5: r5 / n, r10: r10 / n, mrr: mrr / n }
}
