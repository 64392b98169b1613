import { SpillwayError } from '../errors.js'
import { bm25FromPostings, DEFAULT_BM25 } from './bm25.js'
import { toolChecksum, toolSetChecksum } from './checksum.js'
import { DEFAULT_FIELD_WEIGHTS, eachParameterText, embeddingText } from './fields.js'
import { termFeeder } from './feed.js'
import { postingsBuilder, type Postings } from './postings.js'
import { DEFAULT_RRF_K, reciprocalRankFusion } from './rrf.js'
import { tokenize } from './tokenize.js'
import { dot, embedChecked, embedTools, exportToolVectors } from './vectors.js'
import type { FieldWeights, SearchMode, ToolDescriptor, ToolHit, ToolIndex, ToolIndexOptions } from './types.js'

/** Hits returned when `k` is not given. */
export const DEFAULT_SEARCH_K = 10

/** Query vectors kept, so repeated searches for one turn embed the query once. */
const QUERY_CACHE_SIZE = 32

/**
 * Builds a searchable index over a tool set: a BM25 inverted index over the name, description and
 * parameter fields and, with an embedder, one vector per tool (reused from `options.vectors` when
 * the tool is unchanged). Throws `SpillwayError('invalid_argument')` on duplicate or empty names
 * or a misbehaving embedder: this runs at setup, not inside the agent loop.
 *
 * @example
 * const index = await createToolIndex(tools, { embedder })
 * const hits = await index.search('open a pull request', { k: 8, mode: 'hybrid' })
 */
export async function createToolIndex(tools: readonly ToolDescriptor[], options: ToolIndexOptions = {}): Promise<ToolIndex> {
  const weights = { ...DEFAULT_FIELD_WEIGHTS, ...options.fieldWeights }
  const params = { ...DEFAULT_BM25, ...options.bm25 }
  const rrfK = options.rrfK ?? DEFAULT_RRF_K
  const embedderId = options.embedderId ?? 'default'
  if (!(params.k1 >= 0) || !(params.b >= 0 && params.b <= 1)) throw new SpillwayError('invalid_argument', 'bm25 needs k1 >= 0 and 0 <= b <= 1')
  if (!(rrfK > 0)) throw new SpillwayError('invalid_argument', 'rrfK must be > 0')

  const list = tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }) as ToolDescriptor)
  const names = list.map((t) => t.name)
  const position = new Map<string, number>()
  names.forEach((n, i) => {
    if (typeof n !== 'string' || n === '') throw new SpillwayError('invalid_argument', `tool #${i} has no name`)
    if (position.has(n)) throw new SpillwayError('invalid_argument', `duplicate tool name "${n}"`)
    position.set(n, i)
  })
  // The caller's own object, so extraText can read fields beyond the descriptor's three.
  const extraOf = (t: ToolDescriptor): string | undefined => {
    try {
      const x = options.extraText?.(t)
      return typeof x === 'string' ? x : undefined
    } catch {
      return undefined
    }
  }
  const bm25 = bm25FromPostings(indexPostings(list, tools, weights, extraOf), params)
  // Checksums hash every schema (the costliest part of a keyword-only build): computed only
  // when an embedder needs them, and the set's checksum on first read.
  const embedder = options.embedder
  const checksums = embedder === undefined ? [] : list.map(toolChecksum)
  let checksum: string | undefined
  const vec = embedder === undefined ? undefined : await embedTools(list.map(embeddingText), checksums, embedder, embedderId, options.vectors)
  const queryCache = new Map<string, Float32Array>()

  // A non-string query (a framework handing over undefined) searches for nothing rather than throwing.
  const terms = (query: unknown): string[] => (typeof query === 'string' ? tokenize(query) : [])
  const searchKeyword = (query: string, k: number = DEFAULT_SEARCH_K): ToolHit[] =>
    bm25.score(terms(query), Number.isFinite(k) ? Math.max(0, Math.floor(k)) : list.length).map(({ doc, score }) => ({ name: names[doc]!, score }))

  /** All tools by cosine similarity, best first, ties by declaration order; undefined if the embedder fails. */
  const semanticRanking = async (query: string): Promise<Array<{ doc: number; score: number }> | undefined> => {
    if (embedder === undefined || vec === undefined) return undefined
    let q = queryCache.get(query)
    if (q === undefined) {
      try {
        q = (await embedChecked(embedder, [query], vec.dims || undefined))[0]
      } catch {
        return undefined // fail open: the caller falls back to keyword ranks
      }
      if (q === undefined) return undefined
      if (queryCache.size >= QUERY_CACHE_SIZE) queryCache.delete(queryCache.keys().next().value as string)
      queryCache.set(query, q)
    }
    const qv = q
    return vec.vectors.map((v, doc) => ({ doc, score: dot(v, qv) })).sort((a, b) => b.score - a.score || a.doc - b.doc)
  }

  const search = async (query: string, opts: { k?: number; mode?: SearchMode } = {}): Promise<ToolHit[]> => {
    const k = Number.isFinite(opts.k ?? DEFAULT_SEARCH_K) ? Math.max(0, Math.floor(opts.k ?? DEFAULT_SEARCH_K)) : list.length
    if (typeof query !== 'string') return []
    const mode = opts.mode ?? (embedder !== undefined ? 'hybrid' : 'keyword')
    if (mode === 'keyword' || embedder === undefined) return searchKeyword(query, k)
    const semantic = await semanticRanking(query)
    if (semantic === undefined) return searchKeyword(query, k)
    if (mode === 'semantic') return semantic.slice(0, k).map(({ doc, score }, i) => ({ name: names[doc]!, score, ranks: { semantic: i + 1 } }))
    const keyword = bm25.score(terms(query), list.length)
    const fused = reciprocalRankFusion([keyword.map((h) => h.doc), semantic.map((h) => h.doc)], rrfK)
    return fused.slice(0, k).map(({ item, score, ranks }) => {
      const r: { keyword?: number; semantic?: number } = {}
      if (ranks[0]! > 0) r.keyword = ranks[0]!
      if (ranks[1]! > 0) r.semantic = ranks[1]!
      return { name: names[item]!, score, ranks: r }
    })
  }

  return {
    size: list.length,
    get checksum() {
      return (checksum ??= toolSetChecksum(list))
    },
    names: Object.freeze([...names]),
    search,
    searchKeyword,
    exportVectors: () => (vec === undefined ? undefined : exportToolVectors(checksums, vec.vectors, vec.dims, embedderId)),
    has: (name) => position.has(name),
    indexOf: (name) => position.get(name) ?? -1,
    defaultMode: embedder !== undefined ? 'hybrid' : 'keyword',
    get: (name) => {
      const i = position.get(name)
      return i === undefined ? undefined : list[i]
    },
  }
}

/** BM25F postings of the tools: the terms `toolTerms` gives each tool, fed field by field. */
function indexPostings(
  list: readonly ToolDescriptor[],
  tools: readonly ToolDescriptor[],
  weights: Readonly<FieldWeights>,
  extraOf: (t: ToolDescriptor) => string | undefined,
): Postings {
  const builder = postingsBuilder(list.length)
  const feed = termFeeder(builder)
  const feedParameter = (text: string): void => feed(text, weights.parameters)
  for (let i = 0; i < list.length; i++) {
    const t = list[i]!
    feed(t.name, weights.name)
    feed(t.description, weights.description)
    if (weights.parameters > 0) eachParameterText(t.parameters, feedParameter)
    const extra = extraOf(tools[i]!)
    if (extra !== undefined) feed(extra, weights.extra)
    builder.endDoc()
  }
  return builder.finish()
}
