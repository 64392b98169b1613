/** Session used when neither an explicit id nor a thread id is available. */
export const DEFAULT_SESSION_ID = 'default'

/**
 * The session a call belongs to: the explicit id when given, else the LangGraph thread id
 * (`configurable.thread_id`), else {@link DEFAULT_SESSION_ID}.
 */
export function sessionIdOf(explicit: string | undefined, config: { configurable?: Record<string, unknown> } | undefined): string {
  if (explicit !== undefined) return explicit
  const thread = config?.configurable?.['thread_id']
  return typeof thread === 'string' && thread !== '' ? thread : DEFAULT_SESSION_ID
}

/** Options of {@link sessionResolver}. */
export interface SessionPolicy {
  /** Fixed session id; by default each thread (`configurable.thread_id`) is its own session. */
  sessionId?: string
  /**
   * Refuse to share the {@link DEFAULT_SESSION_ID} session: without an explicit id or a thread
   * id, results are trimmed but not stored and `fetch_result` refuses. Turn on for servers
   * where several users may call without a thread id. @default false
   */
  requireSession?: boolean
  /** Where the one-time notice about the shared `'default'` session goes. @default console.warn */
  warn?: (message: string) => void
}

/** Told once per middleware when calls without a thread id fall back to the shared session. */
export const DEFAULT_SESSION_WARNING =
  "spillway: no thread_id and no sessionId, so results go to the shared session 'default' that every such call can read. " +
  'Pass configurable.thread_id per conversation, a sessionId, or requireSession: true.'

/**
 * The session rule of one middleware: {@link sessionIdOf}, except that the `'default'` fallback
 * warns once, or gives `undefined` (no session) with `requireSession`.
 */
export function sessionResolver(policy: SessionPolicy = {}): (config: { configurable?: Record<string, unknown> } | undefined) => string | undefined {
  let warned = false
  return (config) => {
    const id = sessionIdOf(policy.sessionId, config)
    if (policy.sessionId !== undefined || id !== DEFAULT_SESSION_ID) return id
    if (policy.requireSession === true) return undefined
    if (!warned) {
      warned = true
      ;(policy.warn ?? console.warn)(DEFAULT_SESSION_WARNING)
    }
    return id
  }
}
