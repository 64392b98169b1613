import type { FilterDef } from '../types.js'
import { summarizeSearch } from './search.js'

export { DEFAULT_SEARCH_SUMMARY, summarizeSearch, type SearchSummaryOptions } from './search.js'
export { KEEP_PER_FILE, parseSearch, type SearchFile, type SearchLine, type SearchParse } from './parse.js'
export { listedFiles } from './listing.js'

/** grep / rg output grouped by file: every file named with its count, first matches per file, totals. */
export const searchFilter: FilterDef = {
  name: 'search',
  kinds: ['search'],
  profiles: ['search'],
  lossless: false,
  preservesLines: false,
  run: (text, ctx) => summarizeSearch(text, ctx.budget),
}
