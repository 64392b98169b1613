import { createSpillway, memoryStore } from '@spillway/core'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { MIN_PART_CHARS, rewriteToolResult, shareBudget, type HandleFn } from './result.js'

const sw = createSpillway({ store: memoryStore(), maxChars: 2_000 })
const handle: HandleFn = (tool, result, args, toolCallId) => sw.handle({ tool, result, args, sessionId: 's1', toolCallId })
const warnings: string[] = []
const rewrite = (r: CallToolResult, h: HandleFn = handle) => rewriteToolResult(r, 'read_file', {}, '1', h, (m) => void warnings.push(m))
const log = Array.from({ length: 3_000 }, (_, i) => `line ${i}`).join('\n')
const types = (r: CallToolResult) => r.content.map((b) => b.type)

describe('rewriteToolResult', () => {
  it('returns a result under budget as the same object', async () => {
    const r: CallToolResult = { content: [{ type: 'text', text: 'short' }], structuredContent: { a: 1 }, _meta: { x: 1 } }
    expect(await rewrite(r)).toBe(r)
  })

  it('replaces over-budget text by one excerpt where the first text was, keeps other blocks, adds a resource_link', async () => {
    const r = await rewrite({ content: [{ type: 'image', data: 'AA==', mimeType: 'image/png' }, { type: 'text', text: log }, { type: 'text', text: 'tail' }], isError: true })
    expect(types(r)).toEqual(['image', 'text', 'resource_link'])
    expect(r.isError).toBe(true)
    expect((r.content[1] as { text: string }).text.length).toBeLessThanOrEqual(2_000)
    expect(r.content[2]).toMatchObject({ uri: expect.stringMatching(/^spillway:\/\/result\/[0-9a-f]{12}$/), mimeType: 'text/plain', size: log.length + 1 + 4 })
  })

  it('sends structured content once when the text is its serialisation', async () => {
    const data = { items: Array.from({ length: 500 }, (_, i) => ({ i, name: `item ${i}` })) }
    const r = await rewrite({ content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data })
    expect(r.structuredContent).toBeUndefined()
    expect(types(r)).toEqual(['text', 'resource_link'])
    expect(r.content[1]).toMatchObject({ mimeType: 'application/json' })
  })

  it('excerpts structured content with no text, and only links it beside excerpted text', async () => {
    const data = { rows: Array.from({ length: 500 }, (_, i) => ({ i })) }
    const alone = await rewrite({ content: [], structuredContent: data })
    expect(types(alone)).toEqual(['text', 'resource_link'])
    const beside = await rewrite({ content: [{ type: 'text', text: log }], structuredContent: { wrapped: log } })
    expect(types(beside)).toEqual(['text', 'resource_link', 'resource_link'])
    expect(beside.structuredContent).toBeUndefined()
    const smallText = await rewrite({ content: [{ type: 'text', text: 'summary' }], structuredContent: data })
    expect(types(smallText)).toEqual(['text', 'text', 'resource_link'])
  })

  it('excerpts an over-budget embedded text resource in place (uri, mimeType kept) with a link after it; small and blob resources pass', async () => {
    const small: CallToolResult = { content: [{ type: 'resource', resource: { uri: 'file:///a.txt', text: 'tiny' } }, { type: 'resource', resource: { uri: 'file:///b.bin', blob: 'AAAA' } }] }
    expect(await rewrite(small)).toBe(small)
    const blob = { type: 'resource' as const, resource: { uri: 'file:///b.bin', mimeType: 'application/octet-stream', blob: Buffer.alloc(9_000).toString('base64') } }
    const r = await rewrite({ content: [{ type: 'text', text: 'ok' }, { type: 'resource', resource: { uri: 'file:///big.log', mimeType: 'text/x-log', text: log } }, blob] })
    expect(types(r)).toEqual(['text', 'resource', 'resource_link', 'resource'])
    const res = (r.content[1] as { resource: { uri: string; mimeType: string; text: string } }).resource
    expect(res).toMatchObject({ uri: 'file:///big.log', mimeType: 'text/x-log' })
    expect(res.text.length).toBeLessThanOrEqual(2_000)
    expect(r.content[3]).toBe(blob)
    const id = (r.content[2] as { uri: string }).uri.replace('spillway://result/', '')
    expect((await sw.fetch({ id, mode: 'grep', pattern: 'line 2999' }, { sessionId: 's1' })).text).toContain('3000: line 2999')
  })

  it('fails open: a failing handle gives the original result and a warning', async () => {
    const r: CallToolResult = { content: [{ type: 'text', text: log }] }
    expect(await rewrite(r, async () => Promise.reject(new Error('boom')))).toBe(r)
    expect(warnings.at(-1)).toMatch(/boom/)
  })
})

