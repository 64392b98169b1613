/** One-pass shape description of a parsed JSON value: types, keys, array lengths. */

/** The JSON type name of a value (`array[3]` for arrays, `object{2 keys}` for objects when `detail`). */
export function typeName(v: unknown, detail = false): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return detail ? `array[${v.length}]` : 'array'
  if (typeof v === 'object') return detail ? `object{${Object.keys(v).length} keys}` : 'object'
  return typeof v
}

/** What the items of an array are: `object`, `number|string`, ... in order of first appearance. */
export function itemTypes(items: readonly unknown[]): string {
  const seen: string[] = []
  for (const it of items) {
    const t = typeName(it)
    if (!seen.includes(t)) seen.push(t)
    if (seen.length > 5) break
  }
  return seen.join('|')
}

/**
 * The union of keys over the object items of an array, in order of first appearance, each with
 * its value types and, when not in every object item, how many it is in: `body: string|null (27/30)`.
 * Array-valued keys show their length range: `labels: array[0-5]`.
 */
export function keyUnion(items: readonly unknown[]): { objects: number; keys: string[] } {
  const stats = new Map<string, { types: string[]; count: number; min: number; max: number }>()
  let objects = 0
  for (const it of items) {
    if (it === null || typeof it !== 'object' || Array.isArray(it)) continue
    objects++
    for (const k of Object.keys(it)) {
      const v = (it as Record<string, unknown>)[k]
      let s = stats.get(k)
      if (s === undefined) {
        s = { types: [], count: 0, min: Infinity, max: -1 }
        stats.set(k, s)
      }
      s.count++
      const t = typeName(v)
      if (!s.types.includes(t)) s.types.push(t)
      if (Array.isArray(v)) {
        s.min = Math.min(s.min, v.length)
        s.max = Math.max(s.max, v.length)
      }
    }
  }
  const keys: string[] = []
  for (const [k, s] of stats) {
    const types = s.types.map((t) => (t === 'array' && s.max >= 0 ? (s.min === s.max ? `array[${s.max}]` : `array[${s.min}-${s.max}]`) : t))
    keys.push(`${k}: ${types.join('|')}${s.count < objects ? ` (${s.count}/${objects})` : ''}`)
  }
  return { objects, keys }
}

/** `key: type` for each key of an object, with array lengths and object key counts. */
export function objectKeys(obj: Record<string, unknown>): string[] {
  return Object.keys(obj).map((k) => `${k}: ${typeName(obj[k], true)}`)
}
