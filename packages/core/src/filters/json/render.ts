import { safeEnd } from '../../trim/text.js'

/** How much of a JSON value {@link renderCompact} shows. */
export interface RenderLimits {
  /** Longest string shown whole, in chars; longer ones are cut with a count. */
  str: number
  /** Items shown per nested array (the first ones), then a count of the rest. */
  items: number
  /** Keys shown per nested object, then a count of the rest. */
  keys: number
  /** Nesting shown below the value itself; deeper containers become `{…N keys}` / `[…N items]`. */
  depth: number
}

/** From rich to lean: the renderers try each in turn until the result fits. */
export const LIMIT_LEVELS: readonly RenderLimits[] = Object.freeze([
  { str: 400, items: 5, keys: 80, depth: 6 },
  { str: 200, items: 3, keys: 40, depth: 4 },
  { str: 100, items: 2, keys: 24, depth: 3 },
  { str: 60, items: 1, keys: 16, depth: 2 },
  { str: 32, items: 1, keys: 10, depth: 1 },
  { str: 16, items: 0, keys: 6, depth: 1 },
  { str: 12, items: 0, keys: 3, depth: 0 },
])

/** A JSON string literal of `s`, cut to `max` chars with the count of chars left out. */
export function cutString(s: string, max: number): string {
  if (s.length <= max) return JSON.stringify(s)
  const keep = safeEnd(s, max)
  return JSON.stringify(`${s.slice(0, keep)}…(+${s.length - keep} chars)`)
}

/**
 * Compact JSON for `value` within `limits`: long strings cut with counts, arrays and objects
 * beyond the limits summarised with counts. Stops early once `stopAt` chars are written (the
 * caller then knows it does not fit). Recursion is bounded by `limits.depth` (at most a few
 * levels), so any nesting depth is safe.
 */
export function renderCompact(value: unknown, limits: RenderLimits, stopAt = Infinity): string {
  const out: string[] = []
  let len = 0
  const push = (s: string): void => {
    out.push(s)
    len += s.length
  }
  const walk = (v: unknown, depth: number): void => {
    if (len > stopAt) return
    if (v === null || typeof v !== 'object') {
      push(typeof v === 'string' ? cutString(v, limits.str) : v === undefined ? 'null' : String(v))
      return
    }
    if (Array.isArray(v)) {
      if (v.length === 0) return push('[]')
      if (depth >= limits.depth) return push(`[…${v.length} items]`)
      push('[')
      const shown = Math.min(v.length, limits.items)
      for (let i = 0; i < shown; i++) {
        if (i > 0) push(',')
        walk(v[i], depth + 1)
      }
      if (v.length > shown) push(`${shown > 0 ? ',' : ''}…+${v.length - shown} items`)
      return push(']')
    }
    const keys = Object.keys(v)
    if (keys.length === 0) return push('{}')
    if (depth >= limits.depth) return push(`{…${keys.length} keys}`)
    push('{')
    const shown = Math.min(keys.length, limits.keys)
    for (let i = 0; i < shown; i++) {
      if (i > 0) push(',')
      push(`${cutString(keys[i]!, 40)}:`)
      walk((v as Record<string, unknown>)[keys[i]!], depth + 1)
    }
    if (keys.length > shown) push(`${shown > 0 ? ',' : ''}…+${keys.length - shown} keys`)
    push('}')
  }
  walk(value, 0)
  return out.join('')
}
