// `spillway mcp` (the CLI, from source, over real stdio) in front of our fixture server: 5 MB logs
// and JSON, 300 tools, and failures on demand (crash, hang, cancellation). Process lifecycle and
// bad input are in lifecycle.test.ts (own proxy processes, run in parallel with this file).
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { alive, FIXTURE_SERVER, proxyArgs, stdioClient, tempDir, textOf, waitFor } from './helpers.js'

const store = tempDir('fixture')
const upstream = [process.execPath, '--import', 'tsx', FIXTURE_SERVER, '--tools', '300']
let client: Client
let transport: StdioClientTransport
let stderr = ''

beforeAll(async () => {
  ;({ client, transport } = await stdioClient(proxyArgs(['--dir', store.dir, '--timeout', '6000', '--context-window', '128000', '--max-chars', '16000', '--expose', 'read_log,search_issues', '--', ...upstream])))
  transport.stderr?.on('data', (d: Buffer) => void (stderr += d.toString()))
}, 60_000)

afterAll(async () => {
  await client?.close()
  store.remove()
})

type Block = { type: string; text?: string; uri?: string; mimeType?: string; size?: number }
const blocks = (r: object): Block[] => ((r as { content?: unknown }).content as Block[]) ?? []
const link = (r: object): Block | undefined => blocks(r).find((b) => b.type === 'resource_link')
const idOf = (r: object): string => link(r)!.uri!.replace('spillway://result/', '')

