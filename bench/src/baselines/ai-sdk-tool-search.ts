// AI SDK 7's default `toolSearch()` ranking (ai 7.0.173, dist/index.js, `createToolSearchState`,
// used when no custom `search` is passed): the query's distinct terms are matched against each
// deferred tool's name and description, +2 for a term among the name's terms and +1 for a term
// among the description's terms; tools scoring 0 are dropped; a stable sort by score keeps
// catalog order on ties; the tool returns the first `maxResults` (default 5). Terms: camelCase
// split (`aB` -> `a B`), lower-cased, runs of letters/digits. Like the SDK, the tools are
// re-tokenized on every query. We keep the whole ranking (not just 5) so Recall@10 is defined.
import type { ToolDescriptor } from '@spillway/core'
import type { KeywordRanker } from './bm25.js'

/** The SDK's tokenizer. */
export function aiSdkTokens(text: string): string[] {
  return text.replace(/([a-z\d])([A-Z])/g, '$1 $2').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []
}

/** AI SDK 7 default tool-search scoring over the tools. */
export function aiSdkToolSearch(tools: readonly ToolDescriptor[]): KeywordRanker {
  return {
    rank(query) {
      const terms = [...new Set(aiSdkTokens(query))]
      return tools
        .map(({ name, description }) => {
          const nameTerms = aiSdkTokens(name)
          const descriptionTerms = aiSdkTokens(description ?? '')
          const score = terms.reduce((s, term) => s + (nameTerms.includes(term) ? 2 : 0) + (descriptionTerms.includes(term) ? 1 : 0), 0)
          return { name, score }
        })
        .filter((m) => m.score > 0)
        .sort((a, b) => b.score - a.score)
        .map((m) => m.name)
    },
  }
}
