import type { ContentKind, Profile } from '../trim/types.js'

/** What a filter is told about the result it may rewrite. */
export interface FilterContext {
  /** The char budget the final text must fit. A filter may return more; the fitter still cuts. */
  budget: number
  kind: ContentKind
  tool: string | undefined
  args: unknown
  profile: Profile
}

/**
 * A filter's new text with where its lines came from. Filters that rewrite lines (summaries)
 * return plain text; `trimResult` then reports one coarse omitted range
 * (`TrimOutcome.omittedExact: false`).
 */
export interface FilterOutput {
  /** The new text. */
  text: string
  /**
   * For filters that only merge runs of consecutive lines (exact dedup, blank-run collapse):
   * `lineStarts[i]` is the 1-based input line where output line `i + 1` begins, strictly
   * ascending from 1. The fitter then numbers kept lines with the original's line numbers.
   */
  lineStarts?: readonly number[]
  /**
   * With `lineStarts`: output lines (1-based) that stand for their run of input lines without
   * showing it (a summary such as `Post job cleanup. [+45 lines: ...]`, unlike `x (x3)` whose run
   * repeats the shown line). When such a line is kept, the run's other lines are reported in
   * `TrimOutcome.omitted`.
   */
  summaries?: readonly number[]
}

/**
 * A filter: a pure function that returns the new text (or a {@link FilterOutput}), or
 * `undefined` for "no change". It may throw; the pipeline then skips it (fail open).
 */
export type FilterFn = (text: string, ctx: FilterContext) => string | FilterOutput | undefined

/** A filter and when the pipeline runs it. */
export interface FilterDef {
  name: string
  /** Content kinds it runs on (`'any'` for all). */
  kinds: readonly ContentKind[] | 'any'
  /** Profiles (by name) it also runs for, whatever the detected kind (e.g. `search` for `rg --heading` output). */
  profiles?: readonly string[]
  /**
   * Profiles (by name) it never runs for, whatever the detected kind: e.g. the search filter on a
   * `terminal` or `read_file` result, whose `path:line:` lines are compiler output or file text.
   */
  skipProfiles?: readonly string[]
  /** Runs only when the profile lists it in `filters` (or, under budget, in `lossless`). */
  optIn?: boolean
  /** Inputs longer than this (chars) skip the filter, so huge logs stay as fast as the fitter. */
  maxInput?: number
  /**
   * Only removes chars inside lines (ANSI codes, progress frames). On inputs above `maxInput` it
   * then runs on the fitted excerpt instead, which costs nothing however big the input.
   */
  cleanup?: boolean
  /** Never loses information (ANSI strip, exact dedup with counts, blank-run collapse). */
  lossless: boolean
  /** Keeps every line at its line number (so the fitter's numbers still match the original). */
  preservesLines: boolean
  run: FilterFn
}
