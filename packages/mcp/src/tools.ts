import { createDisclosure, BRIDGE_NAMES, FETCH_TOOL_NAME, type BridgeTool, type DisclosableTool, type Disclosure, type DisclosureMode, type FetchTool } from '@spillway/core'
import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import { mergeNamed, type Routed } from './names.js'
import { MAX_RESULT_META_KEY } from './types.js'

/** The proxy's view of every upstream tool, with deferral decided by core. */
export interface ToolCatalog {
  /** Every upstream tool by exposed name. */
  byName: ReadonlyMap<string, Routed<Tool>>
  disclosure: Disclosure<DisclosableTool>
  /** The `tools/list` answer (all on one page). */
  listed: Tool[]
}

/** Names the proxy adds itself; an upstream tool with one of them is namespaced. */
export const RESERVED_TOOL_NAMES: ReadonlySet<string> = new Set([FETCH_TOOL_NAME, ...BRIDGE_NAMES])

/** An MCP `Tool` for a tool the proxy serves itself (fetch_result, the bridge). */
export function ownTool(t: FetchTool | BridgeTool): Tool {
  return { name: t.name, description: t.description, inputSchema: t.parameters as Tool['inputSchema'], annotations: { readOnlyHint: t.name !== 'tool_call' } }
}

/** The result budget a tool declares in `_meta` (`anthropic/maxResultSizeChars`), when it is a positive integer. */
export function declaredBudget(tool: Tool): number | undefined {
  const v = (tool._meta as Record<string, unknown> | undefined)?.[MAX_RESULT_META_KEY]
  return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined
}

/** Options of {@link buildCatalog}. */
export interface CatalogOptions {
  mode: DisclosureMode
  contextWindow: number
  expose: readonly string[]
  keepOutputSchemas: boolean
  fetchTool: FetchTool
}

/** Builds the catalog over the tool lists of the upstreams (index i = upstream i). */
export async function buildCatalog(lists: readonly Tool[][], serverNames: readonly string[], o: CatalogOptions): Promise<ToolCatalog> {
  const routed = mergeNamed(lists, serverNames, RESERVED_TOOL_NAMES)
  const byName = new Map(routed.map((r) => [r.name, r]))
  const descriptors: DisclosableTool[] = routed.map((r) => ({ name: r.name, description: r.item.description ?? '', parameters: r.item.inputSchema as Record<string, unknown> }))
  const disclosure = await createDisclosure({ tools: descriptors, core: [...o.expose], contextWindow: o.contextWindow, mode: o.mode })
  const shown = (r: Routed<Tool>): Tool => {
    const { outputSchema, ...rest } = r.item
    return { ...(o.keepOutputSchemas && outputSchema !== undefined ? { ...rest, outputSchema } : rest), name: r.name }
  }
  const listed = [...disclosure.visible.map((d) => shown(byName.get(d.name)!)), ownTool(o.fetchTool), ...disclosure.bridgeTools.map(ownTool)]
  return { byName, disclosure, listed }
}
