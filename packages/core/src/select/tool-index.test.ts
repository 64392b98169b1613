import { describe, expect, it } from 'vitest'
import { SpillwayError } from '../errors.js'
import { reciprocalRankFusion } from './rrf.js'
import { createToolIndex } from './tool-index.js'
import { hash64 } from './checksum.js'
import { splitWords } from './tokenize.js'
import type { Embedder, ToolDescriptor } from './types.js'

const DIMS = 64
// Synonyms share a concept, so the fake embedder "understands" intent that keywords miss.
const CONCEPTS: Record<string, string> = { running: 'process', processes: 'process', process: 'process', programs: 'process', ps: 'process', forecast: 'weather', rain: 'weather', weather: 'weather', chat: 'message', message: 'message', post: 'message' }

/** Deterministic hashed bag-of-concepts vectors; counts its calls. */
function fakeEmbedder(): Embedder & { calls: string[][] } {
  const calls: string[][] = []
  const fn = async (texts: string[]): Promise<number[][]> => {
    calls.push(texts)
    return texts.map((t) => {
      const v = new Array<number>(DIMS).fill(0)
      for (const w of splitWords(t)) v[parseInt(hash64(CONCEPTS[w] ?? w).slice(0, 8), 16) % DIMS]! += 1
      return v
    })
  }
  return Object.assign(fn, { calls })
}

const TOOLS: ToolDescriptor[] = [
  { name: 'browser_navigate', description: 'Open a URL in the browser.', parameters: { type: 'object', properties: { url: { type: 'string' } } } },
  { name: 'list_processes', description: 'Show programs currently running on the machine (ps).' },
  { name: 'get_forecast', description: 'Weather forecast for a city.', parameters: { type: 'object', properties: { city: { type: 'string', description: 'City name' } } } },
  { name: 'slack_post', description: 'Post a chat message to a Slack channel.' },
  { name: 'read_file', description: 'Read a text file from disk.' },
]

