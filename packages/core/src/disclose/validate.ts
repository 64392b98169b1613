import { Validator } from '@cfworker/json-schema'
import { describeErrors, resolveRef } from './schema-errors.js'
import { prepareSchema, type PreparedSchema } from './schema-prep.js'

/** Errors reported by {@link validateArgs} before it stops. */
export const DEFAULT_MAX_SCHEMA_ERRORS = 5

/**
 * Schema nesting followed per validation at most (through `properties`, `items`, `anyOf`, `$ref`,
 * ...). Past it the arguments are refused, never accepted unchecked. Unit: levels. @default 128
 */
export const MAX_VALIDATION_DEPTH = 128

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
const isRecord = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v)

const TOO_LARGE = `(arguments): too large to validate (more than ${MAX_VALIDATION_STEPS} values and schema nodes to check). Send smaller arguments.`
const TOO_DEEP = `(arguments): nested too deeply to validate (more than ${MAX_VALIDATION_DEPTH} levels). Send flatter arguments.`

class OverBudget extends Error {}

/**
 * Counts the (value, schema) pairs the validator will visit, and throws {@link OverBudget} past
 * the limits: the validator itself has no step budget, and both the schema (a remote MCP server's)
 * and the value (the model's) are outside our control. Over-counts where it cannot know
 * (`patternProperties` counted for every key), never under-counts local `$ref`s.
 */
function meter(root: unknown, s: unknown, v: unknown, depth: number, budget: { steps: number }): void {
  if (--budget.steps < 0) throw new OverBudget(TOO_LARGE)
  if (depth > MAX_VALIDATION_DEPTH) throw new OverBudget(TOO_DEEP)
  if (!isRecord(s)) return
  const sub = (schema: unknown, value: unknown): void => meter(root, schema, value, depth + 1, budget)
  if (typeof s['$ref'] === 'string') sub(resolveRef(root, s['$ref']), v)
  for (const k of ['anyOf', 'oneOf', 'allOf']) if (Array.isArray(s[k])) for (const alt of s[k]) sub(alt, v)
  for (const k of ['not', 'if', 'then', 'else']) if (k in s) sub(s[k], v)
  if (isRecord(v)) {
    const props = isRecord(s['properties']) ? s['properties'] : {}
    const patterns = isRecord(s['patternProperties']) ? Object.values(s['patternProperties']) : []
    for (const [k, x] of Object.entries(v)) {
      if (Object.hasOwn(props, k)) sub(props[k], x)
      for (const p of patterns) sub(p, x)
      for (const kw of ['additionalProperties', 'unevaluatedProperties']) if (isRecord(s[kw])) sub(s[kw], x)
      if ('propertyNames' in s) sub(s['propertyNames'], k)
    }
    if (isRecord(s['dependentSchemas'])) for (const d of Object.values(s['dependentSchemas'])) sub(d, v)
  }
  if (Array.isArray(v)) {
    const tuple = Array.isArray(s['prefixItems']) ? s['prefixItems'] : Array.isArray(s['items']) ? s['items'] : []
    v.forEach((x, i) => {
      if (i < tuple.length) sub(tuple[i], x)
      else for (const kw of ['items', 'additionalItems', 'unevaluatedItems']) if (isRecord(s[kw])) sub(s[kw], x)
      if ('contains' in s) sub(s['contains'], x)
    })
  }
}

const validators = new WeakMap<PreparedSchema, Validator>()

/**
 * Checks tool-call arguments against the tool's JSON Schema with `@cfworker/json-schema` (edge-safe,
 * drafts 4, 7, 2019-09 and 2020-12, picked from `$schema`, default 2020-12): `$ref`, `pattern`,
 * `format`, combinators and the rest. Returns short, model-actionable messages with a JSON-pointer
 * path (`/count: must be >= 1`), empty when valid. Bounded work: `pattern` runs on RE2 (linear
 * time; a pattern RE2 refuses, such as nested repeats, is left to the tool), `format` is checked
 * on strings up to 2,048 chars, and arguments needing more than {@link MAX_VALIDATION_STEPS}
 * checks or {@link MAX_VALIDATION_DEPTH} levels are refused, never accepted unchecked. A schema
 * that is not plain JSON, or that the validator cannot load (an unresolvable `$ref`), checks
 * nothing: the tool still validates. Never throws.
 *
 * @example
 * validateArgs({ type: 'object', properties: { n: { type: 'integer', minimum: 1 } } }, { n: 0 })
 * // ['/n: must be >= 1']
 */
export function validateArgs(schema: unknown, value: unknown, maxErrors: number = DEFAULT_MAX_SCHEMA_ERRORS): string[] {
  const prepared = prepareSchema(schema)
  if (prepared === null) return []
  try {
    meter(prepared.schema, prepared.schema, value, 0, { steps: MAX_VALIDATION_STEPS })
    let validator = validators.get(prepared)
    if (validator === undefined) {
      validator = new Validator(prepared.schema, prepared.draft, false)
      validators.set(prepared, validator)
    }
    const result = validator.validate(value)
    return result.valid ? [] : describeErrors(result.errors, prepared.schema, value, maxErrors)
  } catch (err) {
    if (err instanceof OverBudget) return [err.message]
    if (err instanceof RangeError) return [TOO_DEEP]
    return [] // the validator could not load the schema: the tool validates
  }
}
