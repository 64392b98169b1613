import type { FilterDef } from '../types.js'
import { collapseProgress, stripAnsi } from './ansi.js'

export { collapseProgress, stripAnsi } from './ansi.js'

/**
 * Strips ANSI colour and cursor codes. Lossless for a reader; runs on every kind. Above 1 MB it
 * cleans the fitted excerpt instead (a full pass over 10 MB of coloured log costs more than the
 * fit): line numbers still match `fetch_result`, char positions in a marker then count the raw text.
 */
export const ansiFilter: FilterDef = {
  name: 'ansi',
  kinds: 'any',
  lossless: true,
  preservesLines: true,
  cleanup: true,
  maxInput: 1_000_000,
  run: (text) => stripAnsi(text),
}

/** Collapses carriage-return progress bars to their final state. */
export const progressFilter: FilterDef = {
  name: 'progress',
  kinds: ['log', 'text'],
  lossless: false,
  preservesLines: true,
  cleanup: true,
  maxInput: 1_000_000,
  run: (text) => collapseProgress(text),
}
