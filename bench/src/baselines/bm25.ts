// Keyword retrieval baselines.
// - Plain BM25 (Okapi, k1 1.2, b 0.75) over name + description: the textbook baseline, also the
//   one the corpus README quotes.
// - Hermes-style BM25 (k1 1.5, b 0.75) over name + description + parameter names: Hermes Agent's
//   tool_search retrieval as described in progressive-tool-disclosure-pr.txt (PR #31163,
//   "BM25 retrieval") with the usual rank-bm25 / Python defaults.
// Both tokenize the same simple way (lower-case, split on anything not a letter or digit, so
// `snake_case` names split; no camelCase split, no stemming, no stop words) and use the
// non-negative IDF ln(1 + (N - df + 0.5) / (df + 0.5)). Tools sharing no term with the query are
// not returned; ties keep catalog order.
import type { ToolDescriptor } from '@spillway/core'

/** Lower-case letter/digit runs. */
export function simpleTokens(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
}

/** Parameter names of a JSON Schema object (top-level `properties` keys). */
export function parameterNames(parameters: unknown): string[] {
  if (parameters === null || typeof parameters !== 'object') return []
  const props = (parameters as { properties?: unknown }).properties
  return props !== null && typeof props === 'object' ? Object.keys(props) : []
}

/** A BM25 ranker over a fixed tool set. */
export interface KeywordRanker {
  /** Tool names sharing a term with the query, best first. */
  rank(query: string): string[]
}

/** Options of {@link createBm25}. */
export interface Bm25Options {
  /** Term-frequency saturation, >= 0. */
  k1: number
  /** Length normalisation, 0..1. */
  b: number
  /** Text indexed for a tool. */
  text: (tool: ToolDescriptor) => string
}

/** Builds an Okapi BM25 index (one field) over the tools. */
export function createBm25(tools: readonly ToolDescriptor[], { k1, b, text }: Bm25Options): KeywordRanker {
  const postings = new Map<string, Array<[doc: number, tf: number]>>()
  const lengths = new Float64Array(tools.length)
  tools.forEach((tool, doc) => {
    const tokens = simpleTokens(text(tool))
    lengths[doc] = tokens.length
    const tf = new Map<string, number>()
    for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1)
    for (const [t, n] of tf) {
      let list = postings.get(t)
      if (list === undefined) postings.set(t, (list = []))
      list.push([doc, n])
    }
  })
  const n = tools.length
  let total = 0
  for (const l of lengths) total += l
  const avgdl = n === 0 ? 0 : total / n
  return {
    rank(query) {
      const scores = new Map<number, number>()
      for (const term of new Set(simpleTokens(query))) {
        const list = postings.get(term)
        if (list === undefined) continue
        const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5))
        for (const [doc, tf] of list) {
          const norm = tf + k1 * (1 - b + (b * lengths[doc]!) / (avgdl || 1))
          scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf * (k1 + 1)) / norm)
        }
      }
      return [...scores].sort((x, y) => y[1] - x[1] || x[0] - y[0]).map(([doc]) => tools[doc]!.name)
    },
  }
}

/** Plain BM25: k1 1.2, b 0.75, name + description. */
export const plainBm25 = (tools: readonly ToolDescriptor[]): KeywordRanker =>
  createBm25(tools, { k1: 1.2, b: 0.75, text: (t) => `${t.name} ${t.description ?? ''}` })

/** Hermes-style BM25: k1 1.5, b 0.75, name + description + parameter names. */
export const hermesBm25 = (tools: readonly ToolDescriptor[]): KeywordRanker =>
  createBm25(tools, { k1: 1.5, b: 0.75, text: (t) => `${t.name} ${t.description ?? ''} ${parameterNames(t.parameters).join(' ')}` })
