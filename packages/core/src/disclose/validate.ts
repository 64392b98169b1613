/** Errors reported by {@link validateArgs} before it stops. */
export const DEFAULT_MAX_SCHEMA_ERRORS = 5

/** Nesting depth past which {@link validateArgs} stops descending (it accepts what lies deeper). */
const MAX_DEPTH = 32

/**
 * Schema nodes visited per validation at most, so nested anyOf or a huge array cannot blow up.
 * Past it the arguments are refused ("too large to validate"), never accepted unchecked.
 * Unit: nodes (one per value checked against one schema). @default 100000
 */
export const MAX_VALIDATION_STEPS = 100_000

/**
 * Largest `tool_call` arguments accepted, in chars of their JSON text (1,000,000, about 1 MB):
 * bigger ones are refused before validation. Tool arguments are model-written; nothing real is this big.
 */
export const MAX_ARGUMENT_CHARS = 1_000_000

/** The refusal (for the model) when arguments are over {@link MAX_ARGUMENT_CHARS}, else `undefined`. */
export function argumentsTooLarge(args: unknown): string | undefined {
  let chars: number
  try {
    chars = typeof args === 'string' ? args.length : (JSON.stringify(args) ?? '').length
  } catch {
    return '(arguments): are not plain JSON (a cycle or a BigInt); send a JSON object'
  }
  return chars > MAX_ARGUMENT_CHARS ? `(arguments): too large to validate (${chars} chars of JSON; the limit is ${MAX_ARGUMENT_CHARS}). Send smaller arguments.` : undefined
}

type Json = Record<string, unknown>

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v)

const typeOf = (v: unknown): string => {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'array'
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number'
  return typeof v
}

const matchesType = (v: unknown, t: unknown): boolean => {
  const actual = typeOf(v)
  return actual === t || (t === 'number' && actual === 'integer')
}

/** Deep equality for JSON values (enum / const). */
const jsonEqual = (a: unknown, b: unknown): boolean => {
  if (a === b) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]))
  const ka = Object.keys(a)
  const kb = Object.keys(b)
  return ka.length === kb.length && ka.every((k) => jsonEqual((a as Json)[k], (b as Json)[k]))
}

const show = (v: unknown): string => {
  const s = JSON.stringify(v) ?? String(v)
  return s.length > 40 ? `${s.slice(0, 37)}...` : s
}

/**
 * Checks a value against the common JSON Schema subset tool schemas use: `type` (one or a list;
 * `integer` counts as `number`), `enum`, `const`, `required`, `properties`,
 * `additionalProperties` (boolean or schema), `items` (schema), `minItems`/`maxItems`,
 * `minLength`/`maxLength`, `minimum`/`maximum`/`exclusiveMinimum`/`exclusiveMaximum` (numeric
 * form), `anyOf`, `oneOf`, `allOf`. Other keywords (`$ref`, `pattern`, `format`, ...) are not
 * checked: the tool itself still validates. Returns short messages with a JSON-pointer path,
 * empty when valid. Never throws.
 */
export function validateArgs(schema: unknown, value: unknown, maxErrors: number = DEFAULT_MAX_SCHEMA_ERRORS): string[] {
  const budget = { steps: MAX_VALIDATION_STEPS }
  const errors = check(schema, value, 0, maxErrors, budget)
  // Out of steps means part of the value went unchecked: fail closed.
  if (budget.steps < 0) return [`(arguments): too large to validate (more than ${MAX_VALIDATION_STEPS} values and schema nodes to check). Send smaller arguments.`]
  return errors
}

function check(schema: unknown, value: unknown, startDepth: number, maxErrors: number, budget: { steps: number }): string[] {
  const errors: string[] = []
  const push = (path: string, msg: string): void => {
    if (errors.length < maxErrors) errors.push(`${path === '' ? '(arguments)' : path}: ${msg}`)
  }
  const walk = (s: unknown, v: unknown, path: string, depth: number): void => {
    if (!isObject(s) || depth > MAX_DEPTH || errors.length >= maxErrors || --budget.steps < 0) return
    const t = s['type']
    if (typeof t === 'string' || Array.isArray(t)) {
      const types = Array.isArray(t) ? t : [t]
      if (!types.some((x) => matchesType(v, x))) {
        push(path, `expected ${types.join(' or ')}, got ${typeOf(v)}`)
        return // the other checks would only repeat the mismatch
      }
    }
    if (Array.isArray(s['enum']) && !s['enum'].some((e) => jsonEqual(e, v))) push(path, `must be one of ${s['enum'].map(show).join(', ')}`)
    if ('const' in s && !jsonEqual(s['const'], v)) push(path, `must be ${show(s['const'])}`)
    if (typeof v === 'number') {
      const n = (k: string): number | undefined => (typeof s[k] === 'number' ? (s[k] as number) : undefined)
      const min = n('minimum')
      const max = n('maximum')
      const xmin = n('exclusiveMinimum')
      const xmax = n('exclusiveMaximum')
      if (min !== undefined && v < min) push(path, `must be >= ${min}`)
      if (max !== undefined && v > max) push(path, `must be <= ${max}`)
      if (xmin !== undefined && v <= xmin) push(path, `must be > ${xmin}`)
      if (xmax !== undefined && v >= xmax) push(path, `must be < ${xmax}`)
    }
    if (typeof v === 'string') {
      const len = [...v].length // code points, as JSON Schema counts
      if (typeof s['minLength'] === 'number' && len < s['minLength']) push(path, `must have at least ${s['minLength']} characters`)
      if (typeof s['maxLength'] === 'number' && len > s['maxLength']) push(path, `must have at most ${s['maxLength']} characters`)
    }
    if (Array.isArray(v)) {
      if (typeof s['minItems'] === 'number' && v.length < s['minItems']) push(path, `must have at least ${s['minItems']} items`)
      if (typeof s['maxItems'] === 'number' && v.length > s['maxItems']) push(path, `must have at most ${s['maxItems']} items`)
      if (isObject(s['items'])) v.forEach((x, i) => walk(s['items'], x, `${path}/${i}`, depth + 1))
    }
    if (isObject(v)) {
      const props = isObject(s['properties']) ? s['properties'] : {}
      if (Array.isArray(s['required'])) {
        for (const r of s['required']) if (typeof r === 'string' && !Object.hasOwn(v, r)) push(`${path}/${r}`, 'is required')
      }
      for (const [k, x] of Object.entries(v)) {
        const p = `${path}/${k}`
        if (Object.hasOwn(props, k)) walk(props[k], x, p, depth + 1)
        else if (s['additionalProperties'] === false) push(p, `is not allowed (allowed: ${Object.keys(props).join(', ') || 'none'})`)
        else if (isObject(s['additionalProperties'])) walk(s['additionalProperties'], x, p, depth + 1)
      }
    }
    // Alternatives are checked in isolation; depth carries on so cyclic schemas still end.
    const sub = (list: unknown[]): number => list.filter((alt) => check(alt, v, depth + 1, 1, budget).length === 0).length
    if (Array.isArray(s['anyOf']) && sub(s['anyOf']) === 0) push(path, 'matches none of the allowed shapes (anyOf)')
    if (Array.isArray(s['oneOf']) && sub(s['oneOf']) !== 1) push(path, 'must match exactly one allowed shape (oneOf)')
    if (Array.isArray(s['allOf'])) for (const alt of s['allOf']) walk(alt, v, path, depth + 1)
  }
  try {
    walk(schema, value, '', startDepth)
  } catch {
    // A hostile schema (getters, proxies) must not break the agent loop: accept, the tool validates.
  }
  return errors
}