describe('rewriteToolResult: the parts of one result share the budget', () => {
  const big = (tag: string, n: number) => Array.from({ length: n }, (_, i) => `${tag} line ${i} of the file`).join('\n')
  const resource = (uri: string, text: string) => ({ type: 'resource' as const, resource: { uri, mimeType: 'text/plain', text } })
  const shared: HandleFn = (tool, result, args, toolCallId, maxChars) => sw.handle({ tool, result, args, sessionId: 's1', toolCallId, ...(maxChars !== undefined ? { maxChars } : {}) })
  const shown = (r: CallToolResult) =>
    r.content.reduce((n, b) => n + (b.type === 'text' ? b.text.length : b.type === 'resource' && 'text' in b.resource ? String(b.resource.text).length : 0), 0)

  it('text and three resources that each fit but not together: what is sent adds up to the budget, every byte reachable', async () => {
    const parts = [big('text', 60), big('a', 60), big('b', 60), big('c', 60)] // ~1.4 K chars each, 2 K budget
    const r = await rewriteToolResult(
      { content: [{ type: 'text', text: parts[0]! }, resource('file:///a', parts[1]!), resource('file:///b', parts[2]!), resource('file:///c', parts[3]!)] },
      'read_files', {}, '7', shared, () => undefined, 2_000,
    )
    expect(parts.every((p) => p.length < 2_000)).toBe(true)
    expect(shown(r)).toBeLessThanOrEqual(2_000)
    const links = r.content.filter((b) => b.type === 'resource_link') as Array<{ uri: string }>
    expect(links).toHaveLength(4)
    const stored = await Promise.all(links.map(async (l) => (await sw.fetch({ id: l.uri.replace('spillway://result/', ''), mode: 'full' }, { sessionId: 's1' })).text))
    for (const p of parts) expect(stored.filter((t) => t.includes(p.split('\n').at(-1)!))).toHaveLength(1)
  })

  it('small parts keep their whole text; the large one gets what is left', async () => {
    const r = await rewriteToolResult(
      { content: [{ type: 'text', text: 'summary: 3 files' }, resource('file:///big', big('big', 3_000))] },
      'read_files', {}, '8', shared, () => undefined, 2_000,
    )
    expect((r.content[0] as { text: string }).text).toBe('summary: 3 files')
    expect(shown(r)).toBeLessThanOrEqual(2_000)
  })
})

