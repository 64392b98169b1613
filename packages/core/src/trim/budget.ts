/** Budget when neither `maxChars` nor `contextWindow` is given: about 4,000 tokens. */
export const DEFAULT_MAX_CHARS = 16_000

/** How a context window (tokens) becomes a char budget. See {@link budgetFromContextWindow}. */
export const DEFAULT_WINDOW_BUDGET = Object.freeze({
  /** Share of the context window one tool result may take. */
  share: 0.05,
  /** Chars per token assumed when converting. */
  charsPerToken: 4,
  /** Lower clamp, in chars. */
  min: 2_000,
  /** Upper clamp, in chars: stays below Hermes' own 100K (50K for MCP) spill threshold. */
  max: 40_000,
})

/**
 * `maxChars = clamp(floor(contextWindow * 0.05) * 4, 2000, 40000)`: one tool result may take
 * 5% of the window. 8K tokens -> 2,000 chars (clamped), 128K -> 25,600, 200K and up -> 40,000.
 */
export function budgetFromContextWindow(contextWindow: number): number {
  const { share, charsPerToken, min, max } = DEFAULT_WINDOW_BUDGET
  if (!Number.isFinite(contextWindow) || contextWindow <= 0) return DEFAULT_MAX_CHARS
  return Math.min(max, Math.max(min, Math.floor(contextWindow * share) * charsPerToken))
}

/** The char budget of a trim call: `maxChars` (floored, at least 0), else from the window, else the default. */
export function resolveBudget(maxChars: number | undefined, contextWindow: number | undefined): number {
  if (typeof maxChars === 'number' && !Number.isNaN(maxChars)) {
    return maxChars === Infinity ? Number.MAX_SAFE_INTEGER : Math.max(0, Math.floor(maxChars))
  }
  if (typeof contextWindow === 'number') return budgetFromContextWindow(contextWindow)
  return DEFAULT_MAX_CHARS
}
