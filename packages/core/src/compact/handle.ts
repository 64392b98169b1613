import { FETCH_TOOL_NAME } from '../spill/defaults.js'

/** What a tool result's handle block says: enough to replace the result by one line and still reach it. */
export interface SpilledRef {
  id: string
  tool: string
  chars: number
  lines?: number
}

// The second line of spillway's handle block (see spill/block.ts `handleBlock`), and the compact form.
const FULL_RESULT = /^Full result of `([^`\n]{1,81})`: id ([0-9a-f]{12,64}), (\d{1,15}) chars,([^\n]{0,400})$/m
const LINES = /(\d{1,15}) lines/
const COMPACT_BLOCK = /\[excerpt; full output: fetch_result \{"id":"([0-9a-f]{12,64})","mode":"stat"\}\]/
const COMPACTED = /^\[spillway: earlier result of `([^`\n]{1,81})` compacted to save context: id ([0-9a-f]{12,64}), (\d{1,15}) chars(?:, (\d{1,15}) lines)?\./

/**
 * The spilled result a tool message's content refers to, read from its handle block (or from an
 * already compacted line), or `undefined` when the content was not spilled: then there is nothing
 * to fetch it back from, and it must not be compacted.
 */
export function spilledRef(content: string): SpilledRef | undefined {
  const at = content.lastIndexOf('--- spillway: the text above is an excerpt')
  if (at >= 0) {
    const m = FULL_RESULT.exec(content.slice(at))
    if (m !== null) {
      const lines = LINES.exec(m[4]!)?.[1]
      return { tool: m[1]!, id: m[2]!, chars: Number(m[3]), ...(lines !== undefined ? { lines: Number(lines) } : {}) }
    }
  }
  const c = COMPACTED.exec(content)
  if (c !== null) return { tool: c[1]!, id: c[2]!, chars: Number(c[3]), ...(c[4] !== undefined ? { lines: Number(c[4]) } : {}) }
  const k = COMPACT_BLOCK.exec(content)
  if (k !== null) return { tool: 'tool', id: k[1]!, chars: 0 }
  return undefined
}

/** The one line an old spilled result becomes: what it was and the call that reads it back. */
export function compactedContent(ref: SpilledRef): string {
  const size = `${ref.chars} chars${ref.lines !== undefined ? `, ${ref.lines} lines` : ''}`
  return `[spillway: earlier result of \`${ref.tool}\` compacted to save context: id ${ref.id}, ${size}. Read it again with ${FETCH_TOOL_NAME} {"id":"${ref.id}","mode":"stat"}, then range or grep.]`
}
