import type { LanguageModel } from 'ai'

/**
 * Context windows (input tokens) of well-known model ids, as the providers document them.
 * Matched by longest prefix of the model id (a provider prefix such as `openai/` is ignored), so
 * dated snapshots (`gpt-4o-2024-08-06`, `claude-sonnet-4-5-20250929`) find their family.
 * Pass your own table to {@link contextWindowOf} to add or override ids.
 */
export const MODEL_CONTEXT_WINDOWS: Readonly<Record<string, number>> = Object.freeze({
  'gpt-4o': 128_000,
  'gpt-4o-mini': 128_000,
  'gpt-4.1': 1_047_576,
  'gpt-5': 400_000,
  o3: 200_000,
  'o4-mini': 200_000,
  'claude-opus-4': 200_000,
  'claude-sonnet-4': 200_000,
  'claude-haiku-4-5': 200_000,
  'claude-3-5-haiku': 200_000,
  'gemini-2.5-pro': 1_048_576,
  'gemini-2.5-flash': 1_048_576,
  'gemini-2.0-flash': 1_048_576,
})

/**
 * The context window of a model (an AI SDK model object or a model id string), from `table`
 * merged over {@link MODEL_CONTEXT_WINDOWS}; `undefined` when the id is unknown.
 *
 * @example
 * const spillway = createSpillway({ store, contextWindow: contextWindowOf(model) }) // gpt-4o: 128K -> 25,600 chars
 */
export function contextWindowOf(model: LanguageModel | string | undefined, table: Readonly<Record<string, number>> = {}): number | undefined {
  const raw = typeof model === 'string' ? model : typeof model === 'object' && model !== null && 'modelId' in model ? String(model.modelId) : undefined
  if (raw === undefined) return undefined
  const id = raw.slice(raw.lastIndexOf('/') + 1).toLowerCase()
  const windows: Record<string, number> = { ...MODEL_CONTEXT_WINDOWS, ...table }
  let best: string | undefined
  for (const key of Object.keys(windows)) {
    if ((id === key || id.startsWith(`${key}-`)) && (best === undefined || key.length > best.length)) best = key
  }
  return best === undefined ? undefined : windows[best]
}