describe('large results through the proxy', () => {
  it('trims a 5 MB log to the budget, with a handle, a resource_link, and the whole log readable back', async () => {
    const r = await client.callTool({ name: 'read_log', arguments: {} })
    const text = textOf(r)
    expect(text.length).toBeLessThanOrEqual(16_000)
    expect(text).toContain('is an excerpt, not the full output')
    expect(text).toContain('Connection reset by peer') // the salient ERROR line in the middle
    const l = link(r)!
    expect(l).toMatchObject({ type: 'resource_link', mimeType: 'text/plain' })
    expect(l.size).toBeGreaterThan(5_000_000)
    const id = idOf(r)
    const grep = textOf(await client.callTool({ name: 'fetch_result', arguments: { id, mode: 'grep', pattern: 'FATAL' } }))
    expect(grep).toContain('45000: 081109 214001 45000 FATAL')
    const res = await client.readResource({ uri: l.uri! })
    const body = (res.contents[0] as { text: string }).text
    expect(body.length).toBe(l.size) // ASCII: chars = bytes
    expect(body.split('\n')[31_336]).toContain('ERROR dfs.DataNode')
    expect(body.split('\n').length).toBe(60_000)
  })

  it('excerpts 5 MB of structured JSON once (text and structuredContent were the same) and drops structuredContent', async () => {
    const r = await client.callTool({ name: 'search_issues', arguments: {} })
    expect(r.structuredContent).toBeUndefined()
    const texts = blocks(r).filter((b) => b.type === 'text')
    expect(texts).toHaveLength(1)
    expect(texts[0]!.text!.length).toBeLessThanOrEqual(16_000)
    expect(link(r)?.mimeType).toBe('application/json')
    const grep = textOf(await client.callTool({ name: 'fetch_result', arguments: { id: idOf(r), mode: 'grep', pattern: 'NEEDLE', literal: true } }))
    expect(grep).toContain('NEEDLE segfault')
  })

  it('passes a small result with an image unchanged', async () => {
    const r = await client.callTool({ name: 'small', arguments: {} })
    expect(r.content).toEqual([
      { type: 'text', text: 'small result, kept as is' },
      { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
    ])
  })

  it('keeps the image block and isError, and trims the text beside them', async () => {
    const img = await client.callTool({ name: 'image_and_log', arguments: {} })
    expect(blocks(img).map((b) => b.type)).toEqual(['image', 'text', 'resource_link'])
    const err = await client.callTool({ name: 'failing_build', arguments: {} })
    expect(err.isError).toBe(true)
    expect(textOf(err)).toContain('error TS2345')
    expect(textOf(err).length).toBeLessThanOrEqual(16_000)
  })

  it('budgets an embedded text resource like text: excerpt in place (uri, mimeType kept), spilled whole; a blob resource passes', async () => {
    const r = await client.callTool({ name: 'file_as_resource', arguments: {} })
    expect(blocks(r).map((b) => b.type)).toEqual(['text', 'resource', 'resource_link', 'resource'])
    expect(textOf(r)).toBe('successfully downloaded text file (SHA: 0123abc)')
    const [, res, l, blob] = blocks(r) as [Block, { resource: { uri: string; mimeType: string; text: string } }, Block, { resource: { uri: string; blob: string } }]
    expect(res.resource.uri).toBe('repo://octo/app/contents/build.log')
    expect(res.resource.mimeType).toBe('text/plain')
    expect(res.resource.text.length).toBeLessThanOrEqual(16_000)
    expect(res.resource.text).toContain('is an excerpt, not the full output')
    expect(blob.resource).toEqual({ uri: 'repo://octo/app/contents/logo.png', mimeType: 'image/png', blob: Buffer.alloc(30_000, 7).toString('base64') })
    // Every byte of the resource text is readable back, by grep and whole.
    const grep = textOf(await client.callTool({ name: 'fetch_result', arguments: { id: idOf(r), mode: 'grep', pattern: 'last line' } }))
    expect(grep).toContain('20001: café ☕ 🚀 last line')
    const whole = (await client.readResource({ uri: l.uri! })).contents[0] as { text: string }
    const lines = whole.text.split('\n')
    expect(lines).toHaveLength(20_001)
    expect(lines.at(-1)).toBe('café ☕ 🚀 last line')
    expect(Buffer.byteLength(whole.text)).toBe(l.size)
  })

  it("honours a tool's declared _meta size limit (anthropic/maxResultSizeChars)", async () => {
    const r = await client.callTool({ name: 'declared_limit', arguments: {} })
    expect(textOf(r).length).toBeGreaterThan(16_000) // over the default budget, under the declared 300000
    expect(link(r)).toBeUndefined()
  })
})

describe('300 tools: deferral', () => {
  it('lists the exposed tools, fetch_result and the bridge only, and reaches the others through it', async () => {
    const { tools } = await client.listTools()
    const names = tools.map((t) => t.name)
    expect(names).toEqual(['read_log', 'search_issues', 'fetch_result', 'tool_search', 'tool_describe', 'tool_call'])
    const hits = JSON.parse(textOf(await client.callTool({ name: 'tool_search', arguments: { query: 'delete invoice' } }))) as { tools: { name: string }[] }
    const target = hits.tools.find((t) => t.name.endsWith('_delete_invoice'))!.name
    const bad = await client.callTool({ name: 'tool_call', arguments: { name: target, arguments: {} } })
    expect(bad.isError).toBe(true)
    expect(textOf(bad)).toMatch(/Invalid arguments/)
    const ok = await client.callTool({ name: 'tool_call', arguments: { name: target, arguments: { id: 'inv-7' } } })
    expect(textOf(ok)).toBe(`${target} ok inv-7`)
    // A deferred tool called by name (a host that remembers it) still works.
    expect(textOf(await client.callTool({ name: target, arguments: { id: 'x' } }))).toBe(`${target} ok x`)
  })
})

describe('failures', () => {
  it('turns an upstream crash mid-call into an MCP error that says so, and restarts it for the next call', async () => {
    const before = Number(textOf(await client.callTool({ name: 'pid', arguments: {} })))
    await expect(client.callTool({ name: 'crash', arguments: {} })).rejects.toThrow(/closed the connection during tools\/call crash .*restarted/)
    const after = Number(textOf(await client.callTool({ name: 'pid', arguments: {} })))
    expect(after).not.toBe(before)
    expect(alive(before)).toBe(false)
  })

  it('answers a hung upstream with a time-out error within --timeout, and restarts it', async () => {
    const before = Number(textOf(await client.callTool({ name: 'pid', arguments: {} })))
    // The error names the --timeout it waited; the test's own time-out bounds the wait itself.
    await expect(client.callTool({ name: 'hang', arguments: {} })).rejects.toThrow(/did not answer tools\/call hang within 6000 ms; it does not answer pings either/)
    const after = Number(textOf(await client.callTool({ name: 'pid', arguments: {} })))
    expect(after).not.toBe(before)
    expect(await waitFor(() => !alive(before), 8_000)).toBe(true)
  }, 40_000)

  it('relays a host cancellation to the upstream', async () => {
    const ac = new AbortController()
    setTimeout(() => ac.abort(), 300)
    await expect(client.callTool({ name: 'slow', arguments: { ms: 20_000 } }, undefined, { signal: ac.signal })).rejects.toThrow()
    expect(await waitFor(() => stderr.includes('fixture: slow cancelled'), 5_000)).toBe(true)
  }, 30_000)
})
