// Compaction suite: a 60-turn agent session on corpus tool results, replayed under three
// policies for old tool results, with a prompt cache priced like the provider's:
// - none: every result stays as it was sent;
// - clear every turn: once over the threshold, every result older than the last N is cleared,
//   each turn (the way retroactive clearing works in most harnesses), so the cache breaks each turn;
// - spillway: planCompaction's batches of one-line handles, only when they pay.
import { CACHE_PRICING, compactTranscript, createSpillway, memoryStore, type CachePricing } from '@spillway/core'
import type { TrimCase } from '../corpus/types.js'
import { TOOL_FOR_KIND } from '../corpus/types.js'

export interface CompactionRow {
  policy: 'none' | 'clear-every-turn' | 'spillway'
  turns: number
  /** Input tokens sent, summed over turns. */
  tokensSent: number
  /** Turns whose transcript changed before its last message of the previous turn (the cache broke). */
  cacheBreaks: number
  /** Input cost in plain-input-token units: cached prefix at `read`, the rest at `write`. */
  costUnits: number
  /** Context at the last turn, in tokens. */
  finalContext: number
  /** Largest context of any turn. */
  peakContext: number
  /** Tool results the model can no longer read at the last turn (cleared without a handle to fetch them back). */
  unrecoverable: number
}

export interface CompactionResult {
  turns: number
  contextWindow: number
  thresholdPct: number
  keepLast: number
  pricing: CachePricing
  rows: CompactionRow[]
}

type Msg = { role: 'user' | 'assistant' | 'tool'; text: string }

const ASSISTANT = 'I will look at the output and run the next step. '.repeat(6)

/** Replays `transcripts[t]` (what the model is sent at turn t) through a prompt cache. */
function price(policy: CompactionRow['policy'], transcripts: Msg[][], count: (s: string) => number, pricing: CachePricing, unrecoverable: number): CompactionRow {
  let prev: Msg[] = []
  let tokensSent = 0
  let cacheBreaks = 0
  let costUnits = 0
  let peak = 0
  let last = 0
  const memo = new Map<string, number>()
  const tok = (s: string): number => memo.get(s) ?? (memo.set(s, count(s)), memo.get(s)!)
  for (const messages of transcripts) {
    let same = 0
    while (same < prev.length && same < messages.length && messages[same]!.text === prev[same]!.text) same++
    if (same < prev.length) cacheBreaks++
    let cached = 0
    let total = 0
    for (let i = 0; i < messages.length; i++) {
      const n = tok(messages[i]!.text)
      total += n
      if (i < same) cached += n
    }
    tokensSent += total
    costUnits += cached * pricing.read + (total - cached) * pricing.write
    peak = Math.max(peak, total)
    last = total
    prev = messages
  }
  return { policy, turns: transcripts.length, tokensSent, cacheBreaks, costUnits: Math.round(costUnits), finalContext: last, peakContext: peak, unrecoverable }
}

/**
 * Runs the session: turn t adds a user message, the tool result (a corpus result through
 * `spillway.handle` at 8,000 chars, so large ones arrive as excerpt + handle) and an assistant
 * reply; then each policy decides what the model is sent.
 */
export async function runCompaction(
  cases: readonly TrimCase[],
  count: (text: string) => number,
  options: { turns?: number; contextWindow?: number; thresholdPct?: number; keepLast?: number; pricing?: CachePricing } = {},
): Promise<CompactionResult> {
  const turns = options.turns ?? 60
  const contextWindow = options.contextWindow ?? 128_000
  const thresholdPct = options.thresholdPct ?? 0.5
  const keepLast = options.keepLast ?? 3
  const pricing = options.pricing ?? CACHE_PRICING.anthropic
  const pool = cases.filter((c) => c.kind !== 'aria')
  if (pool.length === 0) throw new Error('compaction suite: no corpus results')
  const sw = createSpillway({ store: memoryStore(), maxChars: 8000 })
  const full: Msg[] = []
  const none: Msg[][] = []
  const clear: Msg[][] = []
  const spill: Msg[][] = []
  const opts = {
    contextWindow,
    thresholdPct,
    keepLast,
    pricing,
    toolText: (m: Msg) => (m.role === 'tool' ? m.text : undefined),
    withText: (m: Msg, text: string): Msg => ({ ...m, text }),
    tokens: (m: Msg) => count(m.text),
    tokenizer: count,
  }
  const cleared = '[tool result cleared to save context]'
  for (let t = 0; t < turns; t++) {
    // Spread over the corpus, deterministically.
    const c = pool[Math.floor((t * pool.length) / turns) % pool.length]!
    const res = await sw.handle({ tool: TOOL_FOR_KIND[c.kind], result: c.text, sessionId: 'bench' })
    full.push({ role: 'user', text: `Turn ${t + 1}: check ${c.name} and continue.` }, { role: 'tool', text: res.content }, { role: 'assistant', text: ASSISTANT })
    none.push([...full])
    spill.push([...compactTranscript(full, opts).messages])
    // Clearing: over the threshold, every tool result but the last keepLast is cleared, now.
    const size = full.reduce((s, m) => s + count(m.text), 0)
    if (size > contextWindow * thresholdPct) {
      const toolAt = full.flatMap((m, i) => (m.role === 'tool' ? [i] : []))
      const keep = new Set(toolAt.slice(-keepLast))
      clear.push(full.map((m, i) => (m.role === 'tool' && !keep.has(i) ? { ...m, text: cleared } : m)))
    } else clear.push([...full])
  }
  await sw.dispose()
  return {
    turns,
    contextWindow,
    thresholdPct,
    keepLast,
    pricing,
    rows: [
      price('none', none, count, pricing, 0),
      price('clear-every-turn', clear, count, pricing, clear.at(-1)?.filter((m) => m.text === cleared).length ?? 0),
      // compacted results name their id and the fetch_result call: nothing is out of reach
      price('spillway', spill, count, pricing, 0),
    ],
  }
}

/** The suite's section of report.md. */
export function compactionMarkdown(r: CompactionResult): string {
  const n = (x: number): string => x.toLocaleString('en-US')
  const base = r.rows.find((x) => x.policy === 'none')!
  return [
    '## Compaction of old tool results',
    '',
    `A ${r.turns}-turn session on corpus results (each through \`handle\` at 8,000 chars), window ${n(r.contextWindow)} tokens, threshold ${r.thresholdPct * 100}%, last ${r.keepLast} results kept; cache priced at write ${r.pricing.write}x / read ${r.pricing.read}x input. Cost is in plain-input-token units.`,
    '',
    '| policy | tokens sent | cache breaks | cost units | vs none | peak context | final context | results out of reach |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...r.rows.map((x) => `| ${x.policy} | ${n(x.tokensSent)} | ${x.cacheBreaks} | ${n(x.costUnits)} | ${x === base ? '-' : `${(((x.costUnits - base.costUnits) / base.costUnits) * 100).toFixed(1)}%`} | ${n(x.peakContext)} | ${n(x.finalContext)} | ${x.unrecoverable} |`),
    '',
    'Clearing drops old results for good (the model must re-run the tool); spillway replaces only spilled results, by a line naming the id and the `fetch_result` call, and leaves results that were never spilled as they are. Where cache writes cost no premium (OpenAI, Google), breaking the cache every turn is cheap and clearing saves more tokens, at the price of the lost results.',
    '',
  ].join('\n')
}
