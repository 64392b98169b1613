import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MAX_ARGUMENT_CHARS, MAX_VALIDATION_STEPS, argumentsTooLarge, validateArgs } from './validate.js'

const SCHEMA = {
  type: 'object',
  properties: {
    repo: { type: 'string', minLength: 3 },
    count: { type: 'integer', minimum: 1, maximum: 100 },
    state: { type: 'string', enum: ['open', 'closed'] },
    labels: { type: 'array', items: { type: 'string' }, maxItems: 2 },
    ratio: { type: 'number', exclusiveMaximum: 1 },
    meta: { type: 'object', properties: { draft: { type: 'boolean' } }, additionalProperties: false },
  },
  required: ['repo'],
  additionalProperties: false,
}

describe('validateArgs', () => {
  it('accepts valid arguments', () => {
    expect(validateArgs(SCHEMA, { repo: 'a/b', count: 5, state: 'open', labels: ['x'], ratio: 0.5, meta: { draft: true } })).toEqual([])
  })

  it.each([
    [{}, '/repo: is required'],
    [{ repo: 'ab' }, '/repo: must have at least 3 characters'],
    [{ repo: 'a/b', count: 1.5 }, '/count: expected integer, got number'],
    [{ repo: 'a/b', count: 0 }, '/count: must be >= 1'],
    [{ repo: 'a/b', count: 101 }, '/count: must be <= 100'],
    [{ repo: 'a/b', state: 'merged' }, '/state: must be one of "open", "closed"'],
    [{ repo: 'a/b', labels: ['x', 2] }, '/labels/1: expected string, got integer'],
    [{ repo: 'a/b', labels: ['x', 'y', 'z'] }, '/labels: must have at most 2 items'],
    [{ repo: 'a/b', ratio: 1 }, '/ratio: must be < 1'],
    [{ repo: 'a/b', meta: { draft: true, extra: 1 } }, '/meta/extra: is not allowed (allowed: draft)'],
    [{ repo: 'a/b', owner: 'me' }, '/owner: is not allowed'],
    ['a/b', '(arguments): expected object, got string'],
  ])('rejects %j', (value, message) => {
    expect(validateArgs(SCHEMA, value).join('\n')).toContain(message)
  })

  it('handles type lists, const, anyOf, oneOf and allOf', () => {
    expect(validateArgs({ type: ['string', 'null'] }, null)).toEqual([])
    expect(validateArgs({ type: ['string', 'null'] }, 1)).toHaveLength(1)
    expect(validateArgs({ const: 'x' }, 'y')).toEqual(['(arguments): must be "x"'])
    const anyOf = { anyOf: [{ type: 'string' }, { type: 'integer' }] }
    expect(validateArgs(anyOf, 3)).toEqual([])
    expect(validateArgs(anyOf, true)).toHaveLength(1)
    const oneOf = { oneOf: [{ type: 'number' }, { type: 'integer' }] }
    expect(validateArgs(oneOf, 1)).toHaveLength(1) // matches both
    expect(validateArgs(oneOf, 1.5)).toEqual([])
    expect(validateArgs({ allOf: [{ minimum: 2 }, { maximum: 3 }] }, 4)).toEqual(['(arguments): must be <= 3'])
  })

  it('additionalProperties as a schema', () => {
    expect(validateArgs({ type: 'object', additionalProperties: { type: 'number' } }, { a: 1, b: 'x' })).toEqual(['/b: expected number, got string'])
  })

  it('checks pattern, format and $ref (with the rule in the message)', () => {
    expect(validateArgs({ type: 'string', pattern: '^a', format: 'email' }, 'zzz')).toEqual(['(arguments): must match the pattern ^a', '(arguments): must be a valid email (JSON Schema format "email")'])
    expect(validateArgs({ type: 'string', pattern: '^a', format: 'email' }, 'a@example.com')).toEqual([])
    const refs = { type: 'object', properties: { when: { $ref: '#/$defs/day' }, tags: { type: 'array', items: { $ref: '#/$defs/tag' } } }, $defs: { day: { type: 'string', format: 'date' }, tag: { type: 'string', pattern: '^[a-z]+$' } } }
    expect(validateArgs(refs, { when: '2026-11-23', tags: ['ok'] })).toEqual([])
    expect(validateArgs(refs, { when: '23/11/2026', tags: ['ok', 'Not OK'] })).toEqual(['/when: must be a valid date (JSON Schema format "date")', '/tags/1: must match the pattern ^[a-z]+$'])
    // A pattern only applies inside its alternative: no error when another alternative matches.
    expect(validateArgs({ anyOf: [{ type: 'string', pattern: '^a' }, { type: 'string', pattern: '^b' }] }, 'b1')).toEqual([])
    // Recursive schemas through $ref.
    const tree = { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#' } } }, required: ['name'] }
    expect(validateArgs(tree, { name: 'a', children: [{ name: 'b', children: [{ children: [] }] }] })).toEqual(['/children/0/children/0/name: is required'])
  })

  it('runs model-written strings through schema patterns and formats in bounded time', () => {
    // V8 would backtrack for ever on these; RE2 refuses nested repeats (left to the tool) and the
    // `url` format (exponential in the validator's own regex) is checked as `uri`.
    const hostile = 'a'.repeat(50_000) + '!'
    expect(validateArgs({ type: 'string', pattern: '^(a+)+$' }, hostile)).toEqual([])
    expect(validateArgs({ type: 'string', pattern: '^(a|a)*$' }, hostile)).toEqual(['(arguments): must match the pattern ^(a|a)*$'])
    expect(validateArgs({ type: 'string', format: 'url' }, `http://${'a'.repeat(40)}!`)).toEqual([])
    expect(validateArgs({ type: 'string', format: 'url' }, 'no scheme here')).toEqual(['(arguments): must be a valid url (JSON Schema format "url")'])
    expect(validateArgs({ type: 'string', format: 'uri' }, `https://${hostile}`)).toEqual([]) // over MAX_FORMAT_CHARS: left to the tool
  })

  it('does not write into the schema it is given', () => {
    const schema = { type: 'object', properties: { a: { $ref: '#/$defs/a' }, b: { type: 'string', pattern: 'x', format: 'email' } }, $defs: { a: { type: 'integer' } } }
    const before = JSON.stringify(schema)
    validateArgs(schema, { a: 'x', b: 'y' })
    expect(JSON.stringify(schema)).toBe(before)
  })

  it('caps the number of errors', () => {
    const schema = { type: 'object', required: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] }
    expect(validateArgs(schema, {})).toHaveLength(5)
    expect(validateArgs(schema, {}, 2)).toHaveLength(2)
  })

  it('never throws and ends on cyclic schemas', () => {
    const cyclic: Record<string, unknown> = { type: 'object' }
    cyclic['properties'] = { self: cyclic }
    cyclic['anyOf'] = [cyclic, cyclic]
    let value: Record<string, unknown> = {}
    for (let i = 0; i < 50; i++) value = { self: value }
    expect(() => validateArgs(cyclic, value)).not.toThrow()
    fc.assert(fc.property(fc.jsonValue(), fc.jsonValue(), (schema, v) => Array.isArray(validateArgs(schema, v))), { numRuns: 300 })
  })

  it('checks required names as own properties, not inherited ones', () => {
    expect(validateArgs({ type: 'object', required: ['constructor', 'toString'] }, {})).toEqual(['/constructor: is required', '/toString: is required'])
    expect(validateArgs({ type: 'object', required: ['constructor'] }, { constructor: 1 })).toEqual([])
  })

  it('fails closed when the step budget runs out: a long array cannot hide a bad element', () => {
    const schema = { type: 'object', properties: { ids: { type: 'array', items: { type: 'integer' } } }, additionalProperties: false }
    // The reviewer's repro: 20,001 valid items, then a string. Within the budget it is checked in full.
    const ids: unknown[] = [...Array.from({ length: 20_001 }, () => 1), '1; DROP TABLE users']
    expect(validateArgs(schema, { ids })).toEqual(['/ids/20001: expected integer, got string'])
    // Past the budget nothing is accepted unchecked, valid or not.
    const huge = Array.from({ length: MAX_VALIDATION_STEPS + 1 }, () => 1)
    expect(validateArgs(schema, { ids: huge })).toEqual([expect.stringMatching(/^\(arguments\): too large to validate/)])
    expect(validateArgs(schema, { ids: [...huge, 'x'] })).toEqual([expect.stringMatching(/too large to validate/)])
    // Nested alternatives that would explode are refused the same way, not accepted.
    let deep: Record<string, unknown> = { type: 'integer' }
    for (let i = 0; i < 20; i++) deep = { anyOf: [{ type: 'string' }, deep, deep] }
    expect(validateArgs(deep, 1.5)).toEqual([expect.stringMatching(/^\(arguments\): too large to validate/)])
    expect(validateArgs({ anyOf: [{ type: 'string' }, { type: 'integer' }] }, 1.5)).toEqual(['(arguments): matches none of the allowed shapes (anyOf)'])
  })

  it('caps the size of the arguments, in JSON chars', () => {
    expect(MAX_ARGUMENT_CHARS).toBe(1_000_000)
    expect(argumentsTooLarge({ a: 'x'.repeat(100) })).toBeUndefined()
    expect(argumentsTooLarge({ a: 'x'.repeat(MAX_ARGUMENT_CHARS) })).toMatch(/too large to validate \(1000008 chars of JSON; the limit is 1000000\)/)
    expect(argumentsTooLarge('x'.repeat(MAX_ARGUMENT_CHARS + 1))).toMatch(/too large/)
    const cyclic: Record<string, unknown> = {}
    cyclic['self'] = cyclic
    expect(argumentsTooLarge(cyclic)).toMatch(/not plain JSON/)
  })
})
