/**
 * The line view of a result: the text whose lines an excerpt numbers. A tool result that is JSON
 * around the real text (an MCP `{"result": "..."}` envelope, a Hermes terminal result
 * `{"output": "...", "exit_code": 1}`) is one JSON line, but the excerpt numbers the lines of the
 * text inside. `trimResult` and the spill layer (`fetch_result` `range` / `grep`, the handle
 * block) both use {@link lineView}, so their line numbers agree by construction.
 */
import { unwrapEnvelope } from './envelope.js'
import { parseJsonOnce } from './json-memo.js'

/** Keys that mark a command result beside its `output`. */
export const TERMINAL_KEYS: readonly string[] = Object.freeze(['exit_code', 'exitCode', 'returncode', 'return_code', 'status', 'error', 'stderr'])

/** Keys whose string value is a command's output, in order of preference. */
export const TERMINAL_OUTPUT_KEYS: readonly string[] = Object.freeze(['output', 'stdout'])

/** The text inside a JSON-wrapped result, as returned by {@link lineView}. */
export interface LineView {
  /** The inner text: the excerpt's line numbers, and `fetch_result`'s, are lines of this text. */
  readonly text: string
  /**
   * Where the text sits in the raw result: the keys peeled off, outermost first, `(string)` for a
   * JSON string layer, e.g. `['output']`, `['result']`, `['(string)', 'output']`, `['content']`.
   */
  readonly path: readonly string[]
  /** `envelope` (as {@link unwrapEnvelope}) or `terminal` (the output field of a command result). */
  readonly shape: 'envelope' | 'terminal'
}

/**
 * The output key of a terminal-shaped object `{output|stdout: string, <one of TERMINAL_KEYS>: ...}`,
 * or `undefined` for any other value. Shared with the terminal filter so both agree on the shape.
 */
export function terminalOutputKey(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined
  const obj = value as Record<string, unknown>
  const key = TERMINAL_OUTPUT_KEYS.find((k) => typeof obj[k] === 'string')
  if (key === undefined || !Object.keys(obj).some((k) => TERMINAL_KEYS.includes(k) && k !== key)) return undefined
  return key
}

/** Cheap check before parsing: an object (first and last non-blank chars) naming an output key. */
function mayBeTerminal(text: string): boolean {
  let i = 0
  let j = text.length - 1
  while (i < j && text.charCodeAt(i) <= 32) i++
  while (j > i && text.charCodeAt(j) <= 32) j--
  if (text.charCodeAt(i) !== 123 /* { */ || text.charCodeAt(j) !== 125 /* } */) return false
  return TERMINAL_OUTPUT_KEYS.some((k) => text.includes(`"${k}"`))
}

let lastViewText: string | undefined
let lastView: LineView | undefined

function computeView(text: string): LineView | undefined {
  const un = unwrapEnvelope(text)
  if (un !== undefined) return { text: un.text, path: un.path, shape: 'envelope' }
  if (!mayBeTerminal(text)) return undefined
  const parsed = parseJsonOnce(text)
  const key = parsed.ok ? terminalOutputKey(parsed.value) : undefined
  if (key === undefined) return undefined
  return { text: (parsed.value as Record<string, string>)[key]!, path: [key], shape: 'terminal' }
}

/**
 * The text whose lines an excerpt of `text` numbers, when `text` is JSON around it: the text
 * inside an envelope ({@link unwrapEnvelope}: `{"result": "..."}`, MCP `{"content": [{"type":
 * "text", "text": "..."}]}`, a JSON string), else the `output` (or `stdout`) string of a
 * terminal-shaped object (`output` beside one of {@link TERMINAL_KEYS}). `undefined` for anything
 * else, including plain text (answered in constant time unless it starts with `"` or `{`).
 * Deterministic and never throws; the last answer is remembered, so asking again for the same
 * string costs nothing.
 */
export function lineView(text: string): LineView | undefined {
  if (typeof text !== 'string') return undefined
  if (text === lastViewText) return lastView
  let view: LineView | undefined
  try {
    view = computeView(text)
  } catch {
    view = undefined
  }
  lastViewText = text
  // Frozen: the same object answers every later call for this string (and the spill layer keeps
  // it), so no caller may change what the next one sees.
  lastView = view === undefined ? undefined : Object.freeze({ ...view, path: Object.freeze([...view.path]) })
  return lastView
}

/**
 * How a view is named to the model: `the "output" field`, or for deeper paths
 * `the text inside "result" > a JSON string`.
 */
export function viewLabel(path: readonly string[]): string {
  const part = (p: string): string => (p === '(string)' ? 'a JSON string' : `"${p.replace(/\+isError$/, '')}"`)
  if (path.length === 1 && path[0] !== '(string)') return `the ${part(path[0]!)} field`
  return `the text inside ${path.map(part).join(' > ')}`
}
