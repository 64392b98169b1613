import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { buildBm25, DEFAULT_BM25, idf, type WeightedTerms } from './bm25.js'
import { DEFAULT_FIELD_WEIGHTS, toolTerms } from './fields.js'
import { createToolIndex } from './tool-index.js'
import { tokenize } from './tokenize.js'
import type { ToolDescriptor } from './types.js'

/** Reference: scores every document by a full scan, straight from the BM25 formula. */
function naiveScores(docs: readonly WeightedTerms[], query: readonly string[], k1: number, b: number): number[] {
  const n = docs.length
  const tf = docs.map((d) => {
    const m = new Map<string, number>()
    for (const [t, w] of d) m.set(t, (m.get(t) ?? 0) + w)
    return m
  })
  const len = docs.map((d) => d.reduce((s, [, w]) => s + w, 0))
  const total = len.reduce((s, l) => s + l, 0)
  const avgdl = n > 0 && total > 0 ? total / n : 1
  return docs.map((_, d) => {
    let s = 0
    for (const q of query) {
      const f = tf[d]!.get(q) ?? 0
      if (f === 0) continue
      const df = tf.filter((m) => m.has(q)).length
      s += idf(n, df) * ((f * (k1 + 1)) / (f + k1 * (1 - b + (b * len[d]!) / avgdl)))
    }
    return s
  })
}

const WORDS = ['search', 'issue', 'file', 'read', 'write', 'github', 'slack', 'message', 'create', 'list', 'delete', 'weather']
const word = fc.constantFrom(...WORDS)
const text = fc.array(word, { maxLength: 8 }).map((w) => w.join(' '))
const toolArb = fc.record({
  description: text,
  nameWords: fc.array(word, { minLength: 1, maxLength: 3 }),
  params: fc.array(word, { maxLength: 3 }),
})

describe('BM25 inverted index', () => {
  it('agrees with a naive full-scan scorer (same tokenizer and field weights)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(toolArb, { minLength: 1, maxLength: 12 }),
        text,
        fc.record({ k1: fc.double({ min: 0, max: 3, noNaN: true }), b: fc.double({ min: 0, max: 1, noNaN: true }) }),
        async (raw, query, bm25) => {
          const tools: ToolDescriptor[] = raw.map((t, i) => ({
            name: `${t.nameWords.join('_')}_${i}`,
            description: t.description,
            parameters: { type: 'object', properties: Object.fromEntries(t.params.map((p) => [p, { type: 'string' }])) },
          }))
          const index = await createToolIndex(tools, { bm25 })
          const docs = tools.map((t) => toolTerms(t, DEFAULT_FIELD_WEIGHTS))
          const expected = naiveScores(docs, tokenize(query), bm25.k1, bm25.b)
            .map((score, doc) => ({ name: tools[doc]!.name, score, doc }))
            .filter((x) => x.score > 0)
            .sort((a, z) => z.score - a.score || a.doc - z.doc)
          const got = index.searchKeyword(query, tools.length)
          expect(got.map((h) => h.name)).toEqual(expected.map((x) => x.name))
          got.forEach((h, i) => expect(h.score).toBeCloseTo(expected[i]!.score, 9))
        },
      ),
      { numRuns: 200 },
    )
  })

  it('returns the best k of many in order, ties by document order', () => {
    const docs: WeightedTerms[] = Array.from({ length: 50 }, (_, i) => [['a', 1], ...(i % 3 === 0 ? ([['b', 1]] as const) : [])])
    const idx = buildBm25(docs, DEFAULT_BM25)
    const all = idx.score(['a', 'b'], 50)
    const top = idx.score(['a', 'b'], 7)
    expect(top).toEqual(all.slice(0, 7))
    expect(top.map((h) => h.doc)).toEqual([0, 3, 6, 9, 12, 15, 18])
  })

  it('returns nothing for unknown terms or k = 0', () => {
    const idx = buildBm25([[['a', 1]]], DEFAULT_BM25)
    expect(idx.score(['zzz'], 5)).toEqual([])
    expect(idx.score(['a'], 0)).toEqual([])
    expect(idx.score(['a'], 5)).toHaveLength(1)
    expect(idx.score(['a'], 5)).toHaveLength(1) // scratch state is reset between queries
  })

  it('weights a name match above the same word in the description', async () => {
    const index = await createToolIndex([
      { name: 'list_files', description: 'Shows the weather forecast.' },
      { name: 'weather_forecast', description: 'Lists files in a folder.' },
    ])
    expect(index.searchKeyword('weather', 2).map((h) => h.name)).toEqual(['weather_forecast', 'list_files'])
  })
})
