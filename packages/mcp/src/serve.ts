import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js'
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

/** Options of {@link serveHttp}. */
export interface HttpServeOptions {
  host?: string
  /** 0 picks a free port. */
  port: number
  /** Path of the MCP endpoint. @default '/mcp' */
  path?: string
  maxMessageBytes?: number
}

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

const jsonError = (res: ServerResponse, status: number, message: string, id: unknown = null): void => {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: status === 413 ? -32600 : -32000, message } }))
}

/**
 * Serves proxies over Streamable HTTP: one proxy (one session, its own upstream connections)
 * per `Mcp-Session-Id`, all sharing the factory's store. A session only reads its own spills.
 */
export async function serveHttp(factory: ProxyFactory, options: HttpServeOptions): Promise<Served & { url: string; sessions(): number }> {
  const path = options.path ?? '/mcp'
  const max = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; proxy: McpProxy }>()

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (new URL(req.url ?? '/', 'http://x').pathname !== path) return void res.writeHead(404).end()
    const sid = req.headers['mcp-session-id']
    const existing = typeof sid === 'string' ? sessions.get(sid) : undefined
    if (req.method !== 'POST') {
      if (existing === undefined) return jsonError(res, 400, 'spillway: unknown or missing Mcp-Session-Id')
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
    if (sid !== undefined || !isInitializeRequest(parsed)) return jsonError(res, 400, 'spillway: no session: send initialize first, without an Mcp-Session-Id')
    const sessionId = randomUUID()
    const proxy = factory(sessionId)
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => sessionId, onsessioninitialized: (id) => void sessions.set(id, { transport, proxy }) })
    transport.onclose = () => {
      sessions.delete(sessionId)
      void proxy.close()
    }
    await proxy.connect(transport)
    await transport.handleRequest(req, res, parsed)
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) jsonError(res, 500, `spillway: ${(err as Error).message}`)
      else res.end()
    })
  })
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject)
    http.listen(options.port, options.host ?? '127.0.0.1', () => resolve())
  })
  const addr = http.address() as AddressInfo
  let done!: () => void
  const closed = new Promise<void>((r) => (done = r))
  const close = async (): Promise<void> => {
    await Promise.all([...sessions.values()].map(({ proxy }) => proxy.close()))
    sessions.clear()
    http.closeAllConnections()
    await new Promise<void>((r) => http.close(() => r()))
    done()
  }
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address
  return { url: `http://${host}:${addr.port}${path}`, closed, close, sessions: () => sessions.size }
}
