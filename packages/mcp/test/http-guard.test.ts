// The Streamable HTTP endpoint's guards, with real HTTP requests (node:http, so Host and Origin
// can be set as a rebound page or another site would send them) and real upstream processes
// (our fixture server, tagged so the test can find its processes).
import { execFileSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { request } from 'node:http'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { memoryStore } from '@spillway/core'
import { afterAll, describe, expect, it } from 'vitest'
import { createMcpProxy, createSpillwayPool, serveHttp, type HttpServeOptions } from '../src/index.js'
import { alive, FIXTURE_SERVER, textOf, TS_NODE, waitFor } from './helpers.js'

const pool = createSpillwayPool({ store: memoryStore() })
const servers: Awaited<ReturnType<typeof serveHttp>>[] = []

/** A proxy endpoint whose upstreams carry `tag` on their command line; counts the proxies it made. */
async function endpoint(opts: Partial<HttpServeOptions> = {}) {
  const tag = `guard-${randomUUID()}`
  let made = 0
  const srv = await serveHttp((sessionId) => {
    made++
    return createMcpProxy({ upstreams: [{ name: 'fx', command: process.execPath, args: [...TS_NODE, FIXTURE_SERVER, '--tag', tag] }], store: pool.store, pool, sessionId, upstreamStderr: 'ignore' })
  }, { port: 0, ...opts })
  servers.push(srv)
  const processes = (): number[] => {
    try {
      return execFileSync('pgrep', ['-f', tag]).toString().trim().split('\n').map(Number)
    } catch {
      return [] // pgrep exits 1 when nothing matches
    }
  }
  return { srv, tag, made: () => made, processes }
}

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()))
  await pool.dispose()
})

const INIT = { jsonrpc: '2.0', id: 'init-1', method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }

/** One raw HTTP request; `headers` may set Host and Origin. */
function send(url: string, method: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const u = new URL(url)
  return new Promise((resolve, reject) => {
    const q = request({ host: u.hostname, port: u.port, path: u.pathname, method, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      let text = ''
      res.setEncoding('utf8').on('data', (d: string) => (text += d))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }))
    })
    q.on('error', reject)
    q.end(body === undefined ? undefined : JSON.stringify(body))
  })
}
const hostOf = (url: string): string => new URL(url).host
const errorOf = (body: string): { id: unknown; error: { code: number; message: string } } => JSON.parse(body)

describe('DNS rebinding protection', () => {
  it('refuses a foreign Host (a rebound name) with 403 before any session or upstream exists', async () => {
    const { srv, made, processes } = await endpoint()
    for (let i = 0; i < 4; i++) {
      const r = await send(srv.url, 'POST', { host: `attacker.example:${new URL(srv.url).port}`, origin: 'http://attacker.example' }, INIT)
      expect(r.status).toBe(403)
      expect(errorOf(r.body).error.message).toMatch(/Host "attacker\.example:\d+" is not allowed .*--allowed-hosts/)
    }
    expect(srv.sessions()).toBe(0)
    expect(made()).toBe(0)
    expect(processes()).toEqual([])
  })

  it('accepts loopback names on any port; refuses a foreign Origin, accepts a loopback one and none', async () => {
    const { srv } = await endpoint()
    const port = new URL(srv.url).port
    expect((await send(srv.url, 'POST', { host: `localhost:${port}`, origin: 'https://evil.example' }, INIT)).status).toBe(403)
    expect((await send(srv.url, 'POST', { host: `127.0.0.1:${port}`, origin: 'null' }, INIT)).status).toBe(403)
    const ok = await send(srv.url, 'POST', { host: `localhost:${port}`, origin: 'http://localhost:5173' }, INIT)
    expect(ok.status).toBe(200)
    const sid = ok.headers['mcp-session-id'] as string
    // An existing session is guarded too: a rebound page cannot use an id it learnt.
    expect((await send(srv.url, 'DELETE', { host: 'attacker.example', 'mcp-session-id': sid })).status).toBe(403)
    expect(srv.sessions()).toBe(1)
    expect((await send(srv.url, 'POST', { host: `[::1]:${port}` }, { ...INIT, id: 2 })).status).toBe(200) // no Origin: not a browser
    expect(srv.sessions()).toBe(2)
  })

  it('serves the hosts and origins it is given, and only those', async () => {
    const { srv } = await endpoint({ allowedHosts: ['mcp.internal'], allowedOrigins: ['https://app.example'] })
    expect((await send(srv.url, 'POST', { host: 'mcp.internal:8443', origin: 'https://app.example' }, INIT)).status).toBe(200)
    expect((await send(srv.url, 'POST', { host: hostOf(srv.url) }, INIT)).status).toBe(200) // the listen address itself (127.0.0.1)
    expect((await send(srv.url, 'POST', { host: 'localhost' }, INIT)).status).toBe(403) // loopback names are not added to a given list
    const r = await send(srv.url, 'POST', { host: 'mcp.internal', origin: 'http://localhost:3000' }, INIT)
    expect(r.status).toBe(403)
    expect(errorOf(r.body).error.message).toMatch(/Origin "http:\/\/localhost:3000" is not allowed \(allowed: https:\/\/app\.example\)/)
  })
})

