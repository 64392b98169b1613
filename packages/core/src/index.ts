export { trimResult, type TrimInternals } from './pipeline/trim-result.js'
export type { ContentKind, LineRange, Profile, Size, TrimOptions, TrimOutcome } from './trim/types.js'
export { DEFAULT_PROFILES, DEFAULT_TOOL_PROFILES, resolveProfile } from './trim/profiles.js'
export { DEFAULT_MAX_CHARS, DEFAULT_WINDOW_BUDGET, budgetFromContextWindow, resolveBudget } from './trim/budget.js'
export { DEFAULT_CHARS_PER_TOKEN, estimateTokens } from './trim/tokens.js'
export { countLines, headChars, tailChars, safeEnd, safeStart, clipLine } from './trim/text.js'
export { lineSalience, salienceRules, scanLines, type LineScan, type SalientLine } from './trim/salient.js'
export { focusTerms, lineTemplate, weighSalient, type WeighOptions } from './trim/weigh.js'
export { DEFAULT_SALIENCE_WEIGHTS, RARE_NEAR, SALIENCE_GRID, resolveWeights, salienceGrid, type SalienceWeights } from './trim/weights.js'
export { runnerShape, type RunnerShape } from './trim/runners.js'
export { HANDLE_HEADER, parseExcerpt, refitExcerpt, splitHandle, type HandleSplit, type ParsedExcerpt, type Refit } from './trim/excerpt.js'
export { afterFilter, type Provenance } from './trim/provenance.js'
export { fitTokens, charsForTokens } from './pipeline/tokens.js'
export { fitText, type FitResult } from './trim/fit.js'
export type { LineMap } from './trim/linemap.js'
export { TERMINAL_OUTPUT_KEYS, lineView, terminalOutputKey, viewLabel, type LineView } from './trim/view.js'
export { detectKind } from './detect/detect.js'
export { binaryPlaceholder, describeBytes, invalidUtf8At, type BytesVerdict } from './detect/binary.js'
export {
  DEFAULT_FILTERS, type FilterContext, type FilterDef, type FilterFn, type FilterOutput, type MergedLines,
  stripAnsi, collapseProgress, summarizeJson, renderCompact, summarizeDiff, summarizeDiffInJson, parseDiff, describeFile,
  dedupExact, dedupExactMapped, dedupNear, collapseBlankRuns, collapseBlankRunsMapped, collapseCycles, countBlankRuns, maskLine, trimTerminalJson, trimAria, trimAriaInJson, summarizeSearch, parseSearch, listedFiles,
  trimEvents, isEventsHeader, unwrapEnvelope,
  DEFAULT_ARIA, DEFAULT_DEDUP, DEFAULT_DIFF_SUMMARY, DEFAULT_EVENTS, DEFAULT_JSON_SUMMARY, DEFAULT_SEARCH_SUMMARY,
  type AriaOptions, type DedupOptions, type DiffSummaryOptions, type EventsOptions, type JsonSummaryOptions, type SearchSummaryOptions,
  type DiffCommit, type DiffFile, type Hunk, type RenderLimits, type SearchFile, type SearchParse,
} from './filters/index.js'
export { SpillwayError, type SpillwayErrorCode } from './errors.js'
export * from './store/index.js'
export * from './spill/index.js'
export * from './stats/index.js'
export * from './select/index.js'
export * from './disclose/index.js'
export * from './redact/index.js'
export * from './compact/index.js'
export * from './telemetry/index.js'
export { definedOnly } from './options.js'
