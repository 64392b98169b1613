// `spillway mcp` flag parsing and the --listen path, through the CLI's own entry points.
import { execFileSync, spawn } from 'node:child_process'
import { request } from 'node:http'
import { PassThrough } from 'node:stream'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../cli/src/cli.js'
import { alive, EVERYTHING, proxyArgs, REPO, tempDir, textOf, waitFor } from './helpers.js'

async function cli(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  let out = ''
  let err = ''
  stdout.on('data', (d: Buffer) => void (out += d.toString()))
  stderr.on('data', (d: Buffer) => void (err += d.toString()))
  const code = await runCli(argv, { stdin: new PassThrough(), stdout, stderr, env: {} })
  return { code, out, err }
}

describe('spillway mcp: usage', () => {
  it('prints its help, and refuses a missing or doubled upstream and bad values with exit code 2', async () => {
    const help = await cli(['mcp', '--help'])
    expect(help.code).toBe(0)
    expect(help.out).toContain('spillway mcp [OPTIONS] -- COMMAND')
    expect((await cli(['mcp'])).err).toMatch(/give exactly one upstream/)
    const both = await cli(['mcp', '--url', 'http://127.0.0.1:1/mcp', '--', 'node', 'x.js'])
    expect(both.code).toBe(2)
    expect((await cli(['mcp', '--defer', 'sometimes', '--', 'node'])).err).toMatch(/--defer must be auto, on or off/)
    expect((await cli(['mcp', '--listen', 'nope', '--', 'node'])).err).toMatch(/--listen must be HOST:PORT/)
    expect((await cli(['mcp', '--max-chars', '0', '--', 'node'])).code).toBe(2)
    expect((await cli(['mcp', '--config', '/nonexistent/mcp.json'])).err).toMatch(/--config \/nonexistent\/mcp.json/)
    expect((await cli(['mpc'])).err).toMatch(/did you mean "mcp"/)
  })

  it('refuses a --transport other than http, streamable-http or sse, and one without --url', async () => {
    const bad = await cli(['mcp', '--url', 'http://127.0.0.1:1/mcp', '--transport', 'websocket'])
    expect(bad.code).toBe(2)
    expect(bad.err).toMatch(/--transport must be http, streamable-http, sse, got "websocket"/)
    const alone = await cli(['mcp', '--transport', 'sse', '--', 'node', 'x.js'])
    expect(alone.code).toBe(2)
    expect(alone.err).toMatch(/--transport goes with --url/)
    expect((await cli(['mcp', '--help'])).out).toContain('--transport')
  })

  it('takes --allowed-hosts, --allowed-origins and --max-sessions with --listen only, and refuses a malformed origin', async () => {
    const alone = await cli(['mcp', '--allowed-hosts', 'mcp.internal', '--', 'node', 'x.js'])
    expect(alone.code).toBe(2)
    expect(alone.err).toMatch(/go with --listen/)
    const bad = await cli(['mcp', '--listen', '0', '--allowed-origins', 'https://app.example/path', '--', 'node', 'x.js'])
    expect(bad.code).toBe(2)
    expect(bad.err).toMatch(/--allowed-origins takes origins like/)
    expect((await cli(['mcp', '--listen', '0', '--max-sessions', '0', '--', 'node', 'x.js'])).err).toMatch(/--max-sessions must be an integer >= 1/)
    expect((await cli(['mcp', '--help'])).out).toContain('--allowed-hosts')
  })

  it('takes --session-idle SECONDS or never with --listen only, and refuses 0 and values past a timer\'s range', async () => {
    const alone = await cli(['mcp', '--session-idle', '60', '--', 'node', 'x.js'])
    expect(alone.code).toBe(2)
    expect(alone.err).toMatch(/--session-idle go with --listen/)
    expect((await cli(['mcp', '--listen', '0', '--session-idle', '0', '--', 'node', 'x.js'])).err).toMatch(/--session-idle must be a whole number of seconds >= 1, or never; got "0"/)
    expect((await cli(['mcp', '--listen', '0', '--session-idle', 'soon', '--', 'node', 'x.js'])).err).toMatch(/--session-idle must be a whole number of seconds >= 1, or never/)
    const far = await cli(['mcp', '--listen', '0', '--session-idle', '2147484', '--', 'node', 'x.js'])
    expect(far.code).toBe(2)
    expect(far.err).toMatch(/--session-idle must be at most 2147483 seconds, or never/)
    expect((await cli(['mcp', '--help'])).out).toContain('--session-idle')
  })
})

