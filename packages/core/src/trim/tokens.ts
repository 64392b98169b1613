/**
 * Cheap token estimate: one token per 4 UTF-16 code units, rounded up. Close enough for budgets
 * on English and code (o200k averages 3.5-4.5 chars per token there); pass a real tokenizer to
 * `trimResult` for exact counts.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4)
}

/** Whether a tokenizer's answer is a count: a finite number, 0 or more (a user's may return NaN or throw). */
export const isTokenCount = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0

/** Runs the user's tokenizer; falls back to the estimate if it throws or returns nonsense. */
export function countTokens(text: string, tokenizer: ((text: string) => number) | undefined): number {
  if (tokenizer === undefined) return estimateTokens(text)
  try {
    const n = tokenizer(text)
    return isTokenCount(n) ? n : estimateTokens(text)
  } catch {
    return estimateTokens(text)
  }
}

/**
 * Chars per token assumed for `maxTokens` when no tokenizer is given: 3. o200k (GPT-4o) averages
 * 3.5-4.5 chars per token on English prose and code and about 3 on build logs dense with digits,
 * paths and punctuation, so 3 chars per token keeps most texts under the token budget; it is an
 * estimate, not a bound (CJK text, emoji and random bytes run at 1 token per char or more): pass
 * a tokenizer for an exact budget.
 */
export const DEFAULT_CHARS_PER_TOKEN = 3
