import { createMiddleware } from 'langchain'
import { ToolMessage } from '@langchain/core/messages'
import type { ClientTool, ServerTool } from '@langchain/core/tools'
import { tool } from '@langchain/core/tools'
import type { BridgeTool, DisclosureOptions, ToolDescriptor } from '@spillway/core'
import { createDisclosure } from '@spillway/core'
import { toolDescriptors, toolName } from './descriptors.js'
import { sessionIdOf } from './session.js'

/**
 * Options of {@link disclosureMiddleware}: those of core's `createDisclosure` (`core`,
 * `contextWindow`, `thresholdPct`, `mode`, `index`, `grants`, ...), with LangChain tools.
 */
export interface DisclosureMiddlewareOptions extends Omit<DisclosureOptions<ToolDescriptor>, 'tools'> {
  /** Every tool the agent has (the same list you give `createAgent`). */
  tools: ReadonlyArray<ClientTool | ServerTool>
  /** Fixed session id; by default the thread id (`configurable.thread_id`). */
  sessionId?: string
}

/**
 * LangChain agent middleware that defers the long tail of tools behind spillway's three bridge
 * tools (`tool_search`, `tool_describe`, `tool_call`): deferred tools are removed from each model
 * call, and a `tool_call` is checked by core (scope, core/bridge refusal, argument schema) and then
 * run as the real LangChain tool through the agent's own tool node, so other middleware (e.g.
 * {@link spillwayMiddleware}) still sees it. A direct call to a deferred tool is checked the same way.
 * Async because core measures the tool schemas first; when nothing is deferred it adds no tools.
 *
 * @example
 * ```ts
 * const agent = createAgent({ model, tools, middleware: [await disclosureMiddleware({ tools, core: ['read_file'] })] })
 * ```
 */
export async function disclosureMiddleware(options: DisclosureMiddlewareOptions) {
  const { tools, sessionId, ...rest } = options
  const disclosure = await createDisclosure({ ...rest, tools: toolDescriptors(tools) })
  const byName = new Map<string, ClientTool | ServerTool>()
  for (const t of tools) {
    const name = toolName(t)
    if (name !== undefined) byName.set(name, t)
  }
  const deferred = new Set(disclosure.deferredNames)
  const bridgeNames = new Set(disclosure.bridgeTools.map((b) => b.name))

  return createMiddleware({
    name: 'SpillwayDisclosureMiddleware',
    tools: disclosure.bridgeTools.map((bridge) => bridgeTool(bridge, sessionId)),
    wrapModelCall: async (request, handler) => {
      if (deferred.size === 0) return handler(request)
      const offered = request.tools.filter((t) => {
        const name = toolName(t)
        return name === undefined || !deferred.has(name)
      })
      return handler({ ...request, tools: offered })
    },
    wrapToolCall: async (request, handler) => {
      const call = request.toolCall
      const isBridgeCall = call.name === 'tool_call' && bridgeNames.has('tool_call')
      if (!isBridgeCall && !deferred.has(call.name)) return handler(request)
      const args = isBridgeCall ? call.args : { name: call.name, arguments: call.args }
      const resolved = disclosure.resolveCall(args, { sessionId: sessionIdOf(sessionId, request.runtime) })
      const real = resolved.ok ? byName.get(resolved.name) : undefined
      if (!resolved.ok || real === undefined) {
        const text = resolved.ok ? `Tool "${resolved.name}" is not available to this agent.` : resolved.text
        return new ToolMessage({ content: text, tool_call_id: call.id ?? '', name: call.name, status: 'error' })
      }
      const realCall = { ...call, name: resolved.name, args: resolved.args as Record<string, unknown> }
      return handler({ ...request, toolCall: realCall, tool: real })
    },
  })
}

/** A bridge tool as a LangChain tool; `tool_call` itself is routed in `wrapToolCall`. */
function bridgeTool(bridge: BridgeTool, sessionId: string | undefined) {
  return tool(async (args: unknown, config) => bridge.execute(args, { sessionId: sessionIdOf(sessionId, config) }), {
    name: bridge.name,
    description: bridge.description,
    schema: bridge.parameters,
  })
}