describe('spillway mcp --listen', () => {
  it('serves Streamable HTTP on a loopback port and stops with its upstreams on SIGINT', async () => {
    const store = tempDir('listen')
    const child = spawn(process.execPath, proxyArgs(['--dir', store.dir, '--listen', '127.0.0.1:0', '--allowed-hosts', 'mcp.internal,localhost', '--session-idle', '1', '--', process.execPath, EVERYTHING]), { cwd: REPO, stdio: ['ignore', 'ignore', 'pipe'] })
    let err = ''
    child.stderr.on('data', (d: Buffer) => void (err += d.toString()))
    try {
      expect(await waitFor(() => /listening on (http:\/\/\S+)/.test(err), 30_000)).toBe(true)
      const url = /listening on (http:\/\/\S+)/.exec(err)![1]!
      const client = new Client({ name: 'listen-test', version: '1' })
      await client.connect(new StreamableHTTPClientTransport(new URL(url)))
      expect(textOf(await client.callTool({ name: 'echo', arguments: { message: 'over http' } }))).toBe('Echo: over http')
      // --allowed-hosts: a name not on the list (a rebound one) is refused before any session exists.
      const port = new URL(url).port
      const status = (host: string) =>
        new Promise<number>((resolve, reject) => {
          const q = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }, (res) => (res.resume(), resolve(res.statusCode ?? 0)))
          q.on('error', reject)
          q.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }))
        })
      expect(await status(`attacker.example:${port}`)).toBe(403)
      expect(await status(`mcp.internal:${port}`)).toBe(400) // accepted by the guard; a ping without a session is a 400
      // --session-idle 1: a bare initialize left behind (no event stream) ends after a second; its
      // id then gets 404. The connected client above holds its stream open and keeps its session.
      const post = (body: unknown, session?: string) =>
        new Promise<{ status: number; session: string | undefined }>((resolve, reject) => {
          const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
          if (session !== undefined) Object.assign(headers, { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' })
          const q = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers }, (res) => {
            res.resume()
            resolve({ status: res.statusCode ?? 0, session: res.headers['mcp-session-id'] as string | undefined })
          })
          q.on('error', reject)
          q.end(JSON.stringify(body))
        })
      const bare = await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bare', version: '1' } } })
      expect(bare.status).toBe(200)
      expect(bare.session).toBeDefined()
      expect(await waitFor(() => err.includes(`session ${bare.session} ended after 1 s without activity`), 15_000)).toBe(true)
      expect((await post({ jsonrpc: '2.0', id: 2, method: 'ping' }, bare.session)).status).toBe(404)
      expect(textOf(await client.callTool({ name: 'echo', arguments: { message: 'still here' } }))).toBe('Echo: still here')
      // The upstream everything server: a child of the proxy (node spawns it directly).
      const kids = execFileSync('pgrep', ['-P', String(child.pid)]).toString().trim().split('\n').map(Number)
      expect(kids.length).toBeGreaterThan(0)
      const exited = new Promise<number | null>((r) => child.once('exit', (c) => r(c)))
      child.kill('SIGINT')
      expect(await exited).toBe(0)
      expect(await waitFor(() => kids.every((k) => !alive(k)), 8_000)).toBe(true)
      await client.close().catch(() => undefined)
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
      store.remove()
    }
  }, 60_000)
})
