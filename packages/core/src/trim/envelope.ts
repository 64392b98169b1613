/**
 * Envelope unwrapping: tool results that are JSON around the real text, e.g. the MCP shape
 * `{"result": "<200 KB text>"}`, `{"content": [{"type": "text", "text": "..."}]}` or a JSON string
 * holding JSON. The text inside is what gets trimmed.
 */
import { parseJsonOnce } from './json-memo.js'

/** Keys of a one-key object whose string value is the real result. */
export const ENVELOPE_KEYS: readonly string[] = Object.freeze(['output', 'result', 'content', 'text', 'stdout'])

/** Most envelopes peeled off one result (JSON in a string in JSON ...). */
const MAX_DEPTH = 4

/** The text inside one envelope layer, or `undefined` when `value` is not an envelope. */
function inner(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined
  const keys = Object.keys(value)
  const rec = value as Record<string, unknown>
  if (keys.length === 1 && ENVELOPE_KEYS.includes(keys[0]!) && typeof rec[keys[0]!] === 'string') return rec[keys[0]!] as string
  // MCP CallToolResult: one text part (isError may sit beside it).
  const content = rec['content']
  if (Array.isArray(content) && content.length === 1 && keys.every((k) => k === 'content' || k === 'isError')) {
    const part = content[0] as Record<string, unknown> | null
    if (part !== null && typeof part === 'object' && part['type'] === 'text' && typeof part['text'] === 'string') return part['text']
  }
  return undefined
}

/** Cheap check before parsing: an envelope starts with `"` or `{` and a known key or `"content"`. */
function looksWrapped(text: string): boolean {
  let i = 0
  while (i < text.length && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 10 || text.charCodeAt(i) === 13 || text.charCodeAt(i) === 9)) i++
  if (text[i] === '"') return true
  if (text[i] !== '{') return false
  const head = text.slice(i + 1, i + 40).trimStart()
  return ENVELOPE_KEYS.some((k) => head.startsWith(`"${k}"`)) || head.startsWith('"isError"')
}

/**
 * Peels JSON envelopes off `text`: returns the text inside (after up to four layers) and the
 * keys it was found under, or `undefined` when `text` is not an envelope.
 */
export function unwrapEnvelope(text: string): { text: string; path: string[] } | undefined {
  let current = text
  const path: string[] = []
  for (let depth = 0; depth < MAX_DEPTH && looksWrapped(current); depth++) {
    // Memoized: the terminal view and filter parse the same result again when it is no envelope.
    const parsed = parseJsonOnce(current)
    if (!parsed.ok) break
    const value = parsed.value
    const next = inner(value)
    if (next === undefined) break
    path.push(typeof value === 'string' ? '(string)' : Object.keys(value as object).join('+'))
    current = next
  }
  return path.length > 0 ? { text: current, path } : undefined
}
