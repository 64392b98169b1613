import type { Bm25Params } from './types.js'

/** Okapi BM25 defaults (Robertson; Lucene and rank-bm25 use the same). */
export const DEFAULT_BM25: Readonly<Bm25Params> = Object.freeze({ k1: 1.2, b: 0.75 })

/** One document as weighted terms: each occurrence of a term counts its field's weight. */
export type WeightedTerms = ReadonlyArray<readonly [term: string, weight: number]>

/** A scored document: its position in the build order and its BM25 score. */
export interface DocScore {
  doc: number
  score: number
}

/** An inverted index: per term, the documents that contain it and their weighted term frequency. */
export interface Bm25Index {
  readonly docs: number
  readonly params: Readonly<Bm25Params>
  /** Top `k` documents for the query terms, best first, ties by document order. */
  score(terms: readonly string[], k: number): DocScore[]
}

/** BM25 inverse document frequency, the non-negative variant: ln(1 + (N - df + 0.5) / (df + 0.5)). */
export function idf(docs: number, df: number): number {
  return Math.log(1 + (docs - df + 0.5) / (df + 0.5))
}

interface Posting {
  docs: Int32Array
  /** Precomputed tf * (k1 + 1) / (tf + k1 * norm) per doc, so a query only multiplies by idf. */
  parts: Float64Array
  idf: number
}

/**
 * Builds a BM25F-style index (per-field weights folded into term frequency and document length,
 * one shared k1 and b). Query time touches only the postings of the query's terms.
 */
export function buildBm25(documents: readonly WeightedTerms[], params: Readonly<Bm25Params> = DEFAULT_BM25): Bm25Index {
  const n = documents.length
  const { k1, b } = params
  const lengths = new Float64Array(n)
  // Documents arrive in order, so a term's postings grow at the end: two flat arrays per term
  // (doc ids ascending, weighted tf) instead of a Map per term (the cold build's main cost).
  const tfs = new Map<string, { docs: number[]; tf: number[] }>()
  for (let d = 0; d < n; d++) {
    for (const [term, w] of documents[d]!) {
      lengths[d] = lengths[d]! + w
      let p = tfs.get(term)
      if (p === undefined) tfs.set(term, (p = { docs: [], tf: [] }))
      const last = p.docs.length - 1
      if (last >= 0 && p.docs[last] === d) p.tf[last] = p.tf[last]! + w
      else {
        p.docs.push(d)
        p.tf.push(w)
      }
    }
  }
  let total = 0
  for (const l of lengths) total += l
  const avgdl = n > 0 && total > 0 ? total / n : 1
  const postings = new Map<string, Posting>()
  for (const [term, p] of tfs) {
    const docs = Int32Array.from(p.docs)
    const parts = new Float64Array(docs.length)
    for (let i = 0; i < docs.length; i++) {
      const tf = p.tf[i]!
      const norm = 1 - b + (b * lengths[docs[i]!]!) / avgdl
      parts[i] = (tf * (k1 + 1)) / (tf + k1 * norm)
    }
    postings.set(term, { docs, parts, idf: idf(n, docs.length) })
  }
  // Reused across queries: scoring is synchronous, so no two queries share them at once.
  const acc = new Float64Array(n)
  const seen = new Uint8Array(n)
  const touched: number[] = []

  return {
    docs: n,
    params: Object.freeze({ k1, b }),
    score(terms, k) {
      if (k <= 0) return []
      for (const term of terms) {
        const p = postings.get(term)
        if (p === undefined) continue
        const { docs, parts } = p
        for (let i = 0; i < docs.length; i++) {
          const d = docs[i]!
          if (seen[d] === 0) {
            seen[d] = 1
            touched.push(d)
          }
          acc[d] = acc[d]! + p.idf * parts[i]!
        }
      }
      const hits = topK(touched, acc, k)
      for (const d of touched) {
        acc[d] = 0
        seen[d] = 0
      }
      touched.length = 0
      return hits
    },
  }
}

/** Best `k` of `docs` by `scores`, descending, ties by lower doc number; O(n log k). */
function topK(docs: readonly number[], scores: Float64Array, k: number): DocScore[] {
  const better = (a: number, b: number): boolean => scores[a]! > scores[b]! || (scores[a] === scores[b] && a < b)
  if (docs.length <= k) return [...docs].sort((a, b) => (better(a, b) ? -1 : 1)).map((doc) => ({ doc, score: scores[doc]! }))
  // Min-heap of the k best seen so far, worst at the root.
  const heap: number[] = []
  const down = (i: number): void => {
    for (;;) {
      const l = 2 * i + 1
      const r = l + 1
      let w = i
      if (l < heap.length && better(heap[w]!, heap[l]!)) w = l
      if (r < heap.length && better(heap[w]!, heap[r]!)) w = r
      if (w === i) return
      ;[heap[i], heap[w]] = [heap[w]!, heap[i]!]
      i = w
    }
  }
  for (const d of docs) {
    if (heap.length < k) {
      heap.push(d)
      let i = heap.length - 1
      while (i > 0) {
        const p = (i - 1) >> 1
        if (!better(heap[p]!, heap[i]!)) break
        ;[heap[i], heap[p]] = [heap[p]!, heap[i]!]
        i = p
      }
    } else if (better(d, heap[0]!)) {
      heap[0] = d
      down(0)
    }
  }
  return heap.sort((a, b) => (better(a, b) ? -1 : 1)).map((doc) => ({ doc, score: scores[doc]! }))
}
