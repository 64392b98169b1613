import { ansiFilter, progressFilter } from './ansi/index.js'
import { ariaFilter, ariaJsonFilter } from './aria/index.js'
import { blankFilter, cycleFilter, dedupExactFilter, dedupFilter } from './dedup/index.js'
import { diffFilter, jsonDiffFilter } from './diff/index.js'
import { jsonFilter } from './json/index.js'
import { eventsFilter } from './events/index.js'
import { epilogueFilter } from './epilogue/index.js'
import { searchFilter } from './search/index.js'
import { terminalFilter } from './terminal/index.js'
import type { FilterDef } from './types.js'

export type { FilterContext, FilterDef, FilterFn, FilterOutput } from './types.js'
export { ansiFilter, collapseProgress, progressFilter, stripAnsi } from './ansi/index.js'
export { DEFAULT_ARIA, INTERACTIVE_ROLES, ariaFilter, ariaJsonFilter, trimAria, trimAriaInJson, type AriaOptions } from './aria/index.js'
export { DEFAULT_DEDUP, MAX_CYCLE_PERIOD, blankFilter, collapseBlankRuns, collapseBlankRunsMapped, collapseCycles, countBlankRuns, cycleFilter, dedupExact, dedupExactFilter, dedupExactMapped, dedupFilter, dedupNear, maskLine, type DedupOptions, type MergedLines } from './dedup/index.js'
export { DEFAULT_DIFF_SUMMARY, describeFile, diffFilter, jsonDiffFilter, parseDiff, summarizeDiff, summarizeDiffInJson, type DiffCommit, type DiffFile, type DiffSummaryOptions, type Hunk } from './diff/index.js'
export { MAX_EPILOGUE_LINES, epilogueFilter, mergeEpilogue } from './epilogue/index.js'
export { DEFAULT_EVENTS, eventsFilter, isEventsHeader, trimEvents, type EventsOptions } from './events/index.js'
export { DEFAULT_JSON_SUMMARY, jsonFilter, renderCompact, summarizeJson, type JsonSummaryOptions, type RenderLimits } from './json/index.js'
export { DEFAULT_SEARCH_SUMMARY, listedFiles, parseSearch, searchFilter, summarizeSearch, type SearchFile, type SearchParse, type SearchSummaryOptions } from './search/index.js'
export { TERMINAL_KEYS, terminalFilter, trimTerminalJson } from './terminal/index.js'
export { ENVELOPE_KEYS, unwrapEnvelope } from '../trim/envelope.js'

/**
 * The built-in filters, in pipeline order. Each runs when the detected kind matches (or the
 * profile is one it names) and the profile does not disable it; lossless ones also run under
 * budget when the profile lists them. The first that brings an over-budget result within budget
 * ends the chain.
 */
export const DEFAULT_FILTERS: readonly FilterDef[] = Object.freeze([
  ansiFilter,
  progressFilter,
  terminalFilter,
  ariaJsonFilter,
  jsonDiffFilter,
  jsonFilter,
  diffFilter,
  searchFilter,
  ariaFilter,
  eventsFilter,
  epilogueFilter,
  dedupExactFilter,
  cycleFilter,
  blankFilter,
  dedupFilter,
])
