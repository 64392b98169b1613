import { definedOnly } from '../options.js'

/**
 * Provider cache prices, as multiples of the plain input-token price. A compaction rewrites the
 * transcript from the first compacted message on, so everything after it is written to the cache
 * again (at `write`) instead of read from it (at `read`).
 */
export interface CachePricing {
  /** Price of writing one input token to the cache. */
  write: number
  /** Price of reading one cached input token. */
  read: number
}

/**
 * Sensible defaults per provider (input-token multiples as the providers publish them):
 * Anthropic 5-minute cache writes cost 1.25x and reads 0.1x; OpenAI caches automatically with no
 * write premium and bills cached reads at 0.25x-0.5x (0.5 here, the conservative end); Google's
 * implicit caching reads at 0.25x.
 */
export const CACHE_PRICING = Object.freeze({
  anthropic: Object.freeze({ write: 1.25, read: 0.1 }),
  openai: Object.freeze({ write: 1, read: 0.5 }),
  google: Object.freeze({ write: 1, read: 0.25 }),
} satisfies Record<string, CachePricing>)

/** Options of {@link planCompaction}. */
export interface CompactionOptions {
  /** The model's context window, in tokens. */
  contextWindow: number
  /** Compaction is considered once the context passes this share of the window. @default 0.5 */
  thresholdPct?: number
  /** The most recent tool results never compacted. @default 3 */
  keepLast?: number
  /** Turns the conversation is expected to go on for after a compaction: the savings' horizon. @default 10 */
  remainingTurns?: number
  /** Cache prices. @default CACHE_PRICING.anthropic */
  pricing?: CachePricing
  /** Past this share of the window a batch happens even when it does not pay: the context must fit. @default 0.9 */
  forcePct?: number
}

/** Defaults of {@link CompactionOptions}. */
export const DEFAULT_COMPACTION = Object.freeze({ thresholdPct: 0.5, keepLast: 3, remainingTurns: 10, pricing: CACHE_PRICING.anthropic, forcePct: 0.9 })

/** One tool result of the transcript, in order, as {@link planCompaction} weighs it. */
export interface CompactionItem {
  /** Tokens of the result as it stands in the transcript (the excerpt and handle block). */
  tokens: number
  /** Tokens of its one-line replacement; undefined when it cannot be compacted (not spilled, nothing to fetch). */
  compactTokens?: number
  /** Tokens of everything else between the previous tool result and this one (user, assistant, tool calls). */
  before: number
}

/** One batch: the point where the cache breaks once, and what it bought. */
export interface CompactionBatch {
  /** Index of the tool result after which the batch happened (the context had just passed the threshold). */
  at: number
  /** True when it happened because the context neared the window (`forcePct`), paying or not. */
  forced: boolean
  /** Items compacted by this batch. */
  items: number[]
  savedTokens: number
  /** Context tokens before and after the batch. */
  contextBefore: number
  contextAfter: number
}

/** What {@link planCompaction} decided. */
export interface CompactionPlan {
  /** Indices of the items to show as one-line handles, ascending. */
  compacted: number[]
  batches: CompactionBatch[]
  /** Context tokens with the plan applied (the transcript as the model sees it now). */
  contextTokens: number
  savedTokens: number
}

/**
 * Decides which old tool results to replace by one-line handles. A pure function of the
 * transcript: it replays the conversation item by item, and wherever the context passed the
 * threshold it compacts, in ONE batch, every compactable result older than the last `keepLast`,
 * but only when the batch pays: the tokens it saves, read over `remainingTurns` turns, must cost
 * more than writing the rest of the transcript to the cache again. Replaying from the start
 * makes the decision for a turn the same on every later turn, so what was compacted stays
 * compacted, the transcript only changes at a batch, and the prefix caches again from the next
 * turn on.
 *
 * @example
 * const plan = planCompaction(items, { contextWindow: 200_000, pricing: CACHE_PRICING.anthropic })
 * plan.compacted // [0, 1, 2, 4]: show these results as handles
 */
export function planCompaction(items: readonly CompactionItem[], options: CompactionOptions): CompactionPlan {
  const o = { ...DEFAULT_COMPACTION, ...definedOnly(options) }
  const window = Math.max(0, options.contextWindow)
  const threshold = window * o.thresholdPct
  const keepLast = Math.max(0, Math.floor(o.keepLast))
  const { read, write } = o.pricing
  const done = new Set<number>()
  const batches: CompactionBatch[] = []
  // sizes[i]: what item i costs in the context now (its tokens, or its compact line once compacted)
  const sizes: number[] = []
  let context = 0
  for (let i = 0; i < items.length; i++) {
    const it = items[i]!
    context += Math.max(0, it.before) + Math.max(0, it.tokens)
    sizes.push(Math.max(0, it.tokens))
    if (context <= threshold) continue
    const candidates: number[] = []
    let saved = 0
    for (let j = 0; j <= i - keepLast; j++) {
      const c = items[j]!.compactTokens
      if (done.has(j) || c === undefined || c >= sizes[j]!) continue
      candidates.push(j)
      saved += sizes[j]! - c
    }
    if (candidates.length === 0) continue
    // Everything from the first compacted item on is written to the cache again, once.
    let suffix = 0
    for (let j = candidates[0]!; j <= i; j++) suffix += items[j]!.before + (candidates.includes(j) ? items[j]!.compactTokens! : sizes[j]!)
    suffix -= items[candidates[0]!]!.before
    const cost = suffix * Math.max(0, write - read)
    const gain = saved * read * Math.max(0, o.remainingTurns)
    if (gain <= cost && context <= window * o.forcePct) continue
    for (const j of candidates) {
      done.add(j)
      sizes[j] = items[j]!.compactTokens!
    }
    batches.push({ at: i, forced: gain <= cost, items: candidates, savedTokens: saved, contextBefore: context, contextAfter: context - saved })
    context -= saved
  }
  const compacted = [...done].sort((a, b) => a - b)
  return { compacted, batches, contextTokens: context, savedTokens: batches.reduce((s, b) => s + b.savedTokens, 0) }
}
