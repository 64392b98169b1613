import type { Tool, ToolSet } from 'ai'
import { asSchema } from 'ai'
import type { ToolDescriptor } from '@spillway/core'

/**
 * The {@link ToolDescriptor}s of an AI SDK tools record (name, description, JSON Schema of the
 * input), in declaration order, ready for `createToolIndex` or `createDisclosure`.
 * A description given as a function of the context (ai 7) is left out.
 */
export async function toolDescriptors(tools: ToolSet): Promise<ToolDescriptor[]> {
  return Promise.all(
    Object.entries(tools as Record<string, Tool>).map(async ([name, tool]) => {
      const description: unknown = tool.description
      let parameters: unknown
      try {
        parameters = await asSchema(tool.inputSchema).jsonSchema
      } catch {
        // A schema that cannot be converted still leaves name + description to search on.
        parameters = undefined
      }
      return {
        name,
        ...(typeof description === 'string' ? { description } : {}),
        ...(parameters === undefined ? {} : { parameters }),
      }
    }),
  )
}
