/**
 * A tool result as the string spillway trims and stores. Internal (not exported from the
 * package): shared by `trimResult` and the spill layer so both see the same text for the same
 * value.
 */

/**
 * `result` as a string: strings as they are; `undefined` / `null` as `''`; objects as JSON
 * (`String(result)` when JSON has no text for them, e.g. a function); other values through
 * `String`. Never throws: a value whose `toJSON` or `toString` throws (or a cycle) becomes
 * `[object Object]`-style text.
 */
export function asText(result: unknown): string {
  if (typeof result === 'string') return result
  if (result === undefined || result === null) return ''
  try {
    return typeof result === 'object' ? (JSON.stringify(result) ?? String(result)) : String(result)
  } catch {
    return Object.prototype.toString.call(result)
  }
}
