import type { FilterDef } from '../types.js'
import { collapseBlankRuns, dedupExact, dedupNear } from './dedup.js'

export { DEFAULT_DEDUP, collapseBlankRuns, dedupExact, dedupNear, maskLine, type DedupOptions } from './dedup.js'

/** Exact consecutive duplicates -> one line + `(xN)`. Lossless: may run under budget when the profile lists `dedup-exact`. */
export const dedupExactFilter: FilterDef = {
  name: 'dedup-exact',
  kinds: ['log', 'text'],
  lossless: true,
  optIn: true,
  preservesLines: false,
  run: (text) => dedupExact(text),
}

/** Runs of blank lines -> one blank line. Lossless: may run under budget when the profile lists `blank`. */
export const blankFilter: FilterDef = {
  name: 'blank',
  kinds: ['log', 'text'],
  lossless: true,
  optIn: true,
  preservesLines: false,
  run: (text) => collapseBlankRuns(text),
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
