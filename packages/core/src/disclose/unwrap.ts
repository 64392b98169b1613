/** Names of the three bridge tools; none of them can be reached through `tool_call`. */
export const BRIDGE_NAMES: readonly string[] = Object.freeze(['tool_search', 'tool_describe', 'tool_call'])

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

/**
 * Arguments as an object: objects pass through, JSON strings are parsed (models and frameworks
 * sometimes send arguments as a string). Anything else gives `undefined`.
 */
export function parseArgs(args: unknown): Record<string, unknown> | undefined {
  if (isRecord(args)) return args
  if (typeof args !== 'string') return undefined
  try {
    const parsed: unknown = JSON.parse(args)
    return isRecord(parsed) ? parsed : undefined
  } catch {
    return undefined
  }
}

/** The `name` and `arguments` of a `tool_call` call's arguments (`args` accepted as an alias), unparsed. */
export function callTarget(args: unknown): { name: string; args: unknown } | undefined {
  const a = parseArgs(args)
  if (a === undefined || typeof a['name'] !== 'string') return undefined
  const inner = 'arguments' in a ? a['arguments'] : a['args']
  return { name: a['name'], args: inner === undefined || inner === null ? {} : (parseArgs(inner) ?? inner) }
}

/**
 * The real tool behind a call, for hooks, logs and telemetry: a `tool_call` becomes its target name
 * and arguments (a JSON-string `arguments` parsed); every other call, and a malformed `tool_call`,
 * comes back unchanged. The transcript should keep the call as the model made it.
 *
 * @example
 * unwrapCall({ name: 'tool_call', args: { name: 'github_create_issue', arguments: { title: 'x' } } })
 * // -> { name: 'github_create_issue', args: { title: 'x' } }
 */
export function unwrapCall(call: { name: string; args: unknown }): { name: string; args: unknown } {
  if (call.name !== 'tool_call') return call
  return callTarget(call.args) ?? call
}
