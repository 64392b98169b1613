/** A one-entry memo of `JSON.parse`, shared by the envelope, view and terminal code. */

// One-entry memo of JSON.parse: a terminal result is parsed by lineView and again by the terminal
// filter, and the spill layer trims the same result several times while fitting its block.
let lastJsonText: string | undefined
let lastJsonValue: unknown
let lastJsonOk = false

/**
 * `JSON.parse(text)`, remembering the last text parsed (the same string is then answered without
 * parsing again). `undefined` with `ok: false` when `text` is not JSON. Callers must not mutate
 * the value returned.
 */
export function parseJsonOnce(text: string): { ok: boolean; value: unknown } {
  if (text !== lastJsonText) {
    lastJsonText = text
    try {
      lastJsonValue = JSON.parse(text)
      lastJsonOk = true
    } catch {
      lastJsonValue = undefined
      lastJsonOk = false
    }
  }
  return { ok: lastJsonOk, value: lastJsonValue }
}

/** The JSON object `text` holds (through {@link parseJsonOnce}), or `undefined` for anything else. */
export function parseJsonObject(text: string): Record<string, unknown> | undefined {
  const { ok, value } = parseJsonOnce(text)
  return ok && value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
}
