import type { Embedder, SearchMode, ToolIndex } from '@spillway/core'
import { createToolIndex } from '@spillway/core'

/** A deferred tool as ai 7's `toolSearch` hands it to the `search` callback. */
export interface SearchableTool {
  name: string
  description?: string
}

/** Options of {@link toolSearchRanker}. */
export interface ToolSearchRankerOptions {
  /** A prebuilt index (richer: schemas, vectors). Without it one is built over the tools passed in. */
  index?: ToolIndex
  /** Embedder for the index built on the fly (ignored when `index` is given). */
  embedder?: Embedder
  /** How the query is matched; `undefined` lets the index choose. */
  mode?: SearchMode
}

/**
 * A ranker for ai 7's `toolSearch({ search })`: ranks the eligible deferred tools for the model's
 * query with spillway's tool index (BM25, or hybrid with an embedder) and returns their names,
 * best first. The SDK then drops unknown names and applies `maxResults`.
 *
 * @example
 * ```ts
 * import { toolSearch } from 'ai'
 * const tools = { ...deferredTools, tool_search: toolSearch({ search: toolSearchRanker() }) }
 * ```
 */
export function toolSearchRanker(
  options: ToolSearchRankerOptions = {},
): (request: { query: string; tools: SearchableTool[] }) => Promise<string[]> {
  let cached: { key: string; index: Promise<ToolIndex> } | undefined
  const indexFor = (tools: SearchableTool[]): Promise<ToolIndex> => {
    if (options.index) return Promise.resolve(options.index)
    const key = JSON.stringify(tools.map((t) => [t.name, t.description ?? '']))
    if (cached?.key !== key) {
      const descriptors = tools.map((t) => ({ name: t.name, ...(t.description === undefined ? {} : { description: t.description }) }))
      cached = { key, index: createToolIndex(descriptors, options.embedder ? { embedder: options.embedder } : {}) }
    }
    return cached.index
  }
  return async ({ query, tools }) => {
    const index = await indexFor(tools)
    const eligible = new Set(tools.map((t) => t.name))
    const hits = await index.search(query, { k: index.size, ...(options.mode === undefined ? {} : { mode: options.mode }) })
    return hits.map((hit) => hit.name).filter((name) => eligible.has(name))
  }
}