describe('session cap and idle time-out', () => {
  it('refuses an initialize beyond maxSessions with a JSON-RPC error carrying its id; a DELETE makes room', async () => {
    const { srv, processes } = await endpoint({ maxSessions: 2 })
    const host = { host: hostOf(srv.url) }
    const a = await send(srv.url, 'POST', host, INIT)
    await send(srv.url, 'POST', host, INIT)
    const full = await send(srv.url, 'POST', host, { ...INIT, id: 77 })
    expect(full.status).toBe(503)
    expect(errorOf(full.body)).toMatchObject({ id: 77, error: { code: -32000, message: expect.stringMatching(/too many open sessions \(2, the proxy's limit\); end one \(HTTP DELETE/) } })
    expect(srv.sessions()).toBe(2)
    expect(await waitFor(() => processes().length === 2, 10_000)).toBe(true)
    const sid = a.headers['mcp-session-id'] as string
    expect((await send(srv.url, 'DELETE', { ...host, 'mcp-session-id': sid })).status).toBe(200)
    expect(await waitFor(() => processes().length === 1, 10_000)).toBe(true)
    // The ended session's id now gets 404 (clients start a new session on it), and there is room again.
    const gone = await send(srv.url, 'POST', { ...host, 'mcp-session-id': sid }, { jsonrpc: '2.0', id: 3, method: 'ping' })
    expect(gone.status).toBe(404)
    expect(errorOf(gone.body).error.code).toBe(-32001)
    expect((await send(srv.url, 'POST', host, INIT)).status).toBe(200)
  }, 30_000)

  it('ends sessions left without DELETE after sessionIdleMs and stops their upstream processes; a connected client keeps its own', async () => {
    const warnings: string[] = []
    const { srv, processes } = await endpoint({ sessionIdleMs: 1_500, onWarning: (m) => void warnings.push(m) })
    // Bare initializes never followed by anything (the review's repro): they start upstreams, then expire.
    for (let i = 0; i < 3; i++) expect((await send(srv.url, 'POST', { host: hostOf(srv.url) }, INIT)).status).toBe(200)
    expect(srv.sessions()).toBeGreaterThan(0)
    expect(await waitFor(() => srv.sessions() === 0 && processes().length === 0, 15_000)).toBe(true)
    expect(warnings.filter((w) => /ended after 2 s without activity; its upstreams were stopped/.test(w))).toHaveLength(3)
    // An SDK client holds its event stream open: its session lives on while it is connected, however quiet.
    const client = new Client({ name: 'idle-test', version: '1' })
    await client.connect(new StreamableHTTPClientTransport(new URL(srv.url)))
    const pid = Number(textOf(await client.callTool({ name: 'pid', arguments: {} })))
    await new Promise((r) => setTimeout(r, 3_000))
    expect(srv.sessions()).toBe(1)
    expect(Number(textOf(await client.callTool({ name: 'pid', arguments: {} })))).toBe(pid)
    await client.close() // a host that goes away without DELETE: its stream closes, the idle clock starts
    expect(await waitFor(() => srv.sessions() === 0 && !alive(pid), 15_000)).toBe(true)
    expect(warnings).toHaveLength(4)
  }, 60_000)

  it('does not end a session while a call is in flight, however long it takes', async () => {
    const { srv } = await endpoint({ sessionIdleMs: 500 })
    const host = { host: hostOf(srv.url) }
    // Raw requests: no event stream is held open, only the call's own response.
    const init = await send(srv.url, 'POST', host, INIT)
    const session = { ...host, 'mcp-session-id': init.headers['mcp-session-id'] as string }
    expect((await send(srv.url, 'POST', session, { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202)
    const call = await send(srv.url, 'POST', session, { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'slow', arguments: { ms: 2_000 } } })
    expect(call.body).toContain('waited 2000 ms')
    expect(srv.sessions()).toBe(1)
    expect(await waitFor(() => srv.sessions() === 0, 5_000)).toBe(true) // and it expires once idle
  }, 30_000)
})
