import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js'
import { httpAccess, LOOPBACK_HOSTS, refusal } from './http-access.js'
import { createSessionTable, idleExpires } from './http-sessions.js'
import { DEFAULT_MAX_MESSAGE_BYTES, lineGuard } from './line-guard.js'
import type { McpProxy } from './proxy.js'

/** Makes the proxy of one host connection; `sessionId` scopes its spilled results. */
export type ProxyFactory = (sessionId: string) => McpProxy

/** A running proxy endpoint. */
export interface Served {
  /** Resolves once the endpoint stopped (host gone, or `close`). */
  readonly closed: Promise<void>
  close(): Promise<void>
}

/**
 * Serves one proxy over stdio (`stdin`/`stdout`). Lines longer than `maxMessageBytes` are answered
 * with a JSON-RPC error instead of ending the session; stdin closing closes the proxy (and its upstreams).
 */
export async function serveStdio(proxy: McpProxy, io: { stdin?: NodeJS.ReadableStream; stdout?: NodeJS.WritableStream; maxMessageBytes?: number } = {}): Promise<Served> {
  const stdin = io.stdin ?? process.stdin
  const stdout = io.stdout ?? process.stdout
  const max = io.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES
  const guarded = stdin.pipe(lineGuard(max, (line) => void stdout.write(line)))
  const transport = new StdioServerTransport(guarded, stdout as never, { maxBufferSize: max + 1024 } as never)
  let done!: () => void
  const closed = new Promise<void>((r) => (done = r))
  const close = async (): Promise<void> => {
    await proxy.close()
    // Stop reading: a stdin still open (closed by a signal, not by the host) must not keep the process alive.
    stdin.unpipe(guarded)
    ;(stdin as NodeJS.ReadableStream & { destroy?(): void }).destroy?.()
    done()
  }
  // A host that went away: EPIPE on stdout must end the session, not crash the process.
  ;(stdout as NodeJS.WritableStream & { on(e: 'error', f: () => void): void }).on('error', () => void close())
  stdin.once('end', () => void close())
  stdin.once('close', () => void close())
  transport.onclose = () => void close()
  await proxy.connect(transport)
  return { closed, close }
}

/** Options of {@link serveHttp}. Unset fields take {@link DEFAULT_HTTP_SERVE}. */
export interface HttpServeOptions {
  /** Address to listen on. @default '127.0.0.1' */
  host?: string
  /** 0 picks a free port. */
  port: number
  /** Path of the MCP endpoint. @default '/mcp' */
  path?: string
  /** Largest request body, in bytes. @default DEFAULT_MAX_MESSAGE_BYTES (16 MiB) */
  maxMessageBytes?: number
  /**
   * Host names (no port; IPv6 in brackets) accepted in the `Host` header of every request: DNS
   * rebinding protection. The listen address is added when it names one interface.
   * @default ['localhost', '127.0.0.1', '[::1]']
   */
  allowedHosts?: string[]
  /**
   * Origins (`https://app.example:8443`) accepted in an `Origin` header. Requests without one
   * (not from a browser) pass. @default any origin whose host name is an allowed host
   */
  allowedOrigins?: string[]
  /** Most sessions open at once; an `initialize` beyond it gets HTTP 503 with a JSON-RPC error. Each session has its own upstream processes. @default 32 */
  maxSessions?: number
  /**
   * A session with no request in flight and no open event stream for this long, in ms, is ended
   * as if the client had sent DELETE: its upstream processes are stopped; its id then gets 404,
   * on which clients start a new session. `Infinity` disables it. @default 1800000 (30 min)
   */
  sessionIdleMs?: number
  /** Called when a session expired. @default no-op */
  onWarning?: (message: string) => void
}

/** Defaults of {@link HttpServeOptions}. */
export const DEFAULT_HTTP_SERVE = Object.freeze({
  host: '127.0.0.1',
  path: '/mcp',
  allowedHosts: LOOPBACK_HOSTS,
  maxSessions: 32,
  sessionIdleMs: 30 * 60_000,
})

function readBody(req: IncomingMessage, max: number): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = []
    let size = 0
    let over = false
    req.on('data', (c: Buffer) => {
      size += c.length
      if (size > max) over = true
      else parts.push(c)
    })
    req.on('end', () => resolve(over ? 'too-large' : Buffer.concat(parts)))
    req.on('error', reject)
  })
}

