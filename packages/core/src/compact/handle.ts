import { FETCH_TOOL_NAME } from '../spill/defaults.js'
import { splitHandle } from '../trim/excerpt.js'

/** What a tool result's handle block says: enough to replace the result by one line and still reach it. */
export interface SpilledRef {
  id: string
  tool: string
  chars: number
  lines?: number
}

// The handle block's second line (see spill/block.ts `handleBlock`), and the compact forms.
const FULL_RESULT = /^Full result of `([^`\n]{1,81})`: id ([0-9a-f]{12,64}), (\d{1,15}) chars,([^\n]{0,400})$/m
const LINES = /(\d{1,15}) lines/
const ANY_ID = /"id":"([0-9a-f]{12,64})"/
const COMPACTED = /^\[spillway: earlier result of `([^`\n]{1,81})` compacted to save context: id ([0-9a-f]{12,64})(?:, (\d{1,15}) chars(?:, (\d{1,15}) lines)?)?\./

/**
 * The spilled result a tool message's content refers to, read from its handle block (found by
 * trim's `splitHandle`, the one recogniser of spillway's own output) or from an already compacted
 * line; `undefined` when the content was not spilled: then nothing could fetch it back, and it
 * must not be compacted.
 */
export function spilledRef(content: string): SpilledRef | undefined {
  const c = COMPACTED.exec(content)
  if (c !== null) return { tool: c[1]!, id: c[2]!, chars: Number(c[3] ?? 0), ...(c[4] !== undefined ? { lines: Number(c[4]) } : {}) }
  const split = splitHandle(content)
  if (split === undefined) return undefined
  const m = FULL_RESULT.exec(split.handle)
  if (m !== null) {
    const lines = LINES.exec(m[4]!)?.[1]
    return { tool: m[1]!, id: m[2]!, chars: Number(m[3]), ...(lines !== undefined ? { lines: Number(lines) } : {}) }
  }
  const id = ANY_ID.exec(split.handle)?.[1]
  return id === undefined ? undefined : { tool: 'tool', id, chars: 0 }
}

/** The one line an old spilled result becomes: what it was and the call that reads it back. */
export function compactedContent(ref: SpilledRef): string {
  // A compact handle names no size: say nothing rather than "0 chars".
  const size = ref.chars > 0 ? `, ${ref.chars} chars${ref.lines !== undefined ? `, ${ref.lines} lines` : ''}` : ''
  return `[spillway: earlier result of \`${ref.tool}\` compacted to save context: id ${ref.id}${size}. Read it again with ${FETCH_TOOL_NAME} {"id":"${ref.id}","mode":"stat"}, then range or grep.]`
}
