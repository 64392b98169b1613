import { countTokens } from '../trim/tokens.js'
import { compactedContent, spilledRef } from './handle.js'
import { planCompaction, type CompactionOptions, type CompactionPlan } from './plan.js'

/** How {@link compactTranscript} reads and rewrites a framework's messages. */
export interface CompactTranscriptOptions<M> extends CompactionOptions {
  /** The text of a tool-result message, or `undefined` for any other message. */
  toolText(message: M): string | undefined
  /** A copy of a tool-result message whose text is `text` (the original is never mutated). */
  withText(message: M, text: string): M
  /** Tokens of a message that is not a tool result (its text, tool calls, ...). */
  tokens(message: M): number
  /** Counts tokens of tool-result texts. @default the chars / 4 estimate */
  tokenizer?: (text: string) => number
}

/** What {@link compactTranscript} returns. */
export interface TranscriptCompaction<M> {
  /** The messages to send: the same array when nothing was compacted. */
  messages: M[]
  plan: CompactionPlan
}

/**
 * Applies {@link planCompaction} to a framework's message list: old spilled tool results become
 * one-line handles ({@link compactedContent}), in batches, only when it pays. Results that were
 * not spilled are never touched (nothing could bring them back). Deterministic: the same messages
 * give the same output, so a compacted prefix stays byte-identical turn after turn.
 */
export function compactTranscript<M>(messages: readonly M[], o: CompactTranscriptOptions<M>): TranscriptCompaction<M> {
  const at: number[] = [] // message index of each tool result
  const refs: (ReturnType<typeof spilledRef>)[] = []
  const items: { tokens: number; compactTokens?: number; before: number }[] = []
  let before = 0
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!
    const text = o.toolText(m)
    if (text === undefined) {
      before += o.tokens(m)
      continue
    }
    const ref = spilledRef(text)
    at.push(i)
    refs.push(ref)
    items.push({ tokens: countTokens(text, o.tokenizer), before, ...(ref !== undefined ? { compactTokens: countTokens(compactedContent(ref), o.tokenizer) } : {}) })
    before = 0
  }
  const plan = planCompaction(items, o)
  if (plan.compacted.length === 0) return { messages: messages as M[], plan }
  const out = [...messages]
  for (const k of plan.compacted) out[at[k]!] = o.withText(out[at[k]!]!, compactedContent(refs[k]!))
  return { messages: out, plan }
}