describe('rewriteToolResult: more large parts than the budget has room for', () => {
  const big = (tag: string, n: number) => Array.from({ length: n }, (_, i) => `${tag} line ${i} of the file`).join('\n')
  const resource = (uri: string, text: string) => ({ type: 'resource' as const, resource: { uri, mimeType: 'text/plain', text } })
  /** The text each spilled blob was made from, by id (what `fetch_result` serves for it). */
  const spilled = new Map<string, string>()
  const shared: HandleFn = async (tool, result, args, toolCallId, maxChars) => {
    const h = await sw.handle({ tool, result, args, sessionId: 's1', toolCallId, ...(maxChars !== undefined ? { maxChars } : {}) })
    if (h.handle !== undefined) spilled.set(h.handle.id, result)
    return h
  }
  const shown = (r: CallToolResult) =>
    r.content.reduce((n, b) => n + (b.type === 'text' ? b.text.length : b.type === 'resource' && 'text' in b.resource ? String(b.resource.text).length : 0), 0)
  const linked = (r: CallToolResult) => (r.content.filter((b) => b.type === 'resource_link') as Array<{ uri: string }>).map((l) => l.uri.replace('spillway://result/', ''))
  const stored = (r: CallToolResult) => linked(r).map((id) => spilled.get(id)!)

  it('30 resources under a 2,000-char budget (room for 10 handles): one excerpt and one link, the budget held, every resource in the stored document under its uri', async () => {
    const image = { type: 'image' as const, data: 'AA==', mimeType: 'image/png' }
    const files = Array.from({ length: 30 }, (_, i) => resource(`file:///f${i}.txt`, big(`f${i}`, 40)))
    const r = await rewriteToolResult({ content: [image, { type: 'text', text: 'read 30 files' }, ...files], structuredContent: { files: 30 } }, 'read_files', {}, '9', shared, () => undefined, 2_000)
    expect(types(r)).toEqual(['image', 'text', 'resource_link'])
    expect(r.structuredContent).toBeUndefined()
    expect(shown(r)).toBeLessThanOrEqual(2_000)
    const [doc] = stored(r)
    expect(doc!.startsWith('--- text ---\nread 30 files\n--- structuredContent ---\n{"files":30}\n')).toBe(true)
    for (const [i, f] of files.entries()) expect(doc).toContain(`--- resource file:///f${i}.txt (text/plain) ---\n${f.resource.text}`)
    // Served by fetch_result: the last file's last line, found by grep in the one blob.
    const [id] = linked(r)
    expect((await sw.fetch({ id: id!, mode: 'grep', pattern: 'f29 line 39 of the file', literal: true }, { sessionId: 's1' })).text).toContain('f29 line 39 of the file')
  })

  it('any mix of text, structured content and resources: what is sent stays within the budget and every part is stored', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 3_000 }), fc.array(fc.integer({ min: 1, max: 120 }), { maxLength: 40 }), fc.boolean(), fc.integer({ min: 1_000, max: 6_000 }), async (textLines, resLines, withStructured, budget) => {
        const text = big('text', textLines)
        const res = resLines.map((n, i) => resource(`file:///p${i}`, big(`p${i}`, n)))
        const input: CallToolResult = { content: [...(textLines > 0 ? [{ type: 'text' as const, text }] : []), ...res], ...(withStructured ? { structuredContent: { rows: resLines } } : {}) }
        // As the proxy does: the spillway that handles a part alone is the one for `budget` (`pool.forBudget`).
        const h: HandleFn = (tool, result, args, id, maxChars) => shared(tool, result, args, id, maxChars ?? budget)
        const r = await rewriteToolResult(input, 'read_files', {}, `p${textLines}-${resLines.length}`, h, () => undefined, budget)
        expect(shown(r)).toBeLessThanOrEqual(budget)
        const all = [...stored(r), ...r.content.map((b) => (b.type === 'text' ? b.text : b.type === 'resource' && 'text' in b.resource ? String(b.resource.text) : ''))].join('\n')
        for (const p of [...(textLines > 0 ? [text] : []), ...res.map((x) => x.resource.text)]) expect(all).toContain(p.split('\n').at(-1)!)
      }),
      { numRuns: 40 },
    )
  })
})

describe('shareBudget', () => {
  it('shares add up to the budget when the parts do not fit together (and each part gets room for a handle), and a part that fits its share is kept whole', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 50_000 }), { minLength: 1, maxLength: 12 }), fc.integer({ min: 2_000, max: 40_000 }), (sizes, budget) => {
        const shares = shareBudget(sizes, budget)
        const total = sizes.reduce((a, b) => a + b, 0)
        if (total <= budget) {
          expect(shares.every((x) => x === budget)).toBe(true)
          return
        }
        const shown = shares.reduce((n, x, i) => n + Math.min(x, sizes[i]!), 0)
        if (sizes.length * MIN_PART_CHARS <= budget) expect(shown).toBeLessThanOrEqual(budget)
        shares.forEach((x, i) => expect(x === sizes[i] || x >= MIN_PART_CHARS).toBe(true))
      }),
    )
  })
})
