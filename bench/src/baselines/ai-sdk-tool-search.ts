// AI SDK 7's default `toolSearch()` ranking, run by the SDK itself: the catalog becomes real
// `deferLoading` tools beside a real `toolSearch({ maxResults })`, and `createToolSearchState`
// (exported by `ai/internal`; it is what `generateText` and `streamText` call each step) binds the
// search tool exactly as a generation does. Its `execute` is the SDK's own scoring (+2 per query
// term among the name's terms, +1 among the description's, 0 dropped, ties in catalog order) with
// no model in the loop. `maxResults` is the catalog size so Recall@10 is defined (the SDK default
// returns 5).
import type { ToolDescriptor } from '@spillway/core'
import { jsonSchema, tool, toolSearch, type ToolSet } from 'ai-v7'
import { createToolSearchState } from 'ai-v7/internal'

/** A ranker whose answer may be asynchronous (the SDK's search tool always is). */
export interface AsyncKeywordRanker {
  rank(query: string): Promise<string[]>
}

/** Key of the search tool in the set; no catalog tool is called this. */
const SEARCH_TOOL = '__bench_tool_search'

/** AI SDK 7's default tool search over the tools, as a generation would bind it. */
export function aiSdkToolSearch(tools: readonly ToolDescriptor[]): AsyncKeywordRanker {
  const set: ToolSet = {}
  for (const t of tools) set[t.name] = tool({ description: t.description ?? '', inputSchema: jsonSchema({ type: 'object' }), deferLoading: true })
  set[SEARCH_TOOL] = toolSearch({ maxResults: Math.max(1, tools.length) })
  const search = createToolSearchState({ tools: set, toolCallers: undefined })(set)?.[SEARCH_TOOL]
  const execute = search?.execute
  if (execute === undefined) throw new Error('ai 7 createToolSearchState did not bind the toolSearch tool')
  return {
    async rank(query) {
      const out = (await execute({ query }, { toolCallId: 'bench', messages: [], context: {} })) as { tools: Array<{ name: string }> }
      return out.tools.map((m) => m.name)
    },
  }
}
