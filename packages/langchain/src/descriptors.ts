import type { ClientTool, ServerTool } from '@langchain/core/tools'
import { toJsonSchema } from '@langchain/core/utils/json_schema'
import type { ToolDescriptor } from '@spillway/core'

/** Name of a LangChain tool, or `undefined` for a server tool without one. */
export function toolName(tool: ClientTool | ServerTool): string | undefined {
  const name = (tool as { name?: unknown }).name
  return typeof name === 'string' ? name : undefined
}

/**
 * The {@link ToolDescriptor}s of LangChain tools (name, description, JSON Schema of the input),
 * in order, ready for `createToolIndex` or `createDisclosure`. Server tools without a name are skipped.
 */
export function toolDescriptors(tools: ReadonlyArray<ClientTool | ServerTool>): ToolDescriptor[] {
  const out: ToolDescriptor[] = []
  for (const tool of tools) {
    const name = toolName(tool)
    if (name === undefined) continue
    const { description, schema } = tool as { description?: unknown; schema?: unknown }
    let parameters: unknown
    try {
      parameters = schema === undefined ? undefined : toJsonSchema(schema as Parameters<typeof toJsonSchema>[0])
    } catch {
      // An unconvertible schema still leaves name + description to search on.
      parameters = undefined
    }
    out.push({ name, ...(typeof description === 'string' ? { description } : {}), ...(parameters === undefined ? {} : { parameters }) })
  }
  return out
}
