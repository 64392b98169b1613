/**
 * Defaults of {@link SpillwayOptions}; see each field there for its unit and range.
 * `fullMaxChars` and `answerMaxChars` are the upper caps: unset, they scale down with `maxChars`.
 */
export const DEFAULT_SPILLWAY_OPTIONS = Object.freeze({
  spillOver: 0,
  ttlHours: 24,
  tombstoneTtlHours: 168,
  maxStoreBytes: 512 * 1024 * 1024,
  fullMaxChars: 60_000,
  answerMaxChars: 12_000,
  grepPageSize: 50,
  patternMaxChars: 256,
  regexTimeoutMs: 1_000,
  cacheChars: 64 * 1024 * 1024,
  compress: true,
})

/** Name of the fetch tool; trim profiles treat it as exempt. */
export const FETCH_TOOL_NAME = 'fetch_result' as const
