import { createSpillway, memoryStore } from '@spillway/core'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { describe, expect, it } from 'vitest'
import { rewriteToolResult, type HandleFn } from './result.js'

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
