import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { termFeeder } from './feed.js'
import { eachParameterText, parameterStrings } from './fields.js'
import type { PostingsBuilder } from './postings.js'
import { tokenize } from './tokenize.js'

/** A builder that records every term added, in order, with its weight. */
function recorder(): { builder: PostingsBuilder; added: Array<[string, number]> } {
  const terms: string[] = []
  const ids = new Map<string, number>()
  const added: Array<[string, number]> = []
  const builder: PostingsBuilder = {
    intern(term) {
      let id = ids.get(term)
      if (id === undefined) ids.set(term, (id = terms.push(term) - 1))
      return id
    },
    add: (id, weight) => void added.push([terms[id]!, weight]),
    endDoc: () => undefined,
    finish: () => {
      throw new Error('not used')
    },
  }
  return { builder, added }
}

// ASCII identifiers and prose with every splitting rule close together, plus arbitrary strings
// (non-ASCII letters, marks, lone and paired surrogates).
const asciiPiece = fc.constantFrom('get', 'Get', 'HTTP', 'HTTPResponse', 'userId', 'v2', 'API', 'IDs', 'x', 'aB', 'ABc', '42', 'the', 'searching', '_', '-', ' ', '.', '\n', '/')
const text = fc.oneof(
  fc.array(asciiPiece, { maxLength: 12 }).map((p) => p.join('')),
  fc.string({ unit: fc.constantFrom(...'aZbYz09_- .:AB\tcD1x'.split('')), maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.array(fc.oneof(asciiPiece, fc.string({ unit: 'binary', maxLength: 3 })), { maxLength: 10 }).map((p) => p.join('')),
)

describe('termFeeder', () => {
  it('property: feeds exactly tokenize(text), in order, each occurrence with its weight (one feeder across many texts)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(text, fc.constantFrom(3, 1, 0.5)), { maxLength: 20 }), (texts) => {
        const { builder, added } = recorder()
        const feed = termFeeder(builder)
        const expected: Array<[string, number]> = []
        for (const [t, w] of texts) {
          feed(t, w)
          for (const term of tokenize(t)) expected.push([term, w])
        }
        expect(added).toEqual(expected)
      }),
      { numRuns: 1000 },
    )
  })

  it('keeps 40,000 distinct words apart, fed twice, across case', () => {
    const { builder, added } = recorder()
    const feed = termFeeder(builder)
    const word = (n: number): string => {
      let w = ''
      for (let k = n + 26 * 26; k > 0; k = Math.floor(k / 26)) w += String.fromCharCode(97 + (k % 26))
      return w
    }
    const texts = Array.from({ length: 40_000 }, (_, n) => (n % 3 === 0 ? word(n).toUpperCase() : n % 3 === 1 ? `${word(n)}Zz` : word(n)))
    const expected: string[] = []
    for (const t of [...texts, ...texts]) {
      feed(t, 1)
      expected.push(...tokenize(t))
    }
    expect(added.map(([term]) => term)).toEqual(expected)
  })
})

/** The walk `eachParameterText` replaced: `for...in` with an own-property check, into an array. */
function referenceParameterStrings(schema: unknown): string[] {
  const out: string[] = []
  const walk = (s: unknown, depth: number): void => {
    if (depth > 4 || s === null || typeof s !== 'object') return
    const node = s as Record<string, unknown>
    const props = node['properties']
    if (props !== null && typeof props === 'object' && !Array.isArray(props)) {
      for (const key in props) {
        if (!Object.prototype.hasOwnProperty.call(props, key)) continue
        out.push(key)
        const sub = (props as Record<string, unknown>)[key]
        if (sub !== null && typeof sub === 'object') {
          const d = (sub as Record<string, unknown>)['description']
          if (typeof d === 'string') out.push(d)
          walk(sub, depth + 1)
        }
      }
    }
    if (node['items'] !== undefined) walk(node['items'], depth + 1)
  }
  walk(schema, 0)
  return out
}

describe('eachParameterText', () => {
  const schema = fc.letrec((tie) => ({
    schema: fc.record(
      {
        properties: fc.oneof(fc.dictionary(fc.string({ maxLength: 6 }), tie('schema'), { maxKeys: 4 }), fc.constant(null), fc.array(fc.integer(), { maxLength: 2 })),
        items: fc.oneof(tie('schema'), fc.constant(undefined)),
        description: fc.oneof(fc.string({ maxLength: 8 }), fc.integer()),
      },
      { requiredKeys: [] },
    ),
  })).schema
  it('property: visits what the for...in walk listed, in the same order', () => {
    fc.assert(
      fc.property(fc.oneof(schema, fc.anything()), (s) => {
        const seen: string[] = []
        eachParameterText(s, (t) => seen.push(t))
        expect(seen).toEqual(referenceParameterStrings(s))
        expect(parameterStrings(s)).toEqual(seen)
      }),
      { numRuns: 500 },
    )
  })
  it('skips inherited properties, as the own-property check did', () => {
    const props = Object.create({ inherited: { description: 'no' } }) as Record<string, unknown>
    props['own'] = { description: 'yes' }
    expect(parameterStrings({ properties: props })).toEqual(['own', 'yes'])
  })
})
