import type { FilterDef } from '../types.js'
import { summarizeSearch } from './search.js'

export { DEFAULT_SEARCH_SUMMARY, summarizeSearch, type SearchSummaryOptions } from './search.js'
export { KEEP_PER_FILE, parseSearch, type SearchFile, type SearchLine, type SearchParse } from './parse.js'
export { listedFiles } from './listing.js'

/**
 * grep / rg output grouped by file: every file named with its count, first matches per file, totals.
 * Never for `terminal` / `read_file` results: there `path:line:` lines are compiler or log output
 * (gcc, tsc, mypy, Go `log`), whose one `error:` line a per-file cut would drop.
 */
export const searchFilter: FilterDef = {
  name: 'search',
  kinds: ['search'],
  profiles: ['search'],
  skipProfiles: ['terminal', 'read_file'],
  lossless: false,
  preservesLines: false,
  run: (text, ctx) => summarizeSearch(text, ctx.budget),
}
