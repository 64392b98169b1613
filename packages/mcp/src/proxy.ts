import { randomUUID } from 'node:crypto'
import { profileHint } from './profile.js'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import {
  CallToolRequestSchema, ErrorCode, InitializeRequestSchema, LATEST_PROTOCOL_VERSION, ListToolsRequestSchema, ResultSchema, SUPPORTED_PROTOCOL_VERSIONS,
  type CallToolResult, type ClientCapabilities, type Implementation, type InitializeResult, type ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js'
import { FETCH_TOOL_NAME, SpillwayError } from '@spillway/core'
import { forwardableClientCapabilities, forwardOptions, HOST_NOTIFICATIONS, HOST_REQUESTS, installUpstreamForwarding, upstreamRequest } from './forward.js'
import { createSpillwayPool, type SpillwayPool } from './pool.js'
import { createRouter } from './router.js'
import { rewriteToolResult } from './result.js'
import { buildCatalog, declaredBudget, type ToolCatalog } from './tools.js'
import { mcpFailure } from './failure.js'
import { DEFAULT_MCP_PROXY, type McpProxyOptions } from './types.js'
import { createUpstream, plainMessage, type Upstream, type UpstreamSetup } from './upstream.js'

/** Name and version the proxy gives itself, toward the host and toward upstreams. */
export const PROXY_INFO: Implementation = { name: 'spillway-mcp', version: '0.1.0' }

/** A proxy for one host connection (one session). */
export interface McpProxy {
  /** The SDK server facing the host; connect it to any server transport. */
  readonly server: Server
  readonly sessionId: string
  readonly upstreams: readonly Upstream[]
  /** The spillways (shared store) this proxy writes to. */
  readonly pool: SpillwayPool
  /** Connects the host side; upstreams are started when the host sends `initialize`. */
  connect(transport: Transport): Promise<void>
  /** Cancels in-flight upstream calls, stops (kills) the upstreams and closes the host side. */
  close(): Promise<void>
}

const text = (t: string, isError = false): CallToolResult => ({ content: [{ type: 'text', text: t }], ...(isError ? { isError: true } : {}) })

/** Server capabilities toward the host: what the live upstreams offer, plus tools and resources (spillway serves both). */
export function proxyCapabilities(ups: readonly (ServerCapabilities | undefined)[]): ServerCapabilities {
  const any = (k: keyof ServerCapabilities) => ups.some((c) => c?.[k] !== undefined)
  const flag = (k: 'prompts' | 'resources' | 'tools', f: 'listChanged' | 'subscribe') => ups.some((c) => (c?.[k] as Record<string, unknown> | undefined)?.[f] === true)
  return {
    tools: { listChanged: true },
    resources: { ...(flag('resources', 'subscribe') ? { subscribe: true } : {}), ...(flag('resources', 'listChanged') ? { listChanged: true } : {}) },
    ...(any('prompts') ? { prompts: flag('prompts', 'listChanged') ? { listChanged: true } : {} } : {}),
    ...(any('logging') ? { logging: {} } : {}),
    ...(any('completions') ? { completions: {} } : {}),
  }
}

/**
 * An MCP proxy in front of one or more upstream servers: the SDK's `Client` toward each upstream,
 * its low-level `Server` toward the host. Everything passes through unchanged except `tools/list`
 * (deferral, `fetch_result`) and `tools/call` (over-budget results become an excerpt, a handle and
 * a `resource_link` to the spilled blob, readable as a `spillway://result/<id>` resource).
 *
 * @example
 * const proxy = createMcpProxy({ upstreams: [{ name: 'fs', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] }], store: memoryStore() })
 * await proxy.connect(new StdioServerTransport())
 */
export function createMcpProxy(options: McpProxyOptions & { pool?: SpillwayPool }): McpProxy {
  if (options.upstreams.length === 0) throw new SpillwayError('invalid_argument', 'the proxy needs at least one upstream server')
  const o = { ...DEFAULT_MCP_PROXY, ...options }
  const onWarning = options.onWarning ?? (() => undefined)
  const sessionId = options.sessionId ?? randomUUID()
  const pool =
    options.pool ??
    createSpillwayPool({
      ...(options.contextWindow !== undefined ? { contextWindow: options.contextWindow } : {}),
      ...options.spillway,
      profiles: { ...options.spillway?.profiles, ...options.profiles },
      store: options.store,
      resourceMaxChars: o.resourceMaxChars,
    })
  // Superset at construction so that every handler can be registered; `initialize` answers the honest set.
  const server = new Server(PROXY_INFO, { capabilities: { tools: { listChanged: true }, resources: { subscribe: true, listChanged: true }, prompts: { listChanged: true }, logging: {}, completions: {} } })
  let host: ClientCapabilities | undefined
  let catalog: { at: string; value: Promise<ToolCatalog> } | undefined

  const setup: UpstreamSetup = {
    clientInfo: PROXY_INFO,
    get capabilities() {
      return forwardableClientCapabilities(host)
    },
    install: (client) => installUpstreamForwarding(client, server, host, () => (catalog = undefined)),
    connectTimeoutMs: o.connectTimeoutMs,
    stderr: options.upstreamStderr ?? 'inherit',
    onWarning,
  }
  const upstreams = options.upstreams.map((spec) => createUpstream(spec, setup))
  const names = options.upstreams.map((u) => u.name)
  const router = createRouter(upstreams, names, o.requestTimeoutMs, pool, sessionId)

  server.setRequestHandler(InitializeRequestSchema, async (req): Promise<InitializeResult> => {
    host = req.params.capabilities
    const started = await Promise.allSettled(upstreams.map((u) => u.client()))
    const failed = started.flatMap((s) => (s.status === 'rejected' ? [plainMessage(s.reason)] : []))
    if (failed.length === upstreams.length) throw mcpFailure(ErrorCode.InternalError, failed.join('; '))
    for (const f of failed) onWarning(f)
    const instructions = upstreams.flatMap((u, i) => {
      const t = u.instructions()
      return t === undefined ? [] : [upstreams.length > 1 ? `[${names[i]}] ${t}` : t]
    })
    return {
      protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(req.params.protocolVersion) ? req.params.protocolVersion : LATEST_PROTOCOL_VERSION,
      capabilities: proxyCapabilities(upstreams.map((u) => u.capabilities())),
      serverInfo: PROXY_INFO,
      ...(instructions.length > 0 ? { instructions: instructions.join('\n\n') } : {}),
    }
  })

  /** The catalog, rebuilt when an upstream said its tools changed or was restarted. */
  function tools(): Promise<ToolCatalog> {
    const at = upstreams.map((u) => u.generation()).join(',')
    if (catalog === undefined || catalog.at !== at) {
      const value = router.listTools().then((lists) =>
        buildCatalog(lists, names, { mode: o.defer, contextWindow: o.contextWindow, expose: options.expose ?? [], keepOutputSchemas: options.keepOutputSchemas ?? false, fetchTool: pool.forBudget().fetchTool }),
      )
      catalog = { at, value }
      value.catch(() => (catalog = undefined))
    }
    return catalog.value
  }

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: (await tools()).listed }))

  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const { name } = req.params
    const args = req.params.arguments ?? {}
    const ctx = { sessionId }
    if (name === FETCH_TOOL_NAME) return text(await pool.forBudget().fetchTool.execute(args, ctx))
    const cat = await tools()
    let target = name
    let targetArgs: unknown = args
    if (cat.disclosure.deferred && (name === 'tool_search' || name === 'tool_describe')) return text(await cat.disclosure.bridge[name].execute(args, ctx))
    if (cat.disclosure.deferred && name === 'tool_call') {
      const r = cat.disclosure.resolveCall(args, ctx)
      if (!r.ok) return text(r.text, true)
      target = r.name
      targetArgs = r.args
    }
    const routed = cat.byName.get(target)
    if (routed === undefined) throw mcpFailure(ErrorCode.InvalidParams, `spillway: no tool named "${target}". Call tools/list for the available tools.`)
    const upstream = upstreams[routed.upstream]!
    const request = upstreamRequest({ ...req, params: { ...req.params, name: routed.original, arguments: targetArgs as Record<string, unknown> } })
    const what = `tools/call ${routed.original}`
    const fwd = forwardOptions(req, extra, o.requestTimeoutMs)
    const raw = (await upstream.request((c, opts) => c.request(request, ResultSchema, opts), what, fwd)) as CallToolResult
    await fwd.flushed()
    const declared = declaredBudget(routed.item)
    const sw = pool.forBudget(declared)
    const profile = profileHint(routed.item)
    const handle = (tool: string, result: string, a: unknown, toolCallId: string, maxChars?: number) =>
      sw.handle({ tool, result, args: a, sessionId, toolCallId, ...(maxChars !== undefined ? { maxChars } : {}), ...(profile !== undefined ? { profile } : {}) })
    return rewriteToolResult(raw, target, targetArgs, String(extra.requestId), handle, onWarning, pool.budgetOf(declared))
  })

  for (const entry of HOST_REQUESTS) server.setRequestHandler(entry.schema, (req, extra) => router.forward(entry, req, extra) as never)
  for (const schema of HOST_NOTIFICATIONS) {
    server.setNotificationHandler(schema, async (n) => {
      await Promise.all(upstreams.map((u) => u.client().then((c) => c.notification(n), () => undefined).catch(() => undefined)))
    })
  }

  let closing: Promise<void> | undefined
  function close(): Promise<void> {
    closing ??= (async () => {
      await Promise.resolve() // `closing` is set before server.close() re-enters through onclose
      // Host side first: that aborts the in-flight handlers, which sends notifications/cancelled upstream.
      await server.close().catch(() => undefined)
      await Promise.all(upstreams.map((u) => u.close()))
      if (options.pool === undefined) await pool.dispose()
    })()
    return closing
  }
  server.onclose = () => void close()

  return { server, sessionId, upstreams, pool, connect: (t) => server.connect(t), close }
}
