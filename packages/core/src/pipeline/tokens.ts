import { DEFAULT_CHARS_PER_TOKEN, isTokenCount } from '../trim/tokens.js'

/** Most re-fits a token budget may take before settling for an empty text. */
const MAX_ROUNDS = 24

/**
 * The largest output of `render` (called with shrinking char budgets) whose token count is at
 * most `maxTokens`: starts at `startChars`, and while the tokenizer counts too many, retries
 * with the budget scaled by `maxTokens / counted` (and always at least one char less), so it
 * holds exactly in tokens whatever the text. After {@link MAX_ROUNDS} it renders with budget 0.
 * `count` must never throw (callers wrap the user's tokenizer).
 */
export function fitTokens<T>(render: (maxChars: number) => T, textOf: (t: T) => string, maxTokens: number, count: (text: string) => number, startChars: number): T {
  let chars = Math.max(0, Math.floor(startChars))
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const out = render(chars)
    const tokens = count(textOf(out))
    if (tokens <= maxTokens) return out
    if (chars === 0) return out // a tokenizer that counts tokens in '': nothing smaller exists
    chars = Math.min(chars - 1, Math.floor((chars * maxTokens) / tokens * 0.97))
    chars = Math.max(0, chars)
  }
  return render(0)
}

/**
 * `tokenizer`, asked about each text once: a text asked about again gets the first count. For one
 * trim's re-fits, which count the input for the outcome at every round and then each excerpt twice
 * (the outcome's `kept`, the budget check): the input of a 4 MB log was tokenized three times, now
 * once. Only counts are remembered (finite numbers, 0 or more): a throw or a nonsense answer is
 * asked again, so a tokenizer that fails once fares as it did before. Holds the texts it counted
 * until dropped.
 */
export function answerOnce(tokenizer: (text: string) => number): (text: string) => number {
  const counts = new Map<string, number>()
  return (text) => {
    const known = counts.get(text)
    if (known !== undefined) return known
    const n = tokenizer(text)
    if (isTokenCount(n)) counts.set(text, n)
    return n
  }
}

/** The char budget a token budget gives without a tokenizer: {@link DEFAULT_CHARS_PER_TOKEN} per token. */
export function charsForTokens(maxTokens: number): number {
  return Math.max(0, Math.floor(maxTokens * DEFAULT_CHARS_PER_TOKEN))
}
