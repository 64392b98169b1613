import { tool } from '@langchain/core/tools'
import type { Spillway } from '@spillway/core'
import { sessionIdOf } from './session.js'

/**
 * The `fetch_result` tool as a LangChain tool: reads slices (stat / range / grep / full) of the
 * results spilled in the caller's session (explicit id, else the thread id). Never throws:
 * refusals come back as text for the model.
 */
export function fetchResultTool(spillway: Spillway, sessionId?: string) {
  const { name, description, parameters, execute } = spillway.fetchTool
  return tool(async (args: unknown, config) => execute(args, { sessionId: sessionIdOf(sessionId, config) }), {
    name,
    description,
    schema: parameters as Record<string, unknown>,
  })
}
