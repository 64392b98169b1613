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
