import { format as FORMATS, type Schema, type SchemaDraft } from '@cfworker/json-schema'
import { compileMatcher } from '../spill/regex.js'

/**
 * Longest string a `format` is checked on, in chars: some of the validator's format regexes are
 * super-linear (`uri` ~55 ms at 5,000 chars; `url` backtracks exponentially, so it is checked as
 * `uri`). Longer strings are left to the tool. @default 2048
 */
export const MAX_FORMAT_CHARS = 2048

/** Longest schema `pattern` run (on RE2), in chars. Longer ones are left to the tool. */
const MAX_PATTERN_CHARS = 1000
/** Schema nodes cloned per schema at most; a bigger (or cyclic) schema is not checked here. */
const MAX_SCHEMA_NODES = 50_000
const MAX_SCHEMA_DEPTH = 256
/** Distinct patterns registered as formats at most (they live as long as the process). */
const MAX_REGISTERED = 10_000

/** A tool schema made safe for `@cfworker/json-schema`. */
export interface PreparedSchema {
  schema: Schema
  draft: SchemaDraft
}

const PREFIX = 'spillway:'
/** Schema keywords holding JSON values, not schemas: copied as they are. */
const VALUE_KEYWORDS = new Set(['enum', 'const', 'default', 'examples'])
const cache = new WeakMap<object, PreparedSchema | null>()
let registered = 0

/** The display name of a rewritten `format` (`spillway:re2:^a` -> pattern `^a`). */
export function describeFormat(name: string): { pattern: string } | { format: string } {
  if (name.startsWith(`${PREFIX}re2:`)) return { pattern: name.slice(PREFIX.length + 4) }
  return { format: name.startsWith(PREFIX) ? name.slice(PREFIX.length) : name }
}

/**
 * Registers a format with the validator under a `spillway:` name (the validator's own table is
 * its only extension point; the prefix keeps ours apart from every real format).
 */
function register(name: string, test: (s: string) => boolean): string | undefined {
  const key = PREFIX + name
  if (Object.hasOwn(FORMATS, key)) return key
  if (registered >= MAX_REGISTERED) return undefined
  registered++
  FORMATS[key] = test
  return key
}

/** `pattern` on RE2 (linear time): the validator would run it with V8's backtracking `RegExp`. */
function patternFormat(pattern: string): string | undefined {
  const m = compileMatcher(pattern, { maxChars: MAX_PATTERN_CHARS, literal: false })
  return m.kind === 'refused' ? undefined : register(`re2:${pattern}`, (s) => m.test(s))
}

/** A format checked only up to {@link MAX_FORMAT_CHARS}; `url` as `uri`; unknown ones are skipped, as the spec allows. */
function cappedFormat(name: string): string | undefined {
  const test = FORMATS[name === 'url' ? 'uri' : name]
  if (test === undefined || name.startsWith(PREFIX)) return undefined
  return register(name, (s) => s.length > MAX_FORMAT_CHARS || test(s))
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

function draftOf(schema: unknown): SchemaDraft {
  const id = isRecord(schema) && typeof schema['$schema'] === 'string' ? schema['$schema'] : ''
  if (id.includes('draft-04')) return '4'
  if (id.includes('draft-06') || id.includes('draft-07')) return '7'
  if (id.includes('2019-09')) return '2019-09'
  return '2020-12' // the MCP default, and what zod and pydantic emit
}

/**
 * A copy of `schema` the validator can run without blocking: `pattern` becomes a format run on
 * RE2 (refused patterns, like nested repeats, are dropped: the tool still validates), `format`
 * a length-capped one, `patternProperties` whose keys RE2 screening refuses are dropped with
 * their node's `additionalProperties`. A copy also because the validator writes bookkeeping
 * fields into the schema it is given, and the tool's schema is shown to the model. Cached per
 * schema object. `null` when the schema is not plain JSON or is too big (then nothing is checked
 * here). Never throws.
 */
export function prepareSchema(schema: unknown): PreparedSchema | null {
  if (typeof schema === 'boolean') return { schema: schema as unknown as Schema, draft: '2020-12' }
  if (!isRecord(schema)) return null
  const hit = cache.get(schema)
  if (hit !== undefined) return hit
  let nodes = 0
  // Shared subschemas stay shared (a DAG is not expanded into a tree; the validation meter counts the work).
  const copies = [new Map<object, unknown>(), new Map<object, unknown>()] as const
  const copy = (v: unknown, depth: number, asValue: boolean): unknown => {
    if (v === null || typeof v !== 'object') return v
    const seen = copies[asValue ? 1 : 0].get(v)
    if (seen !== undefined) return seen
    if (++nodes > MAX_SCHEMA_NODES || depth > MAX_SCHEMA_DEPTH) throw new RangeError('schema too large')
    if (Array.isArray(v)) {
      const arr: unknown[] = []
      copies[asValue ? 1 : 0].set(v, arr)
      for (const x of v) arr.push(copy(x, depth + 1, asValue))
      return arr
    }
    if (!isRecord(v)) return v
    const out: Record<string, unknown> = {}
    copies[asValue ? 1 : 0].set(v, out)
    for (const [k, x] of Object.entries(v)) out[k] = copy(x, depth + 1, asValue || VALUE_KEYWORDS.has(k))
    if (asValue) return out
    const extra: Record<string, unknown>[] = []
    if (typeof out['pattern'] === 'string') {
      const key = patternFormat(out['pattern'])
      if (key !== undefined) extra.push({ format: key })
      delete out['pattern']
    }
    if (typeof out['format'] === 'string') {
      const key = cappedFormat(out['format'])
      if (key === undefined) delete out['format']
      else out['format'] = key
    }
    if (isRecord(out['patternProperties']) && Object.keys(out['patternProperties']).some((p) => compileMatcher(p, { maxChars: MAX_PATTERN_CHARS, literal: false }).kind === 'refused')) {
      delete out['patternProperties']
      delete out['additionalProperties']
    }
    if (extra.length > 0) out['allOf'] = [...(Array.isArray(out['allOf']) ? out['allOf'] : []), ...extra]
    return out
  }
  let prepared: PreparedSchema | null
  try {
    prepared = { schema: copy(schema, 0, false) as Schema, draft: draftOf(schema) }
  } catch {
    prepared = null // too big, or a hostile object (getters, proxies)
  }
  cache.set(schema, prepared)
  return prepared
}
