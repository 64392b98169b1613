import type { FilterDef } from './types.js'

export type { FilterContext, FilterDef, FilterFn } from './types.js'

/**
 * The built-in filters, in pipeline order. Each runs when the detected kind matches and the
 * profile does not disable it; lossless ones also run under budget when the profile lists them.
 */
export const DEFAULT_FILTERS: readonly FilterDef[] = Object.freeze([])
