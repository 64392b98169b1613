import { tool } from '@langchain/core/tools'
import type { Spillway } from '@spillway/core'
import { sessionResolver, type SessionPolicy } from './session.js'

/** What `fetch_result` answers when {@link SessionPolicy.requireSession} is on and no session is known. */
export const NO_SESSION_ANSWER = 'fetch_result is unavailable here: this conversation has no thread id, so its results were not stored.'

/**
 * The `fetch_result` tool as a LangChain tool: reads slices (stat / range / grep / full) of the
 * results spilled in the caller's session (explicit id, else the thread id, else `'default'`
 * unless `requireSession`). Never throws: refusals come back as text for the model.
 * `session` is a policy, or a resolver from {@link sessionResolver} (shared with the middleware
 * so the `'default'` notice is given once).
 */
export function fetchResultTool(spillway: Spillway, session?: string | SessionPolicy | ReturnType<typeof sessionResolver>) {
  const { name, description, parameters, execute } = spillway.fetchTool
  const resolve = typeof session === 'function' ? session : sessionResolver(typeof session === 'string' ? { sessionId: session } : session)
  return tool(
    async (args: unknown, config) => {
      const sessionId = resolve(config)
      return sessionId === undefined ? NO_SESSION_ANSWER : execute(args, { sessionId })
    },
    { name, description, schema: parameters as Record<string, unknown> },
  )
}
