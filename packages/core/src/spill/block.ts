import type { TrimOutcome } from '../trim/types.js'
import { viewLabel } from '../trim/view.js'
import { FETCH_TOOL_NAME } from './defaults.js'

/** What the handle block says about a spilled result. Nothing here depends on the clock or the machine. */
export interface BlockFacts {
  id: string
  tool: string
  chars: number
  /** Lines of the view when `view` is set, else of the result. */
  lines: number
  kind: string
  /** JSON path of the text whose lines are numbered (see `lineView`), when the result is JSON around text. */
  view?: readonly string[]
  /** Text of the first salient line of the original (of its view), if any. */
  salientText?: string
  salientCount: number
  firstSalient?: number
  /** First omitted line range of the excerpt, if known. */
  omitted?: TrimOutcome['omitted'][number]
}

const ANSI_OR_CR = /\x1b\[[0-9;?]*[A-Za-z]|\r/

/** The exact JSON arguments of a `fetch_result` call, on one line. */
export function fetchCall(args: Record<string, unknown>): string {
  return `${FETCH_TOOL_NAME} ${JSON.stringify(args)}`
}

/**
 * A distinctive plain-text piece of a salient line for a literal grep: the longest run between
 * ANSI codes and carriage returns (so it occurs in the stored text as is), trimmed, at most 60
 * chars, whole words where possible.
 */
export function grepNeedle(line: string): string | undefined {
  let clean = ''
  for (const piece of line.split(ANSI_OR_CR)) {
    const t = piece.trim()
    if (t.length > clean.length) clean = t
  }
  if (clean.length < 3) return undefined
  if (clean.length <= 60) return clean
  const cut = clean.slice(0, 60)
  const space = cut.lastIndexOf(' ')
  const out = (space >= 20 ? cut.slice(0, space) : cut).trim()
  // Never end on half a surrogate pair: the needle must occur in the text as is.
  return /[\ud800-\udbff]$/.test(out) ? out.slice(0, -1) : out
}

/** The calls that fit this result, most useful first. */
export function suggestedCalls(f: BlockFacts): string[] {
  const calls: string[] = []
  const needle = f.salientText === undefined ? undefined : grepNeedle(f.salientText)
  if (needle !== undefined) calls.push(fetchCall({ id: f.id, mode: 'grep', pattern: needle, literal: true, context: 3 }))
  if (f.lines <= 1) {
    calls.push(fetchCall({ id: f.id, mode: 'range', offset: 0, count: 4000 }))
  } else if (f.omitted !== undefined) {
    calls.push(fetchCall({ id: f.id, mode: 'range', start: f.omitted.start, count: Math.min(100, f.omitted.end - f.omitted.start + 1) }))
  } else {
    calls.push(fetchCall({ id: f.id, mode: 'range', start: 1, count: 100 }))
  }
  if (needle === undefined && f.lines > 1) calls.push(fetchCall({ id: f.id, mode: 'grep', pattern: 'error', literal: true, ignoreCase: true }))
  calls.push(fetchCall({ id: f.id, mode: 'stat' }))
  return calls
}

/**
 * The handle block shown after the excerpt:
 * ```text
 * --- spillway: the text above is an excerpt, not the full output ---
 * Full result of `terminal`: id 3f2a9c01b7e4, 1234567 chars, 9812 lines, kind log, 12 salient lines (first at line 4711).
 * Read exactly what you need with fetch_result:
 * - fetch_result {"id":"3f2a9c01b7e4","mode":"grep","pattern":"error: linker failed","literal":true,"context":3}
 * - fetch_result {"id":"3f2a9c01b7e4","mode":"range","start":41,"count":100}
 * - fetch_result {"id":"3f2a9c01b7e4","mode":"stat"}
 * ```
 */
export function handleBlock(f: BlockFacts): string {
  const tool = f.tool.length > 80 ? `${f.tool.slice(0, 80)}…` : f.tool
  const salient = f.salientCount > 0 && f.firstSalient !== undefined ? `, ${f.salientCount} salient line${f.salientCount === 1 ? '' : 's'} (first at line ${f.firstSalient})` : ''
  // For JSON around text, say whose lines are numbered: the excerpt's and fetch_result's agree.
  const size =
    f.view === undefined
      ? `${f.chars} chars, ${f.lines} lines, kind ${f.kind}${salient}`
      : `${f.chars} chars, kind ${f.kind}; line numbers here and in ${FETCH_TOOL_NAME} are lines of ${viewLabel(f.view)}: ${f.lines} lines${salient}`
  return [
    '--- spillway: the text above is an excerpt, not the full output ---',
    `Full result of \`${tool}\`: id ${f.id}, ${size}.`,
    `Read exactly what you need with ${FETCH_TOOL_NAME}:`,
    ...suggestedCalls(f).map((c) => `- ${c}`),
  ].join('\n')
}

/** The shortest block, for budgets too small for {@link handleBlock}. */
export function compactBlock(id: string): string {
  return `[excerpt; full output: ${fetchCall({ id, mode: 'stat' })}]`
}

/**
 * The bare id line, for budgets too small even for {@link compactBlock}: a complete call (its mode
 * defaults to `stat`), never an id cut short.
 */
export function bareBlock(id: string): string {
  return fetchCall({ id })
}
