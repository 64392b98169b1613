import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { parseArgs } from 'node:util'
import type { DisclosureMode } from '@spillway/core'
import type { HttpUpstreamType, UpstreamSpec } from '@spillway/mcp'
import { EXIT, UsageError, write, type CliIO } from './io.js'
import { openStore } from './store.js'

/** Options of `spillway mcp`, as `node:util` `parseArgs` reads them. */
export const MCP_OPTIONS = {
  url: { type: 'string' },
  transport: { type: 'string' },
  header: { type: 'string', multiple: true },
  config: { type: 'string' },
  name: { type: 'string' },
  listen: { type: 'string' },
  'allowed-hosts': { type: 'string' },
  'allowed-origins': { type: 'string' },
  'max-sessions': { type: 'string' },
  'session-idle': { type: 'string' },
  dir: { type: 'string' },
  store: { type: 'string' },
  'max-chars': { type: 'string' },
  'context-window': { type: 'string' },
  defer: { type: 'string' },
  expose: { type: 'string' },
  profile: { type: 'string', multiple: true },
  timeout: { type: 'string' },
  'keep-output-schemas': { type: 'boolean' },
  quiet: { type: 'boolean' },
} as const

type McpValues = ReturnType<typeof parseArgs<{ options: typeof MCP_OPTIONS; allowPositionals: true }>>['values']

function positiveInt(v: string | undefined, name: string): number | undefined {
  if (v === undefined) return undefined
  const n = Number(v)
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${name} must be an integer >= 1, got "${v}"`)
  return n
}

/** `KEY: VALUE` headers of `--header`. */
function headers(list: readonly string[] | undefined): Record<string, string> | undefined {
  if (list === undefined) return undefined
  const out: Record<string, string> = {}
  for (const h of list) {
    const i = h.indexOf(':')
    if (i <= 0) throw new UsageError(`--header must look like "Name: value", got "${h}"`)
    out[h.slice(0, i).trim()] = h.slice(i + 1).trim()
  }
  return out
}

/** `HOST:PORT` of `--listen` (loopback unless a host is given). */
export function parseListen(v: string): { host: string; port: number } {
  const m = /^(?:(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):)?(\d{1,5})$/.exec(v)
  const port = Number(m?.[2])
  if (m === null || port > 65535) throw new UsageError(`--listen must be HOST:PORT or PORT, got "${v}"`)
  return { host: (m[1] ?? '127.0.0.1').replace(/^\[|\]$/g, ''), port }
}

/** `--allowed-hosts a,b`, `--allowed-origins o1,o2`, `--max-sessions N` and `--session-idle S` of `--listen` (the HTTP endpoint's guards). */
export function httpGuardOf(values: McpValues, listening: boolean): { allowedHosts?: string[]; allowedOrigins?: string[]; maxSessions?: number; sessionIdleMs?: number } {
  const list = (v: string | undefined): string[] | undefined => v?.split(',').map((s) => s.trim()).filter((s) => s !== '')
  const hosts = list(values['allowed-hosts'])
  const origins = list(values['allowed-origins'])
  const maxSessions = positiveInt(values['max-sessions'], 'max-sessions')
  const idle = values['session-idle']
  // Seconds, or `never`; at most 24 days (a timer's 2^31-1 ms limit: past it, it would fire at once).
  const idleS = idle === undefined || idle === 'never' ? undefined : Number(idle)
  if (idleS !== undefined && (!Number.isInteger(idleS) || idleS < 1)) throw new UsageError(`--session-idle must be a whole number of seconds >= 1, or never; got "${idle}"`)
  if (idleS !== undefined && idleS * 1000 > 2 ** 31 - 1) throw new UsageError(`--session-idle must be at most ${Math.floor((2 ** 31 - 1) / 1000)} seconds, or never; got "${idle}"`)
  const sessionIdleMs = idle === 'never' ? Infinity : idleS !== undefined ? idleS * 1000 : undefined
  if (!listening && (hosts !== undefined || origins !== undefined || maxSessions !== undefined || idle !== undefined)) {
    throw new UsageError('--allowed-hosts, --allowed-origins, --max-sessions and --session-idle go with --listen')
  }
  for (const o of origins ?? []) {
    if (!/^https?:\/\/[^/\s]+$/.test(o)) throw new UsageError(`--allowed-origins takes origins like https://app.example:8443 (scheme, host, optional port; no path), got "${o}"`)
  }
  return { ...(hosts !== undefined ? { allowedHosts: hosts } : {}), ...(origins !== undefined ? { allowedOrigins: origins } : {}), ...(maxSessions !== undefined ? { maxSessions } : {}), ...(sessionIdleMs !== undefined ? { sessionIdleMs } : {}) }
}

/** `--profile TOOL=PROFILE` (repeatable): the trim profile of an exposed tool (`github__get_file_contents=read_file`). */
export function profilesOf(flags: readonly string[] | undefined): Record<string, { name: string }> | undefined {
  if (flags === undefined || flags.length === 0) return undefined
  const out: Record<string, { name: string }> = {}
  for (const f of flags) {
    const m = /^([^=\s]+)=(default|terminal|read_file|search|web|exempt)$/.exec(f)
    if (m === null) throw new UsageError(`--profile must be TOOL=PROFILE with a profile of default, terminal, read_file, search, web or exempt, got "${f}"`)
    out[m[1]!] = { name: m[2]! }
  }
  return out
}