const jsonError = (res: ServerResponse, status: number, message: string, id: unknown = null, code = status === 413 ? -32600 : -32000): void => {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }))
}

/**
 * Serves proxies over Streamable HTTP: one proxy (one session, its own upstream connections)
 * per `Mcp-Session-Id`, all sharing the factory's store. A session only reads its own spills.
 * Every request's `Host` (and `Origin`, when a browser sends one) is checked first (DNS
 * rebinding protection: 403); sessions are capped (`maxSessions`: 503) and end after
 * `sessionIdleMs` without activity, their upstreams stopped.
 */
export async function serveHttp(factory: ProxyFactory, options: HttpServeOptions): Promise<Served & { url: string; sessions(): number }> {
  const o = { ...DEFAULT_HTTP_SERVE, ...options }
  const path = o.path
  const max = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES
  const access = httpAccess(o.host, o.allowedHosts, options.allowedOrigins)
  const idleS = Math.round(o.sessionIdleMs / 1000)
  const sessions = createSessionTable(o.sessionIdleMs, (id) => options.onWarning?.(`session ${id} ended after ${idleS} s without activity; its upstreams were stopped`))

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (new URL(req.url ?? '/', 'http://x').pathname !== path) return void res.writeHead(404).end()
    const refused = refusal(access, req.headers.host, req.headers.origin)
    if (refused !== undefined) return jsonError(res, 403, refused)
    const sid = req.headers['mcp-session-id']
    const existing = typeof sid === 'string' ? sessions.get(sid) : undefined
    if (typeof sid === 'string' && existing === undefined) return jsonError(res, 404, 'spillway: session not found (it ended or expired); start a new one with initialize, without an Mcp-Session-Id', null, -32001)
    if (existing !== undefined) sessions.track(sid as string, res)
    if (req.method !== 'POST') {
      if (existing === undefined) return jsonError(res, 400, 'spillway: missing Mcp-Session-Id: send initialize first')
      return existing.transport.handleRequest(req, res)
    }
    const body = await readBody(req, max)
    if (body === 'too-large') return jsonError(res, 413, `spillway: message of more than ${max} bytes refused (the proxy's limit); send a smaller one`)
    let parsed: unknown
    try {
      parsed = JSON.parse(body.toString('utf8'))
    } catch {
      return jsonError(res, 400, 'spillway: the body is not valid JSON (parse error)')
    }
    if (existing !== undefined) return existing.transport.handleRequest(req, res, parsed)
    if (!isInitializeRequest(parsed)) return jsonError(res, 400, 'spillway: no session: send initialize first, without an Mcp-Session-Id')
    if (sessions.size() >= o.maxSessions) {
      const retry = idleExpires(o.sessionIdleMs) ? ` or retry once idle sessions expired (${idleS} s without activity)` : ''
      return jsonError(res, 503, `spillway: too many open sessions (${o.maxSessions}, the proxy's limit); end one (HTTP DELETE with its Mcp-Session-Id)${retry}`, (parsed as { id?: unknown }).id ?? null)
    }
    const sessionId = randomUUID()
    const proxy = factory(sessionId)
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => sessionId })
    transport.onclose = () => void sessions.end(sessionId)
    sessions.add(sessionId, { transport, proxy })
    sessions.track(sessionId, res)
    await proxy.connect(transport)
    await transport.handleRequest(req, res, parsed)
    // The transport refused the initialize (Accept, Content-Type, batch): no session was opened.
    if (transport.sessionId === undefined) await sessions.end(sessionId)
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) jsonError(res, 500, `spillway: ${(err as Error).message}`)
      else res.end()
    })
  })
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject)
    http.listen(options.port, o.host, () => resolve())
  })
  const addr = http.address() as AddressInfo
  let done!: () => void
  const closed = new Promise<void>((r) => (done = r))
  const close = async (): Promise<void> => {
    await sessions.closeAll()
    http.closeAllConnections()
    await new Promise<void>((r) => http.close(() => r()))
    done()
  }
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address
  return { url: `http://${host}:${addr.port}${path}`, closed, close, sessions: () => sessions.size() }
}
