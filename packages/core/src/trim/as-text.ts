/**
 * A tool result as the string spillway trims and stores. Internal (not exported from the
 * package): shared by `trimResult` and the spill layer so both see the same text for the same
 * value.
 */

/** Deepest nesting written when a result has to be serialised the careful way; deeper parts are replaced. */
export const SAFE_JSON_MAX_DEPTH = 256

const CIRCULAR = '[Circular]'
const TOO_DEEP = `[nested deeper than ${SAFE_JSON_MAX_DEPTH} levels]`

/** Short, deterministic text of a thrown value (no stack, no paths). */
function thrown(err: unknown): string {
  const msg = err instanceof Error ? `${err.name}: ${err.message}` : String(err)
  const line = msg.split('\n')[0] ?? ''
  return line.length > 160 ? `${line.slice(0, 160)}…` : line
}

/**
 * JSON of a value `JSON.stringify` refused, with the parts it could not write replaced by a
 * bracketed note, and the reasons in the order met. Every object is copied before the serialiser
 * sees it, its children's `toJSON` run here under `try`, so nothing inside can throw out; cycles
 * and nesting past {@link SAFE_JSON_MAX_DEPTH} are cut (so no stack overflow either).
 */
function carefulJson(result: object): { json: string; reasons: string[] } {
  const reasons = new Set<string>()
  const resolve = (value: unknown, key: string, hops = 0): unknown => {
    if (typeof value === 'bigint') {
      reasons.add('it holds BigInt numbers, written here as strings')
      return value.toString()
    }
    if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return value
    const toJSON = (value as { toJSON?: unknown }).toJSON
    if (typeof toJSON !== 'function') return value
    try {
      const next: unknown = (toJSON as (k: string) => unknown).call(value, key)
      return next === value || hops >= 8 ? next : resolve(next, key, hops + 1)
    } catch (err) {
      reasons.add(`a toJSON() method threw (${thrown(err)}), written here as "[toJSON threw]"`)
      return '[toJSON threw]'
    }
  }
  /** A plain copy whose children have had their `toJSON` run (so the serialiser never runs one). */
  const copy = (value: object): object => {
    const out: Record<string, unknown> = Array.isArray(value) ? ([] as unknown as Record<string, unknown>) : {}
    const keys = Array.isArray(value) ? value.map((_, i) => String(i)) : Object.keys(value)
    for (const k of keys) {
      let child: unknown
      try {
        child = (value as Record<string, unknown>)[k]
      } catch (err) {
        reasons.add(`reading a property threw (${thrown(err)}), written here as "[unreadable]"`)
        child = '[unreadable]'
      }
      out[k] = resolve(child, k)
    }
    return out
  }
  // The ancestors of the value being written: the copies (the serialiser's holders) and their originals.
  const copies: unknown[] = []
  const originals: unknown[] = []
  const json = JSON.stringify(resolve(result, ''), function (this: unknown, _key: string, value: unknown) {
    while (copies.length > 0 && copies[copies.length - 1] !== this) {
      copies.pop()
      originals.pop()
    }
    if (value === null || typeof value !== 'object') return value
    if (originals.includes(value)) {
      reasons.add(`it holds a circular reference, written here as "${CIRCULAR}"`)
      return CIRCULAR
    }
    if (copies.length >= SAFE_JSON_MAX_DEPTH) {
      reasons.add(`it is nested more than ${SAFE_JSON_MAX_DEPTH} levels deep, deeper parts written here as "${TOO_DEEP}"`)
      return TOO_DEEP
    }
    const c = copy(value)
    copies.push(c)
    originals.push(value)
    return c
  }) as string | undefined
  return { json: json ?? '', reasons: [...reasons] }
}

/**
 * `result` as a string: strings as they are; `undefined` / `null` as `''`; objects as JSON
 * (`String(result)` when JSON has no text for them, e.g. a function); other values through
 * `String`. Never throws. An object `JSON.stringify` refuses (a cycle, nesting deeper than the
 * call stack, a throwing `toJSON`, a BigInt) is written with those parts replaced, under a first
 * line that says it could not be serialised as JSON and why; deterministic like the rest.
 */
export function asText(result: unknown): string {
  if (typeof result === 'string') return result
  if (result === undefined || result === null) return ''
  if (typeof result !== 'object') return String(result)
  try {
    return JSON.stringify(result) ?? String(result)
  } catch (first) {
    try {
      const { json, reasons } = carefulJson(result)
      const why = reasons.length > 0 ? reasons.join('; ') : thrown(first)
      return `[spillway: this tool result could not be serialised as JSON as it is: ${why}]\n${json}`
    } catch (err) {
      return `[spillway: this tool result could not be serialised as JSON (${thrown(first)}; then ${thrown(err)}), so only its type is shown]\n${Object.prototype.toString.call(result)}`
    }
  }
}
