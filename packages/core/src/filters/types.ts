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
 * A filter: a pure function that returns the new text, or `undefined` for "no change".
 * It may throw; the pipeline then skips it (fail open).
 */
export type FilterFn = (text: string, ctx: FilterContext) => string | undefined

/** A filter and when the pipeline runs it. */
export interface FilterDef {
  name: string
  /** Content kinds it runs on (`'any'` for all). */
  kinds: readonly ContentKind[] | 'any'
  /** Never loses information (ANSI strip, exact dedup with counts, blank-run collapse). */
  lossless: boolean
  /** Keeps every line at its line number (so the fitter's numbers still match the original). */
  preservesLines: boolean
  run: FilterFn
}
