import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import { ErrorCode, McpError, type ClientCapabilities, type Implementation, type ServerCapabilities } from '@modelcontextprotocol/sdk/types.js'
import { mcpFailure } from './failure.js'
import { useLineBuffer } from './line-buffer.js'
import { httpStatusFailure, remoteAttempts, remoteTransport, sseFallbackStatus, type RemoteTransportKind } from './remote.js'
import { DEFAULT_MCP_PROXY, type UpstreamSpec } from './types.js'

/** How an upstream connection is set up: what the proxy declares and which handlers it installs. */
export interface UpstreamSetup {
  clientInfo: Implementation
  /** Client capabilities declared to the upstream: what the host declared that the proxy can forward. */
  capabilities: ClientCapabilities
  /** Registers the server-to-client handlers on a fresh `Client` (called on every (re)connect). */
  install(client: Client, upstream: Upstream): void
  connectTimeoutMs: number
  stderr: 'inherit' | 'ignore' | 'pipe'
  onWarning(message: string): void
}

/** One upstream server: connected lazily, reconnected (a stdio server respawned) after it died or hung. */
export interface Upstream {
  readonly spec: UpstreamSpec
  /** The connected client (connecting first when needed). Rejects with an error (code + message) the host can read. */
  client(): Promise<Client>
  /** Capabilities of the live connection (after `client()` resolved). */
  capabilities(): ServerCapabilities | undefined
  instructions(): string | undefined
  /** Forwards a request; a crash or a time-out becomes an error that says so, and the next call reconnects. */
  request<T>(run: (client: Client, options: RequestOptions) => Promise<T>, what: string, options: RequestOptions): Promise<T>
  /** Counts (re)connections, so callers can see a restart. */
  generation(): number
  /** The transport of the live connection (`'sse'` after a URL upstream fell back to the legacy transport); `undefined` when not connected. */
  transport(): UpstreamTransportKind | undefined
  close(): Promise<void>
}

/** How the proxy speaks to an upstream: a spawned process, a URL (either HTTP transport) or a caller's transport. */
export type UpstreamTransportKind = 'stdio' | RemoteTransportKind | 'custom'

/** The transports to try, in order (a URL upstream without a type: Streamable HTTP, then SSE). */
function attemptsOf(spec: UpstreamSpec): UpstreamTransportKind[] {
  if ('transport' in spec) return ['custom']
  if ('url' in spec) return remoteAttempts(spec)
  return ['stdio']
}

function transportOf(spec: UpstreamSpec, kind: UpstreamTransportKind, stderr: UpstreamSetup['stderr'], onWarning: (m: string) => void): Transport {
  if ('transport' in spec) return spec.transport()
  if ('url' in spec) return remoteTransport(spec, kind === 'sse' ? 'sse' : 'streamable-http')
  const transport = new StdioClientTransport({
    command: spec.command,
    ...(spec.args !== undefined ? { args: spec.args } : {}),
    env: { ...getDefaultEnvironment(), ...(spec.env ?? {}) },
    ...(spec.cwd !== undefined ? { cwd: spec.cwd } : {}),
    stderr,
    // Results are trimmed by the proxy, so it must be able to read large ones.
    maxBufferSize: DEFAULT_MCP_PROXY.upstreamMaxMessageBytes,
  } as ConstructorParameters<typeof StdioClientTransport>[0])
  // The SDK's ReadBuffer is quadratic in the message size; large results are what the proxy is for.
  if (!useLineBuffer(transport, DEFAULT_MCP_PROXY.upstreamMaxMessageBytes)) onWarning('this MCP SDK version has no stdio read buffer to replace: large upstream results are read in quadratic time')
  return transport
}

/**
 * The SDK's `Protocol` runs notification handlers a microtask later but settles responses at
 * once, so a progress notification read in the same chunk as its response is dropped (the
 * response removes the progress handler first). Delivering responses a microtask later keeps the
 * wire order: every progress notification the server sent before its result reaches the host.
 */
function orderedResponses(transport: Transport): Transport {
  const start = transport.start.bind(transport)
  transport.start = async () => {
    const deliver = transport.onmessage
    if (deliver !== undefined) {
      transport.onmessage = (message, extra) => {
        if ('id' in message && !('method' in message)) queueMicrotask(() => deliver(message, extra))
        else deliver(message, extra)
      }
    }
    return start()
  }
  return transport
}

/** An error's message without the `MCP error <code>: ` prefixes the SDK adds each time it wraps one. */
export function plainMessage(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).replace(/^(?:MCP error -?\d+: )+/, '')
}

const label = (spec: UpstreamSpec): string => `upstream "${spec.name}"`

/**
 * `connecting` bounded by `ms`. The SDK's connect time-out covers the `initialize` request only,
 * not the transport's start: an SSE server that opens the stream but never names its message
 * endpoint would otherwise hold the connect (and the host's call) forever.
 */