describe('createToolIndex', () => {
  it('searches by keyword without an embedder, whatever mode is asked', async () => {
    const index = await createToolIndex(TOOLS)
    expect(index.size).toBe(5)
    expect(index.names).toEqual(TOOLS.map((t) => t.name))
    expect(index.has('read_file')).toBe(true)
    expect(index.exportVectors()).toBeUndefined()
    const kw = index.searchKeyword('navigate the browser to a url', 3)
    expect(kw[0]!.name).toBe('browser_navigate')
    expect(await index.search('navigate the browser to a url', { k: 3, mode: 'hybrid' })).toEqual(kw)
    expect(await index.search('city weather', { k: 1 })).toEqual([{ name: 'get_forecast', score: expect.any(Number) }])
  })

  it('hybrid fuses the keyword and semantic ranks with RRF (k = 60), end to end', async () => {
    const embedder = fakeEmbedder()
    const index = await createToolIndex(TOOLS, { embedder })
    const query = 'which processes are running'
    const keyword = await index.search(query, { k: 5, mode: 'keyword' })
    const semantic = await index.search(query, { k: 5, mode: 'semantic' })
    const hybrid = await index.search(query, { k: 5, mode: 'hybrid' })
    const expected = reciprocalRankFusion([keyword.map((h) => h.name), semantic.map((h) => h.name)], 60)
    expect(hybrid.map((h) => h.name)).toEqual(expected.map((f) => f.item))
    hybrid.forEach((h, i) => expect(h.score).toBeCloseTo(expected[i]!.score, 12))
    expect(hybrid[0]).toMatchObject({ name: 'list_processes', ranks: { semantic: 1 } })
    expect(semantic[0]!.name).toBe('list_processes')
    // The default mode with an embedder is hybrid.
    expect(await index.search(query, { k: 5 })).toEqual(hybrid)
  })

  it('hybrid keeps exact name mentions and fuzzy intent both near the top', async () => {
    const index = await createToolIndex(TOOLS, { embedder: fakeEmbedder() })
    expect((await index.search('use browser_navigate', { k: 1 }))[0]!.name).toBe('browser_navigate')
    expect((await index.search('will it rain tomorrow', { k: 1 }))[0]!.name).toBe('get_forecast')
    expect(index.searchKeyword('will it rain tomorrow', 1)).toEqual([]) // keywords alone miss it
  })

  it('reuses persisted vectors and re-embeds only the tools that changed', async () => {
    const first = fakeEmbedder()
    const a = await createToolIndex(TOOLS, { embedder: first })
    expect(first.calls.flat()).toHaveLength(5)
    const saved = JSON.parse(JSON.stringify(a.exportVectors()))
    expect(saved).toMatchObject({ version: 1, embedderId: 'default', dims: DIMS })

    const second = fakeEmbedder()
    const b = await createToolIndex(TOOLS, { embedder: second, vectors: saved })
    expect(second.calls).toEqual([])
    expect(b.checksum).toBe(a.checksum)
    expect(await b.search('post a message', { k: 5, mode: 'semantic' })).toEqual(await a.search('post a message', { k: 5, mode: 'semantic' }))

    const changed = TOOLS.map((t) => (t.name === 'slack_post' ? { ...t, description: 'Send a message to Slack.' } : t))
    const third = fakeEmbedder()
    const c = await createToolIndex([...changed, { name: 'new_tool', description: 'Brand new.' }], { embedder: third, vectors: saved })
    expect(third.calls.flat()).toEqual([expect.stringContaining('Send a message to Slack.'), expect.stringContaining('Brand new.')])
    expect(c.checksum).not.toBe(a.checksum)

    const other = fakeEmbedder()
    await createToolIndex(TOOLS, { embedder: other, vectors: saved, embedderId: 'another-model' })
    expect(other.calls.flat()).toHaveLength(5) // vectors of another model are not reused
  })

  it('has a checksum that follows names, descriptions, schemas and order', async () => {
    const base = (await createToolIndex(TOOLS)).checksum
    expect((await createToolIndex(TOOLS.map((t) => ({ ...t })))).checksum).toBe(base)
    expect((await createToolIndex([...TOOLS].reverse())).checksum).not.toBe(base)
    const schemaChanged = TOOLS.map((t, i) => (i === 0 ? { ...t, parameters: { type: 'object', properties: { href: { type: 'string' } } } } : t))
    expect((await createToolIndex(schemaChanged)).checksum).not.toBe(base)
  })

  it('indexes extra text only when asked', async () => {
    const tools = [
      { name: 'alpha', description: 'First tool.', category: 'astronomy' },
      { name: 'beta', description: 'Second tool.' },
    ]
    expect((await createToolIndex(tools)).searchKeyword('astronomy')).toEqual([])
    const index = await createToolIndex(tools, { extraText: (t) => (t as { category?: string }).category })
    expect(index.searchKeyword('astronomy').map((h) => h.name)).toEqual(['alpha'])
  })

  it('falls back to keyword ranks when the embedder fails at query time', async () => {
    let fail = false
    const embedder: Embedder = async (texts) => {
      if (fail) throw new Error('offline')
      return fakeEmbedder()(texts)
    }
    const index = await createToolIndex(TOOLS, { embedder })
    fail = true
    expect(await index.search('read a file', { k: 2, mode: 'hybrid' })).toEqual(index.searchKeyword('read a file', 2))
  })

  it('answers a non-string query or odd k with no hits instead of throwing', async () => {
    const index = await createToolIndex(TOOLS, { embedder: fakeEmbedder() })
    expect(index.searchKeyword(undefined as unknown as string)).toEqual([])
    expect(await index.search(undefined as unknown as string)).toEqual([])
    expect(index.searchKeyword('file', -3)).toEqual([])
    expect(index.searchKeyword('file', Infinity).map((h) => h.name)).toEqual(['read_file'])
  })

  it('refuses duplicate names and broken embedders at build time', async () => {
    await expect(createToolIndex([TOOLS[0]!, TOOLS[0]!])).rejects.toSatisfy((e: unknown) => SpillwayError.is(e) && e.code === 'invalid_argument')
    await expect(createToolIndex(TOOLS, { embedder: async () => [[1, 2]] })).rejects.toSatisfy(SpillwayError.is)
    await expect(createToolIndex(TOOLS, { embedder: async (t) => t.map((_, i) => (i === 0 ? [1, 2] : [1, 2, 3])) })).rejects.toSatisfy(SpillwayError.is)
  })
})
