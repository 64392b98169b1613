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
