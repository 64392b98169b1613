/**
 * Line provenance: which source line each line of the current text came from. One value, carried
 * through the pipeline from filter to filter and read by the fitter, instead of loose flags.
 *
 * - `source`: the text's lines are the source's lines at their numbers (the original, or its
 *   unwrapped view), so the fitter numbers kept lines with their own numbers.
 * - `merged`: each line stands for a run of consecutive source lines (exact dedup, blank-run
 *   collapse); `starts[i]` is the source line where line `i + 1` begins (see {@link LineMap}).
 * - `rewritten`: lines were rewritten (summaries) and have no source numbers; `terminal` is set
 *   when the terminal filter fitted the view's text itself and said which view lines it left out.
 *
 * Filters state theirs through `FilterOutput.lineStarts` and `FilterDef.preservesLines`;
 * {@link afterFilter} turns that into the next value.
 */
import { composeStarts, validStarts, type LineMap } from './linemap.js'
import { countLines } from './text.js'
import type { LineRange } from './types.js'

/** Where the lines of a text come from (see the module comment). */
export type Provenance =
  | { kind: 'source' }
  | { kind: 'merged'; starts: readonly number[]; summaries?: readonly Summary[] }
  | { kind: 'rewritten'; terminal?: readonly LineRange[] }

/**
 * A line that stands for its run of source lines without showing them (see
 * `FilterOutput.summaries`): the source line its run starts at, and the line as written.
 */
export interface Summary {
  line: number
  text: string
}

/** The text's lines are the source's. */
export const SOURCE: Provenance = Object.freeze({ kind: 'source' })
/** The text's lines have no source numbers. */
export const REWRITTEN: Provenance = Object.freeze({ kind: 'rewritten' })

/**
 * Provenance after a filter turned `before` (with provenance `prev`) into `after`: unchanged
 * when the filter keeps every line at its number; composed when it merged runs and said where
 * each line starts (a map that fails {@link validStarts} is ignored); else rewritten. Ranges the
 * terminal filter reported survive later filters, as they name lines of the source.
 */
export function afterFilter(prev: Provenance, before: string, after: string, preservesLines: boolean, lineStarts: unknown, summaries?: unknown): Provenance {
  if (preservesLines) return prev
  const ls: readonly unknown[] | undefined = Array.isArray(lineStarts) ? lineStarts : undefined
  if (ls !== undefined && prev.kind !== 'rewritten' && validStarts(ls, countLines(after), countLines(before))) {
    const starts = prev.kind === 'merged' ? composeStarts(prev.starts, ls) : ls
    const kept = prev.kind === 'merged' ? (prev.summaries ?? []).filter((s) => starts.includes(s.line)) : []
    const added = summaryLines(after, starts, summaries)
    const all = [...kept, ...added]
    return all.length > 0 ? { kind: 'merged', starts, summaries: all } : { kind: 'merged', starts }
  }
  return prev.kind === 'rewritten' ? prev : REWRITTEN
}

/** The filter's summary lines (valid 1-based output line numbers only, at most 64) with their source lines and text. */
function summaryLines(after: string, starts: readonly number[], summaries: unknown): Summary[] {
  if (!Array.isArray(summaries) || summaries.length === 0) return []
  const want = new Set(summaries.filter((n): n is number => Number.isInteger(n) && n >= 1 && n <= starts.length).slice(0, 64))
  const out: Summary[] = []
  let n = 1
  for (let at = 0; at <= after.length && out.length < want.size; n++) {
    const nl = after.indexOf('\n', at)
    const end = nl === -1 ? after.length : nl
    if (want.has(n)) out.push({ line: starts[n - 1]!, text: after.slice(at, end) })
    if (nl === -1) break
    at = nl + 1
  }
  return out
}

/** The fitter's view of a `merged` provenance: a {@link LineMap} onto `source`; else undefined. */
export function lineMapOf(p: Provenance, source: string, lines: number, salient: readonly number[]): LineMap | undefined {
  return p.kind === 'merged' ? { starts: p.starts, source, lines, salient } : undefined
}
