// The proxy served over real Streamable HTTP (serveHttp on a loopback port), SDK clients on the
// other side, in front of server-filesystem and server-everything spawned from npm.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { CreateMessageRequestSchema, type ClientCapabilities } from '@modelcontextprotocol/sdk/types.js'
import { memoryStore } from '@spillway/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMcpProxy, createSpillwayPool, serveHttp } from '../src/index.js'
import { EVERYTHING, FILESYSTEM, tempDir, textOf, waitFor } from './helpers.js'

const files = tempDir('fs')
const BIG = join(files.dir, 'build.log')
// ~2 MB of text with non-ASCII chars, so byte-exactness is checked on more than ASCII.
const content = Array.from({ length: 40_000 }, (_, i) => (i === 27_182 ? `${i} ERROR: disk quota exceeded (café ☕ 🚀)` : `${i} INFO: step ${i} of the build finished in ${i % 97} ms`)).join('\n')
writeFileSync(BIG, content)

const pool = createSpillwayPool({ store: memoryStore(), maxChars: 12_000 })
let fsServer: Awaited<ReturnType<typeof serveHttp>>
let evServer: Awaited<ReturnType<typeof serveHttp>>
const clients: Client[] = []

async function connect(url: string, caps: ClientCapabilities = {}, setup?: (c: Client) => void): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url))
  const client = new Client({ name: 'http-test', version: '1' }, { capabilities: caps })
  setup?.(client)
  await client.connect(transport)
  clients.push(client)
  return { client, transport }
}

beforeAll(async () => {
  fsServer = await serveHttp(
    (sessionId) => createMcpProxy({ upstreams: [{ name: 'fs', command: process.execPath, args: [FILESYSTEM, files.dir] }], store: pool.store, pool, sessionId, upstreamStderr: 'ignore' }),
    { port: 0 },
  )
  evServer = await serveHttp(
    (sessionId) => createMcpProxy({ upstreams: [{ name: 'everything', command: process.execPath, args: [EVERYTHING] }], store: pool.store, pool, sessionId, upstreamStderr: 'ignore' }),
    { port: 0 },
  )
}, 30_000)

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)))
  await Promise.all([fsServer?.close(), evServer?.close()])
  await pool.dispose()
  files.remove()
})

describe('Streamable HTTP, server-filesystem', () => {
  it('trims a large file read, spills it, and gives it back by grep and byte-exact by resources/read; another session cannot read it', async () => {
    const a = await connect(fsServer.url)
    const b = await connect(fsServer.url)
    expect(fsServer.sessions()).toBe(2)
    const r = await a.client.callTool({ name: 'read_text_file', arguments: { path: BIG } })
    const text = textOf(r)
    expect(text.length).toBeLessThanOrEqual(12_000)
    expect(text).toContain('is an excerpt, not the full output')
    const link = (r.content as { type: string; uri?: string; size?: number }[]).find((x) => x.type === 'resource_link')!
    expect(link.size).toBe(Buffer.byteLength(content))
    const id = link.uri!.replace('spillway://result/', '')
    const grep = textOf(await a.client.callTool({ name: 'fetch_result', arguments: { id, mode: 'grep', pattern: 'disk quota' } }))
    expect(grep).toContain('27183: 27182 ERROR: disk quota exceeded (café ☕ 🚀)')
    const read = await a.client.readResource({ uri: link.uri! })
    expect((read.contents[0] as { text: string }).text === content).toBe(true)
    // Session B: same proxy, same store, never A's blob.
    await expect(b.client.readResource({ uri: link.uri! })).rejects.toThrow(/not available in this session/)
    expect(textOf(await b.client.callTool({ name: 'fetch_result', arguments: { id, mode: 'range', start: 1, count: 3 } }))).toMatch(/not available in this session/)
  })

  it('passes a small file byte-identical', async () => {
    const small = join(files.dir, 'small.txt')
    writeFileSync(small, 'tiny file\n')
    const { client } = await connect(fsServer.url)
    const r = await client.callTool({ name: 'read_text_file', arguments: { path: small } })
    expect(textOf(r)).toBe('tiny file\n')
    expect((r.content as unknown[]).length).toBe(1)
  })

  it('refuses an oversized body and a malformed one with JSON-RPC errors, and keeps serving', async () => {
    const big = await fetch(fsServer.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${'x'.repeat(17 * 1024 * 1024)}"}}` })
    expect(big.status).toBe(413)
    expect(((await big.json()) as { error: { message: string } }).error.message).toMatch(/refused/)
    const bad = await fetch(fsServer.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc": "2.0", "id": 1, "meth' })
    expect(bad.status).toBe(400)
    const { client } = await connect(fsServer.url)
    await expect(client.ping()).resolves.toEqual({})
  })

  it('ends the session and stops its upstream when the client terminates it', async () => {
    const { client, transport } = await connect(fsServer.url)
    const before = fsServer.sessions()
    const proc = await import('node:child_process')
    const pids = (): number[] => {
      try {
        return proc.execFileSync('pgrep', ['-f', 'server-filesystem/dist/index.js']).toString().trim().split('\n').map(Number)
      } catch {
        return [] // pgrep exits 1 when nothing matches
      }
    }
    const running = pids().length
    expect(running).toBeGreaterThan(0)
    await transport.terminateSession()
    await client.close()
    expect(await waitFor(() => fsServer.sessions() === before - 1, 5_000)).toBe(true)
    expect(await waitFor(() => pids().length === running - 1, 8_000)).toBe(true)
  })
})

describe('Streamable HTTP, server-everything', () => {
  it('relays progress and a sampling request to the HTTP client', async () => {
    const { client } = await connect(evServer.url, { sampling: {} }, (c) =>
      c.setRequestHandler(CreateMessageRequestSchema, async () => ({ model: 'm', role: 'assistant', content: { type: 'text', text: 'sampled over http' } })),
    )
    const seen: number[] = []
    await client.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 0.6, steps: 3 } }, undefined, { onprogress: (p) => void seen.push(p.progress) })
    expect(seen).toEqual([1, 2, 3])
    const s = await client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'hi' } })
    expect(textOf(s)).toContain('sampled over http')
  })

  it('does not offer the sampling tool to a client without sampling (capabilities intersected)', async () => {
    const { client } = await connect(evServer.url)
    const names = (await client.listTools()).tools.map((t) => t.name)
    expect(names).not.toContain('trigger-sampling-request')
    expect(names).toContain('echo')
  })
})

describe('a Streamable HTTP upstream (--url)', () => {
  it('proxies a server reached by URL and spills its large results', async () => {
    const proxy = createMcpProxy({ upstreams: [{ name: 'remote', url: evServer.url, headers: { 'x-spillway-test': '1' } }], store: pool.store, pool, sessionId: 'url-upstream' })
    const [host, side] = InMemoryTransport.createLinkedPair()
    await proxy.connect(side)
    const client = new Client({ name: 'url-test', version: '1' })
    await client.connect(host)
    clients.push(client)
    try {
      expect(textOf(await client.callTool({ name: 'echo', arguments: { message: 'via url' } }))).toBe('Echo: via url')
      const big = await client.callTool({ name: 'echo', arguments: { message: content } })
      expect(textOf(big).length).toBeLessThanOrEqual(12_000)
      expect((big.content as { type: string }[]).map((b) => b.type)).toEqual(['text', 'resource_link'])
    } finally {
      await proxy.close()
    }
  })
})
