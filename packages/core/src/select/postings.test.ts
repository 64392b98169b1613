import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bm25FromPostings, buildBm25 } from './bm25.js'
import { DEFAULT_FIELD_WEIGHTS, parameterStrings, toolTerms } from './fields.js'
import { termFeeder } from './feed.js'
import { postingsBuilder } from './postings.js'
import type { ToolDescriptor } from './types.js'

// Text that exercises every tokenizer rule: camelCase and acronyms, digits, ASCII separators,
// stop words, non-ASCII letters (cased and not), marks and emoji (a surrogate pair).
const piece = fc.constantFrom(
  'get', 'Get', 'HTTP', 'Response', 'userId', 'v2', 'API', 'searching', 'the', 'a', 'é', 'Ünïcode', 'straße', '漢字',
  'caféAu', '2fa', 'x', '_', '-', '.', ':', ' ', '\n', '/', '😀', '–', "'", 'ÀBc', 'iPhone', 'IDs', 'ID', '42',
)
const text = fc.array(piece, { maxLength: 12 }).map((p) => p.join(''))
const tool = fc.record({
  name: text,
  description: text,
  params: fc.array(fc.tuple(text, text), { maxLength: 3 }),
})

describe('termFeeder + postingsBuilder (the fast index build)', () => {
  it('property: gives every term exactly the BM25 score of the reference build over toolTerms', () => {
    fc.assert(
      fc.property(fc.array(tool, { minLength: 1, maxLength: 8 }), (raw) => {
        const tools: ToolDescriptor[] = raw.map((t, i) => ({
          name: `${t.name}_${i}`,
          description: t.description,
          parameters: { type: 'object', properties: Object.fromEntries(t.params.map(([k, d], j) => [`${k}${j}`, { type: 'string', description: d }])) },
        }))
        const reference = buildBm25(tools.map((t) => toolTerms(t, DEFAULT_FIELD_WEIGHTS)))
        const builder = postingsBuilder()
        const feed = termFeeder(builder)
        for (const t of tools) {
          feed(t.name, DEFAULT_FIELD_WEIGHTS.name)
          feed(t.description, DEFAULT_FIELD_WEIGHTS.description)
          for (const s of parameterStrings(t.parameters)) feed(s, DEFAULT_FIELD_WEIGHTS.parameters)
          builder.endDoc()
        }
        const fast = bm25FromPostings(builder.finish())
        const vocabulary = new Set(tools.flatMap((t) => toolTerms(t, DEFAULT_FIELD_WEIGHTS).map(([term]) => term)))
        for (const term of vocabulary) expect(fast.score([term], tools.length)).toEqual(reference.score([term], tools.length))
        const all = [...vocabulary]
        expect(fast.score(all, tools.length)).toEqual(reference.score(all, tools.length))
      }),
      { numRuns: 300 },
    )
  })

  it('ignores non-string text and non-positive weights, as toolTerms does', () => {
    const builder = postingsBuilder()
    const feed = termFeeder(builder)
    feed(undefined, 1)
    feed(42, 1)
    feed('search files', 0)
    feed('search files', Number.NaN)
    feed('search files', 1)
    builder.endDoc()
    const p = builder.finish()
    expect([...p.termIds.keys()]).toEqual(['search', 'file'])
    expect([...p.lengths]).toEqual([2])
  })

  it('keeps postings of many documents and terms in document order (arrays grow past their first size)', () => {
    const builder = postingsBuilder()
    const docs = 3000
    for (let d = 0; d < docs; d++) {
      builder.add(builder.intern(`t${d % 1500}`), 1)
      builder.add(builder.intern('common'), 0.5)
      builder.endDoc()
    }
    const p = builder.finish()
    const common = p.termIds.get('common')!
    const ids = [...p.docIds.subarray(p.offsets[common], p.offsets[common + 1])]
    expect(ids).toEqual(Array.from({ length: docs }, (_, d) => d))
    const t7 = p.termIds.get('t7')!
    expect([...p.docIds.subarray(p.offsets[t7], p.offsets[t7 + 1])]).toEqual([7, 1507])
  })
})
