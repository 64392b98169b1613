import { countTokens } from '../trim/tokens.js'
import type { ToolDescriptor } from '../select/types.js'
import type { DisclosureMode } from './types.js'

/** Defaults of {@link createDisclosure}'s gate and bridge. */
export const DEFAULT_DISCLOSURE = Object.freeze({
  /** Context window assumed when none is given, in tokens. */
  contextWindow: 128_000,
  /** Share of the window the deferrable schemas may take before `auto` defers them, in percent. */
  thresholdPct: 10,
  /** `tool_search` results when the model gives no limit. */
  searchDefaultLimit: 5,
  /** Largest `tool_search` limit honoured. */
  maxSearchLimit: 20,
})

/** Estimated tokens of a tool's schema as sent to a model: name, description and parameters as JSON. */
export function schemaTokens(tool: ToolDescriptor, tokenizer?: (text: string) => number): number {
  let json: string
  try {
    json = JSON.stringify({ name: tool.name, description: tool.description ?? '', parameters: tool.parameters ?? {} })
  } catch {
    json = `${tool.name} ${tool.description ?? ''}` // a schema that cannot be serialised still counts its text
  }
  return countTokens(json, tokenizer)
}

/**
 * Whether to defer: `off` never, `on` whenever there is something to defer, `auto` only when the
 * deferrable schemas take more than `thresholdPct` percent of `contextWindow` tokens.
 */
export function shouldDefer(mode: DisclosureMode, deferrableTokens: number, deferrableCount: number, contextWindow: number, thresholdPct: number): boolean {
  if (mode === 'off' || deferrableCount === 0) return false
  if (mode === 'on') return true
  return deferrableTokens > (contextWindow * thresholdPct) / 100
}