/** The upstream servers named on the command line: `-- command args`, `--url`, or `--config FILE`. */
export async function upstreamsOf(values: McpValues, positionals: string[]): Promise<UpstreamSpec[]> {
  const given = [positionals.length > 0, values.url !== undefined, values.config !== undefined].filter(Boolean).length
  if (given !== 1) throw new UsageError('give exactly one upstream: "-- <command> [args...]", --url URL, or --config FILE')
  if (values.config !== undefined) {
    const { parseMcpServersConfig } = await import('@spillway/mcp')
    let json: unknown
    try {
      json = JSON.parse(readFileSync(values.config, 'utf8'))
    } catch (err) {
      throw new UsageError(`--config ${values.config}: ${(err as Error).message}`)
    }
    try {
      return parseMcpServersConfig(json)
    } catch (err) {
      throw new UsageError(`--config ${values.config}: ${(err as Error).message.replace(/^spillway: /, '')}`)
    }
  }
  if (values.transport !== undefined && values.url === undefined) throw new UsageError('--transport goes with --url (in a --config file, give a server "type": "sse")')
  if (values.url !== undefined) {
    try {
      new URL(values.url)
    } catch {
      throw new UsageError(`--url must be an http(s) URL, got "${values.url}"`)
    }
    // `--transport` of `--url` (Claude Code's `claude mcp add --transport` words, the config file's types); unset: Streamable HTTP, falling back to SSE.
    const { HTTP_UPSTREAM_TYPES } = await import('@spillway/mcp')
    const type = values.transport as HttpUpstreamType | undefined
    if (type !== undefined && !HTTP_UPSTREAM_TYPES.includes(type)) {
      throw new UsageError(`--transport must be ${HTTP_UPSTREAM_TYPES.join(', ')}, got "${type}" (leave it out to try Streamable HTTP, then SSE)`)
    }
    const h = headers(values.header)
    return [{ name: values.name ?? new URL(values.url).hostname, url: values.url, ...(type !== undefined ? { type } : {}), ...(h !== undefined ? { headers: h } : {}) }]
  }
  const [command, ...args] = positionals as [string, ...string[]]
  return [{ name: values.name ?? basename(command).replace(/\.[cm]?[jt]s$/, ''), command, args }]
}


/**
 * `spillway mcp [options] -- <command> [args...]`: spillway in front of an MCP server, served
 * over stdio (or Streamable HTTP with --listen). Runs until the host goes away or a signal comes.
 */
export async function runMcp(argv: string[], io: CliIO, parse: (args: string[], options: typeof MCP_OPTIONS) => { values: McpValues; positionals: string[] }): Promise<number> {
  const { values, positionals } = parse(argv, MCP_OPTIONS)
  const defer = values.defer ?? 'auto'
  if (defer !== 'auto' && defer !== 'on' && defer !== 'off') throw new UsageError(`--defer must be auto, on or off, got "${defer}"`)
  const maxChars = positiveInt(values['max-chars'], 'max-chars')
  const contextWindow = positiveInt(values['context-window'], 'context-window')
  const timeout = positiveInt(values.timeout, 'timeout')
  const listen = values.listen !== undefined ? parseListen(values.listen) : undefined
  const access = httpGuardOf(values, listen !== undefined)
  const upstreams = await upstreamsOf(values, positionals)
  const expose = values.expose?.split(',').map((s) => s.trim()).filter((s) => s !== '') ?? []
  const profiles = profilesOf(values.profile)

  const { createMcpProxy, createSpillwayPool, serveHttp, serveStdio } = await import('@spillway/mcp')
  if (values.store !== undefined && values.dir !== undefined) throw new UsageError('give --store or --dir, not both')
  // The CLI's one store rule: --store/--dir, else $SPILLWAY_STORE, else the fs store in the user's cache folder.
  const { encryptionFromEnv } = await import('@spillway/core')
  const encryption = encryptionFromEnv(io.env) // SPILLWAY_KEY: encryption at rest (a bad key is refused, never echoed)
  const store = await openStore({ store: values.store, dir: values.dir }, io.env)
  const pool = createSpillwayPool({ store, ...encryption, ...(maxChars !== undefined ? { maxChars } : {}), ...(contextWindow !== undefined ? { contextWindow } : {}), ...(profiles !== undefined ? { profiles } : {}) })
  const warn = (m: string): void => {
    if (!values.quiet) io.stderr.write(`spillway mcp: ${m}\n`)
  }
  const proxyFor = (sessionId: string) =>
    createMcpProxy({
      upstreams,
      store,
      pool,
      sessionId,
      defer: defer as DisclosureMode,
      expose,
      ...(contextWindow !== undefined ? { contextWindow } : {}),
      ...(timeout !== undefined ? { requestTimeoutMs: timeout } : {}),
      ...(values['keep-output-schemas'] ? { keepOutputSchemas: true } : {}),
      // The upstream's stderr is the user's log (Claude Desktop shows it); keep it unless --quiet.
      upstreamStderr: values.quiet ? 'ignore' : 'inherit',
      onWarning: warn,
    })

  const served = listen !== undefined ? await serveHttp(proxyFor, { ...listen, ...access, onWarning: warn }) : await serveStdio(proxyFor(crypto.randomUUID()), { stdin: io.stdin, stdout: io.stdout })
  if ('url' in served) warn(`listening on ${served.url as string}`)
  const stop = (): void => void served.close()
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  process.once('SIGHUP', stop)
  try {
    await served.closed
  } finally {
    process.off('SIGINT', stop)
    process.off('SIGTERM', stop)
    process.off('SIGHUP', stop)
    await pool.dispose()
    await store.dispose?.()
  }
  await write(io.stderr, '')
  return EXIT.ok
}
