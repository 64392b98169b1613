import type { LanguageModel, ModelMessage } from 'ai'
import { definedOnly } from '@spillway/core'
import type { CachePricing, CompactionPlan } from '@spillway/core'
import { compactTranscript, estimateTokens } from '@spillway/core'
import { contextWindowOf } from './context-window.js'

/** Options of {@link spillwayCompaction}. */
export interface SpillwayCompactionOptions {
  /** The model's context window in tokens. @default from the step's model id ({@link contextWindowOf}); no compaction when unknown */
  contextWindow?: number
  /** Extra or overriding entries for the model-id table, used when `contextWindow` is absent. */
  contextWindows?: Readonly<Record<string, number>>
  /** Compaction is considered once the context passes this share of the window. Range 0-1. @default 0.5 (core `DEFAULT_COMPACTION`) */
  thresholdPct?: number
  /** The most recent tool results never compacted. @default 3 */
  keepLast?: number
  /** Turns the conversation is expected to go on for: the horizon the savings are weighed over. @default 10 */
  remainingTurns?: number
  /** Cache prices (`CACHE_PRICING.anthropic | openai | google`). @default CACHE_PRICING.anthropic */
  pricing?: CachePricing
  /** Called with the plan on every step (to log or count batches). */
  onPlan?: (plan: CompactionPlan) => void
}

/** The part of the `prepareStep` argument compaction reads; the same in ai 6 and ai 7. */
export interface CompactionStepInput {
  messages: ModelMessage[]
  model?: LanguageModel
}

/**
 * A `prepareStep` that replaces old spilled tool results by one-line handles (core's
 * `compactTranscript`): once the context passes `thresholdPct` of the window, every spilled result
 * older than the last `keepLast` is compacted in one batch, only when the tokens saved over
 * `remainingTurns` outweigh rewriting the cache. It returns `messages` for this step only; the SDK
 * keeps the full transcript, and the next step is compacted again from it, identically (the plan
 * replays the transcript), so the compacted prefix is byte-stable and the cache breaks once per batch.
 * A compacted line names the id: `fetch_result` still reads the result. Returns `{}` when nothing is
 * compacted. Compose with {@link spillwayPrepareStep}: `async (s) => ({ ...(await select(s)), ...compact(s) })`.
 *
 * @example
 * ```ts
 * await generateText({ model, tools, messages, prepareStep: spillwayCompaction({ pricing: CACHE_PRICING.openai }) })
 * ```
 */
export function spillwayCompaction(options: SpillwayCompactionOptions = {}) {
  const { contextWindow, contextWindows, onPlan, ...plan } = options
  return ({ messages, model }: CompactionStepInput): { messages?: ModelMessage[] } => {
    const window = contextWindow ?? contextWindowOf(model, contextWindows)
    if (window === undefined) return {}
    const { units, rebuild } = toUnits(messages)
    const out = compactTranscript(units, { ...definedOnly(plan), contextWindow: window, toolText: unitText, withText: withUnitText, tokens: unitTokens })
    onPlan?.(out.plan)
    return out.plan.compacted.length === 0 ? {} : { messages: rebuild(out.messages) }
  }
}

// A tool message carries all the results of a step; compaction weighs each result on its own.
type Unit = { message: ModelMessage } | { tool: number; part: number; text: string; kind: 'text' | 'error-text' }

function toUnits(messages: readonly ModelMessage[]) {
  const units: Unit[] = []
  messages.forEach((message, i) => {
    if (message.role !== 'tool') return void units.push({ message })
    message.content.forEach((part, j) => {
      const output = part.type === 'tool-result' ? part.output : undefined
      if (output !== undefined && (output.type === 'text' || output.type === 'error-text')) units.push({ tool: i, part: j, text: output.value, kind: output.type })
      else units.push({ message: { role: 'tool', content: [part] } as ModelMessage })
    })
  })
  const rebuild = (compacted: Unit[]): ModelMessage[] => {
    const out = [...messages]
    for (const u of compacted) {
      if ('message' in u) continue
      const m = out[u.tool] as Extract<ModelMessage, { role: 'tool' }>
      const part = m.content[u.part] as Extract<(typeof m.content)[number], { type: 'tool-result' }>
      if (part.output.type === u.kind && part.output.value === u.text) continue
      const content = [...m.content]
      content[u.part] = { ...part, output: { type: u.kind, value: u.text } }
      out[u.tool] = { ...m, content }
    }
    return out
  }
  return { units, rebuild }
}

const unitText = (u: Unit): string | undefined => ('message' in u ? undefined : u.text)
const withUnitText = (u: Unit, text: string): Unit => ('message' in u ? u : { ...u, text })
const unitTokens = (u: Unit): number => ('message' in u ? estimateTokens(typeof u.message.content === 'string' ? u.message.content : JSON.stringify(u.message.content)) : 0)
