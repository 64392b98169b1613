import type { OutputUnit } from '@cfworker/json-schema'
import { describeFormat } from './schema-prep.js'

type Json = Record<string, unknown>
const isRecord = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v)

/** JSON type of a value, `integer` for whole numbers (as JSON Schema names them). */
export const typeOf = (v: unknown): string => {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'array'
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number'
  return typeof v
}

const show = (v: unknown): string => {
  const s = JSON.stringify(v) ?? String(v)
  return s.length > 40 ? `${s.slice(0, 37)}...` : s
}

/** Segments of a validator location (`#/a/b~1c` -> `['a', 'b/c']`). */
function segments(location: string): string[] {
  const body = location.replace(/^#/, '')
  if (body === '') return []
  return body
    .slice(1)
    .split('/')
    .map((s) => {
      let d = s
      try {
        d = decodeURI(s)
      } catch {
        // keep the raw segment
      }
      return d.replace(/~1/g, '/').replace(/~0/g, '~')
    })
}

/** Follows a local `$ref` (`#`, `#/$defs/x`) inside `root`; `undefined` for any other reference. */
export function resolveRef(root: unknown, ref: unknown): unknown {
  if (typeof ref !== 'string' || !ref.startsWith('#')) return undefined
  return at(root, segments(ref))
}

function at(root: unknown, path: string[]): unknown {
  let node = root
  for (const seg of path) {
    if (seg === '$ref' && isRecord(node) && typeof node['$ref'] === 'string') node = resolveRef(root, node['$ref'])
    else if (Array.isArray(node)) node = node[Number(seg)]
    else if (isRecord(node)) node = node[seg]
    else return undefined
  }
  return node
}

/** Keywords whose failure only says a nested value failed; the nested failure is reported instead. */
const CONTAINERS = new Set(['properties', 'patternProperties', 'items', 'prefixItems', 'additionalItems', 'unevaluatedItems', 'contains', '$ref', '$recursiveRef', 'allOf', 'dependentSchemas', 'dependencies', 'if', 'then', 'else', 'false', 'propertyNames'])
/** Inside an alternative, a failure is expected; the alternative keyword itself is reported. */
const ALTERNATIVES = new Set(['anyOf', 'oneOf', 'not'])
/** Keywords whose children are names, not keywords (a property may be called `not`). */
const NAMING = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'])

/** One model-actionable sentence per failing keyword (`/count: must be >= 1`), or none for a container. */
function sentences(unit: OutputUnit, schema: unknown, value: unknown): string[] {
  const path = segments(unit.instanceLocation)
  const where = path.length === 0 ? '(arguments)' : `/${path.join('/')}`
  const keywordPath = segments(unit.keywordLocation)
  const inAlternative = keywordPath.slice(0, -1).some((s, i) => ALTERNATIVES.has(s) && !NAMING.has(keywordPath[i - 1] ?? ''))
  if (inAlternative) return []
  const rule = at(schema, keywordPath)
  const parent = at(schema, keywordPath.slice(0, -1))
  const v = at(value, path)
  const say = (msg: string): string[] => [`${where}: ${msg}`]
  switch (unit.keyword) {
    case 'type':
      return say(`expected ${(Array.isArray(rule) ? rule : [rule]).join(' or ')}, got ${typeOf(v)}`)
    case 'required':
      return Array.isArray(rule) && isRecord(v) ? rule.filter((r): r is string => typeof r === 'string' && !Object.hasOwn(v, r)).map((r) => `${path.length === 0 ? '' : where}/${r}: is required`) : say(unit.error)
    case 'enum':
      return say(`must be one of ${Array.isArray(rule) ? rule.map(show).join(', ') : show(rule)}`)
    case 'const':
      return say(`must be ${show(rule)}`)
    case 'minimum':
      return say(`must be >= ${show(rule)}`)
    case 'maximum':
      return say(`must be <= ${show(rule)}`)
    case 'exclusiveMinimum':
      return say(`must be > ${show(rule === true && isRecord(parent) ? parent['minimum'] : rule)}`)
    case 'exclusiveMaximum':
      return say(`must be < ${show(rule === true && isRecord(parent) ? parent['maximum'] : rule)}`)
    case 'multipleOf':
      return say(`must be a multiple of ${show(rule)}`)
    case 'minLength':
      return say(`must have at least ${show(rule)} characters`)
    case 'maxLength':
      return say(`must have at most ${show(rule)} characters`)
    case 'minItems':
      return say(`must have at least ${show(rule)} items`)
    case 'maxItems':
      return say(`must have at most ${show(rule)} items`)
    case 'uniqueItems':
      return say('must not contain duplicate items')
    case 'minProperties':
      return say(`must have at least ${show(rule)} properties`)
    case 'maxProperties':
      return say(`must have at most ${show(rule)} properties`)
    case 'format': {
      const f = describeFormat(typeof rule === 'string' ? rule : '')
      return say('pattern' in f ? `must match the pattern ${f.pattern}` : `must be a valid ${f.format} (JSON Schema format "${f.format}")`)
    }
    case 'anyOf':
      return say('matches none of the allowed shapes (anyOf)')
    case 'oneOf':
      return say('must match exactly one allowed shape (oneOf)')
    case 'not':
      return say('must not match the excluded shape (not)')
    case 'additionalProperties': {
      if (rule !== false) return []
      const key = /^Property "(.*)" does not match additional properties schema\.$/s.exec(unit.error)?.[1]
      const allowed = isRecord(parent) && isRecord(parent['properties']) ? Object.keys(parent['properties']).join(', ') : ''
      return key === undefined ? say(unit.error) : [`${path.length === 0 ? '' : where}/${key}: is not allowed (allowed: ${allowed || 'none'})`]
    }
    default:
      return CONTAINERS.has(unit.keyword) ? [] : say(unit.error)
  }
}

/**
 * The validator's output units as short sentences with a JSON-pointer path, deduplicated, at most
 * `max`: the failing rule is named in the schema's own terms so the model can fix the call.
 */
export function describeErrors(units: readonly OutputUnit[], schema: unknown, value: unknown, max: number): string[] {
  const out = new Set<string>()
  for (const unit of units) {
    for (const s of sentences(unit, schema, value)) {
      if (out.size >= max) return [...out]
      out.add(s)
    }
  }
  return [...out]
}
