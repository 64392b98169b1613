import type { FilterDef } from '../types.js'
import { collapseCycles, countBlankRuns, dedupExactMapped, dedupNear } from './dedup.js'

export { DEFAULT_DEDUP, MAX_CYCLE_PERIOD, collapseBlankRuns, collapseCycles, collapseBlankRunsMapped, countBlankRuns, dedupExact, dedupExactMapped, dedupNear, maskLine, type DedupOptions, type MergedLines } from './dedup.js'

/**
 * Exact consecutive duplicates -> one line + `(xN)`. Lossless: may run under budget when the
 * profile lists `dedup-exact`. Keeps line order and says where each line came from, so the
 * excerpt still numbers lines with the original's numbers.
 */
export const dedupExactFilter: FilterDef = {
  name: 'dedup-exact',
  kinds: ['log', 'text'],
  lossless: true,
  optIn: true,
  preservesLines: false,
  // Reads lines in place and rebuilds the text only when a run merges; above 2 MB that rebuild
  // would cost more than the fitter (issue 2's speed bound).
  maxInput: 2_000_000,
  run: (text) => dedupExactMapped(text),
}

/**
 * A block of 2-32 lines repeated right after itself (a recursion's frames in a stack trace) ->
 * the block once, then one line that counts the repeats, `[18 lines: the 6 lines above, 3 more
 * times]`. Lossless as exact dedup is: only exact repeats, counted. Maps lines like `dedup-exact`.
 */
export const cycleFilter: FilterDef = {
  name: 'dedup-cycles',
  kinds: ['log', 'text'],
  lossless: true,
  optIn: true,
  preservesLines: false,
  maxInput: 2_000_000,
  run: (text) => collapseCycles(text),
}

/**
 * Runs of 3+ blank lines -> one `[N blank lines]` line. Lossless: may run under budget when the
 * profile lists `blank`. Maps lines like `dedup-exact`.
 */
export const blankFilter: FilterDef = {
  name: 'blank',
  kinds: ['log', 'text'],
  lossless: true,
  optIn: true,
  preservesLines: false,
  maxInput: 2_000_000,
  run: (text) => countBlankRuns(text),
}

/** Near-duplicate runs (numbers, hex ids, timestamps masked) -> first line, template + count, last line. */
export const dedupFilter: FilterDef = {
  name: 'dedup',
  kinds: ['log', 'text'],
  lossless: false,
  optIn: true,
  preservesLines: false,
  maxInput: 2_000_000,
  run: (text) => dedupNear(text),
}