async function within<T>(connecting: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new McpError(ErrorCode.RequestTimeout, `no answer within ${ms} ms`)), ms)
  })
  connecting.catch(() => undefined) // settles after the time-out when the client is closed: not an unhandled rejection
  try {
    return await Promise.race([connecting, expired])
  } finally {
    clearTimeout(timer)
  }
}

/** An {@link Upstream} for `spec`. Nothing is spawned until the first `client()`. */
export function createUpstream(spec: UpstreamSpec, setup: UpstreamSetup): Upstream {
  let live: { client: Client; kind: UpstreamTransportKind; closed: boolean } | undefined
  let connecting: Promise<Client> | undefined
  let gen = 0
  let closedForGood = false

  /** One connection attempt over `kind`. A `probe` (an attempt with a fallback after it) stays quiet: its failure is not news. */
  async function open(kind: UpstreamTransportKind, timeout: number, probe: boolean): Promise<Client> {
    const client = new Client(setup.clientInfo, { capabilities: setup.capabilities })
    const state = { client, kind, closed: false, connected: false }
    client.onclose = () => {
      state.closed = true
      if (live === state) live = undefined
      if (!closedForGood && (state.connected || !probe)) setup.onWarning(`${label(spec)} closed the connection; it will be restarted on the next call`)
    }
    client.onerror = (err) => {
      if (state.connected || !probe) setup.onWarning(`${label(spec)}: ${plainMessage(err)}`)
    }
    setup.install(client, api)
    try {
      await within(client.connect(orderedResponses(transportOf(spec, kind, setup.stderr, setup.onWarning)), { timeout }), timeout)
    } catch (err) {
      await client.close().catch(() => undefined)
      throw err
    }
    state.connected = true
    gen++
    live = state
    return client
  }

  async function connect(): Promise<Client> {
    const attempts = attemptsOf(spec)
    const deadline = Date.now() + setup.connectTimeoutMs
    let fellBack = ''
    for (const [i, kind] of attempts.entries()) {
      const last = i === attempts.length - 1
      try {
        return await open(kind, Math.max(1, deadline - Date.now()), !last)
      } catch (err) {
        const status = sseFallbackStatus(err)
        if (!last && status !== undefined) {
          fellBack = ` over Streamable HTTP (HTTP ${status} on initialize) nor over the legacy HTTP+SSE transport`
          setup.onWarning(`${label(spec)} answered the Streamable HTTP initialize with HTTP ${status}; using the legacy HTTP+SSE transport`)
          continue
        }
        const hint = status !== undefined && kind === 'streamable-http' ? '; if it is a legacy HTTP+SSE server, set its type to "sse" (--transport sse)' : ''
        throw mcpFailure(ErrorCode.InternalError, `spillway: could not start ${label(spec)}${fellBack}: ${httpStatusFailure(err) ?? plainMessage(err)}${hint}`)
      }
    }
    throw mcpFailure(ErrorCode.InternalError, `spillway: could not start ${label(spec)}: no transport to try`)
  }

  async function drop(): Promise<void> {
    const current = live
    live = undefined
    await current?.client.close().catch(() => undefined)
  }

  const api: Upstream = {
    spec,
    async client() {
      if (closedForGood) throw mcpFailure(ErrorCode.ConnectionClosed, `spillway: the proxy is shutting down`)
      if (live !== undefined && !live.closed) return live.client
      connecting ??= connect().finally(() => (connecting = undefined))
      return connecting
    },
    capabilities: () => live?.client.getServerCapabilities(),
    instructions: () => live?.client.getInstructions(),
    generation: () => gen,
    transport: () => (live !== undefined && !live.closed ? live.kind : undefined),
    async request(run, what, options) {
      const client = await api.client()
      try {
        return await run(client, options)
      } catch (err) {
        if (!(err instanceof McpError)) throw err
        if (err.code === ErrorCode.ConnectionClosed && !options.signal?.aborted) {
          await drop()
          throw mcpFailure(ErrorCode.InternalError, `spillway: ${label(spec)} closed the connection during ${what} (it exited or crashed); it will be restarted on the next call`)
        }
        if (err.code === ErrorCode.RequestTimeout) {
          // A server that does not answer a ping either is hung: restart it for the next call.
          const alive = await client.ping({ timeout: 2_000 }).then(() => true, () => false)
          if (!alive) void drop() // stopping it may take seconds (SIGTERM after stdin closes): do not hold the answer
          throw mcpFailure(
            ErrorCode.RequestTimeout,
            `spillway: ${label(spec)} did not answer ${what} within ${options.timeout ?? '?'} ms${alive ? '' : '; it does not answer pings either and will be restarted on the next call'}`,
          )
        }
        throw err
      }
    },
    async close() {
      closedForGood = true
      await connecting?.catch(() => undefined)
      await drop()
    },
  }
  return api
}
