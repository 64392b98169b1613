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
  | { kind: 'merged'; starts: readonly number[] }
  | { kind: 'rewritten'; terminal?: readonly LineRange[] }

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
export function afterFilter(prev: Provenance, before: string, after: string, preservesLines: boolean, lineStarts: unknown): Provenance {
  if (preservesLines) return prev
  const ls: readonly unknown[] | undefined = Array.isArray(lineStarts) ? lineStarts : undefined
  if (ls !== undefined && prev.kind !== 'rewritten' && validStarts(ls, countLines(after), countLines(before))) {
    return { kind: 'merged', starts: prev.kind === 'merged' ? composeStarts(prev.starts, ls) : ls }
  }
  return prev.kind === 'rewritten' ? prev : REWRITTEN
}

/** The fitter's view of a `merged` provenance: a {@link LineMap} onto `source`; else undefined. */
export function lineMapOf(p: Provenance, source: string, lines: number, salient: readonly number[]): LineMap | undefined {
  return p.kind === 'merged' ? { starts: p.starts, source, lines, salient } : undefined
}
