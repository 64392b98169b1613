// MCP suite: an MCP server of ours serving the corpus (one tool per kind), reached by an SDK
// client directly and through the @spillway/mcp proxy, in the same run, over in-process linked
// transports (so the figures are the proxy's own cost, not a pipe's). Reports what the client
// receives (o200k tokens, labelled lines / files / JSON facts still visible, same metrics as the
// trimming suite), the proxy's added latency per call (p50/p99 and the ratio to a direct call),
// and tools/list tokens with deferral at 50 / 300 / all ToolBench APIs.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js'
import { createSpillway, memoryStore, type ToolDescriptor } from '@spillway/core'
import { ReadBuffer } from '@modelcontextprotocol/sdk/shared/stdio.js'
import { createLineBuffer, createMcpProxy, DEFAULT_MCP_PROXY, type McpProxy } from '@spillway/mcp'
import { CASE_KINDS, TOOL_FOR_KIND, type CaseKind, type TrimCase } from '../corpus/types.js'
import { SPAN_LABEL_SOURCES, retention } from '../metrics/retention.js'
import { mean, quantile } from '../metrics/stats.js'
import { filesNamed, shapeStated } from '../metrics/structure.js'
import { o200k } from '../metrics/tokens.js'
import type { Progress } from '../progress.js'

/** Per kind: what the client receives with and without the proxy. */
export interface McpKindRow {
  kind: CaseKind
  cases: number
  tokensDirect: number
  tokensProxy: number
  /** tokensProxy / tokensDirect. */
  keptShare: number
  retention: number | null
  filesNamed: number | null
  shapeStated: number | null
  /** Median ms per call, direct and through the proxy (includes trim + spill). */
  msDirect: number
  msProxy: number
  /** Median ms of core's `spillway.handle` alone on the same results (trim + store), same run: the proxy's own share is msProxy - msDirect - msHandle. */
  msHandle: number
}

/** Added latency of the proxy on small results. */
export interface McpLatency {
  calls: number
  direct: { p50: number; p99: number }
  proxy: { p50: number; p99: number }
  /** proxy p50 - direct p50, in ms. */
  addedP50: number
  ratioP50: number
  ratioP99: number
}

/** tools/list as the client receives it, by catalog size and mode. */
export interface McpListRow {
  tools: number
  tokensDirect: number
  tokensAuto: number
  tokensOn: number
  /** Whether `auto` deferred at the default 128K window (10% gate). */
  autoDeferred: boolean
}

/** Reading one large upstream message off stdio: the SDK's ReadBuffer against the proxy's line buffer, same bytes, same run. */
export interface McpStdioRead {
  megabytes: number
  chunkBytes: number
  /** Median ms to read and parse the message with the SDK's `ReadBuffer` (what `StdioClientTransport` uses). */
  msSdk: number
  /** Median ms with `createLineBuffer` (what the proxy puts in its place). */
  msLineBuffer: number
  /** msSdk / msLineBuffer. */
  speedup: number
  runs: number
}

export interface McpReport {
  budgetChars: number
  stdioRead?: McpStdioRead
  kinds: McpKindRow[]
  latency: McpLatency
  toolsList: McpListRow[]
  notes: string[]
}

/** A low-level SDK server with the given tools; `call` answers tools/call. */
function upstreamServer(tools: Tool[], call: (name: string, args: Record<string, unknown>) => CallToolResult): Server {
  const s = new Server({ name: 'bench-upstream', version: '1' }, { capabilities: { tools: {} } })
  s.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }))
  s.setRequestHandler(CallToolRequestSchema, async (req) => call(req.params.name, req.params.arguments ?? {}))
  return s
}

/** A transport factory for the proxy: each (re)connect gets a fresh in-process server. */
function inProcess(make: () => Server): () => InMemoryTransport {
  return () => {
    const [client, server] = InMemoryTransport.createLinkedPair()
    void make().connect(server)
    return client
  }
}

async function directClient(make: () => Server): Promise<Client> {
  const c = new Client({ name: 'bench-direct', version: '1' })
  await c.connect(inProcess(make)())
  return c
}

async function proxiedClient(make: () => Server, opts: Partial<Parameters<typeof createMcpProxy>[0]> = {}): Promise<{ client: Client; proxy: McpProxy }> {
  const proxy = createMcpProxy({ upstreams: [{ name: 'bench', transport: inProcess(make) }], store: memoryStore(), ...opts })
  const [host, side] = InMemoryTransport.createLinkedPair()
  await proxy.connect(side)
  const client = new Client({ name: 'bench-host', version: '1' })
  await client.connect(host)
  return { client, proxy }
}

/** What a model would be given: the text blocks, plus each resource_link as JSON. */
function received(r: CallToolResult): { text: string; tokens: number } {
  const text = r.content.filter((b) => b.type === 'text').map((b) => (b as { text: string }).text).join('\n')
  const links = r.content.filter((b) => b.type === 'resource_link').map((b) => JSON.stringify(b))
  return { text, tokens: o200k(text) + links.reduce((s, l) => s + o200k(l), 0) }
}

const toolFor = (kind: CaseKind): Tool => ({ name: TOOL_FOR_KIND[kind] === 'terminal' ? `terminal_${kind.replace('-', '_')}` : TOOL_FOR_KIND[kind], description: `corpus ${kind}`, inputSchema: { type: 'object', properties: { i: { type: 'number' } } } })

async function timeCall(c: Client, name: string, args: Record<string, unknown>): Promise<{ ms: number; r: CallToolResult }> {
  const t = performance.now()
  const r = (await c.callTool({ name, arguments: args })) as CallToolResult
  return { ms: performance.now() - t, r }
}

async function corpusRows(cases: readonly TrimCase[], progress: Progress): Promise<McpKindRow[]> {
  const kinds = CASE_KINDS.filter((k) => cases.some((c) => c.kind === k))
  const byTool = new Map(kinds.map((k) => [toolFor(k).name, cases.filter((c) => c.kind === k)]))
  const make = () => upstreamServer(kinds.map(toolFor), (name, args) => ({ content: [{ type: 'text', text: byTool.get(name)![Number(args['i'])]!.text }] }))
  const direct = await directClient(make)
  const { client, proxy } = await proxiedClient(make)
  const rows: McpKindRow[] = []
  const sw = createSpillway({ store: memoryStore() })
  try {
    for (const kind of kinds) {
      const name = toolFor(kind).name
      const of = byTool.get(name)!
      let tokensDirect = 0
      let tokensProxy = 0
      const ret: number[] = []
      const files: number[] = []
      const shape: number[] = []
      const msD: number[] = []
      const msP: number[] = []
      const msH: number[] = []
      for (let i = 0; i < of.length; i++) {
        const c = of[i]!
        // Alternate which goes first, so neither always meets a warm cache.
        let d: Awaited<ReturnType<typeof timeCall>>
        let p: Awaited<ReturnType<typeof timeCall>>
        if (i % 2 === 0) (d = await timeCall(direct, name, { i })), (p = await timeCall(client, name, { i }))
        else (p = await timeCall(client, name, { i })), (d = await timeCall(direct, name, { i }))
        const t = performance.now()
        await sw.handle({ tool: name, result: c.text, sessionId: 'bench-handle', toolCallId: String(i) })
        msH.push(performance.now() - t)
        const dr = received(d.r)
        const pr = received(p.r)
        tokensDirect += dr.tokens
        tokensProxy += pr.tokens
        msD.push(d.ms)
        msP.push(p.ms)
        if (c.labelled !== undefined) {
          const v = retention(pr.text, c.labelled, c.labelSource !== undefined && SPAN_LABEL_SOURCES.has(c.labelSource) ? 'span' : 'line')
          if (v !== undefined) ret.push(v)
        }
        if (c.files !== undefined) {
          const v = filesNamed(pr.text, c.files)
          if (v !== undefined) files.push(v)
        }
        if (c.jsonFacts !== undefined && c.jsonFacts.length > 0) {
          const v = pr.text === c.text ? 1 : shapeStated(pr.text, c.jsonFacts)
          if (v !== undefined) shape.push(v)
        }
      }
      const nz = (xs: number[]): number | null => (xs.length === 0 ? null : mean(xs))
      rows.push({ kind, cases: of.length, tokensDirect, tokensProxy, keptShare: tokensProxy / tokensDirect, retention: nz(ret), filesNamed: nz(files), shapeStated: nz(shape), msDirect: quantile(msD, 0.5), msProxy: quantile(msP, 0.5), msHandle: quantile(msH, 0.5) })
      progress(`mcp: ${kind}: ${of.length} results, ${tokensDirect} -> ${tokensProxy} tokens`)
    }
  } finally {
    await Promise.all([direct.close(), client.close(), proxy.close(), sw.dispose()])
  }
  return rows
}

async function latency(calls: number): Promise<McpLatency> {
  const small = 'ok: 3 files changed, 12 insertions(+), 4 deletions(-)'
  const make = () => upstreamServer([{ name: 'status', inputSchema: { type: 'object' } }], () => ({ content: [{ type: 'text', text: small }] }))
  const direct = await directClient(make)
  const { client, proxy } = await proxiedClient(make)
  const d: number[] = []
  const p: number[] = []
  try {
    for (let i = 0; i < 50; i++) await Promise.all([timeCall(direct, 'status', {}), timeCall(client, 'status', {})]) // warm-up
    // Alternating blocks of 10, so drift in the machine's load hits both sides alike.
    for (let b = 0; b < calls / 10; b++) {
      const first = b % 2 === 0 ? [direct, d] : [client, p]
      const second = b % 2 === 0 ? [client, p] : [direct, d]
      for (const [c, out] of [first, second] as [Client, number[]][]) for (let i = 0; i < 10; i++) out.push((await timeCall(c, 'status', {})).ms)
    }
  } finally {
    await Promise.all([direct.close(), client.close(), proxy.close()])
  }
  const s = (xs: number[]) => ({ p50: quantile(xs, 0.5), p99: quantile(xs, 0.99) })
  const ds = s(d)
  const ps = s(p)
  return { calls: d.length, direct: ds, proxy: ps, addedP50: ps.p50 - ds.p50, ratioP50: ps.p50 / ds.p50, ratioP99: ps.p99 / ds.p99 }
}

async function toolsList(catalog: readonly ToolDescriptor[], sizes: readonly number[]): Promise<McpListRow[]> {
  const rows: McpListRow[] = []
  for (const n of sizes.map((x) => Math.min(x, catalog.length))) {
    const tools: Tool[] = catalog.slice(0, n).map((t) => ({ name: t.name, description: t.description ?? '', inputSchema: { type: 'object', ...(t.parameters ?? {}) } as Tool['inputSchema'] }))
    const make = () => upstreamServer(tools, () => ({ content: [] }))
    const tokensOf = async (c: Client) => o200k(JSON.stringify((await c.listTools()).tools))
    const direct = await directClient(make)
    const auto = await proxiedClient(make, { defer: 'auto' })
    const on = await proxiedClient(make, { defer: 'on' })
    try {
      const autoList = await auto.client.listTools()
      rows.push({ tools: n, tokensDirect: await tokensOf(direct), tokensAuto: o200k(JSON.stringify(autoList.tools)), tokensOn: await tokensOf(on.client), autoDeferred: autoList.tools.some((t) => t.name === 'tool_search') })
    } finally {
      await Promise.all([direct.close(), auto.client.close(), auto.proxy.close(), on.client.close(), on.proxy.close()])
    }
  }
  return rows
}

/**
 * One `megabytes` MB tools/call response fed in 64 KiB chunks (a pipe's chunk size) to the SDK's
 * ReadBuffer and to the proxy's line buffer, alternating which goes first; the message is read
 * and parsed by both (the same `deserializeMessage`).
 */
export function stdioRead(megabytes: number, runs: number): McpStdioRead {
  const chunkBytes = 64 * 1024
  const text = 'x'.repeat(99) + '\n'
  const line = Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: text.repeat(Math.round((megabytes * 1024 * 1024) / 100)) }] } })}\n`)
  const chunks: Buffer[] = []
  for (let at = 0; at < line.length; at += chunkBytes) chunks.push(line.subarray(at, at + chunkBytes))
  const time = (rb: { append(c: Buffer): void; readMessage(): unknown }): number => {
    const t = performance.now()
    let got = 0
    for (const c of chunks) {
      rb.append(c)
      while (rb.readMessage() !== null) got++
    }
    if (got !== 1) throw new Error(`stdio read bench: ${got} messages read, expected 1`)
    return performance.now() - t
  }
  const sdk: number[] = []
  const ours: number[] = []
  const max = DEFAULT_MCP_PROXY.upstreamMaxMessageBytes
  for (let i = 0; i < runs; i++) {
    if (i % 2 === 0) (sdk.push(time(new ReadBuffer({ maxBufferSize: max }))), ours.push(time(createLineBuffer(max))))
    else (ours.push(time(createLineBuffer(max))), sdk.push(time(new ReadBuffer({ maxBufferSize: max }))))
  }
  const msSdk = quantile(sdk, 0.5)
  const msLineBuffer = quantile(ours, 0.5)
  return { megabytes, chunkBytes, msSdk, msLineBuffer, speedup: msSdk / msLineBuffer, runs }
}

/** Runs the suite. `catalog`: the ToolBench tools (all 2,479 in the shared corpus). */
export async function runMcp(cases: readonly TrimCase[], catalog: readonly ToolDescriptor[], opts: { latencyCalls: number }, progress: Progress): Promise<McpReport> {
  const notes: string[] = []
  // Latency first, on a fresh heap: after the corpus rows, GC pauses from megabyte results land in its p99.
  const lat = await latency(opts.latencyCalls)
  const kinds = await corpusRows(cases, progress)
  progress(`mcp: latency p50 direct ${lat.direct.p50.toFixed(3)} ms, proxy ${lat.proxy.p50.toFixed(3)} ms (x${lat.ratioP50.toFixed(2)})`)
  if (catalog.length === 0) notes.push('no ToolBench catalog: tools/list rows skipped')
  const list = catalog.length === 0 ? [] : await toolsList(catalog, [50, 300, catalog.length])
  const read = stdioRead(20, 3)
  progress(`mcp: one ${read.megabytes} MB upstream message off stdio: SDK ReadBuffer ${read.msSdk.toFixed(0)} ms, line buffer ${read.msLineBuffer.toFixed(0)} ms (x${read.speedup.toFixed(1)})`)
  return { budgetChars: 16_000, stdioRead: read, kinds, latency: lat, toolsList: list, notes }
}

const pct = (x: number | null): string => (x === null ? '-' : `${(100 * x).toFixed(1)}%`)

/** The suite's markdown section. */
export function mcpMarkdown(r: McpReport): string {
  const lines = [
    '## MCP proxy (`@spillway/mcp`)',
    '',
    `Corpus results served by an MCP server of ours, read by an SDK client directly and through the proxy (default budget ${r.budgetChars} chars), in-process transports. Tokens: o200k of the text blocks plus each resource_link as JSON.`,
    '',
    '| kind | results | tokens direct | tokens via proxy | kept | labelled lines visible | files named | JSON facts | ms direct (p50) | ms proxy (p50) | ms core handle alone (p50) |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...r.kinds.map((k) => `| ${k.kind} | ${k.cases} | ${k.tokensDirect} | ${k.tokensProxy} | ${pct(k.keptShare)} | ${pct(k.retention)} | ${pct(k.filesNamed)} | ${pct(k.shapeStated)} | ${k.msDirect.toFixed(2)} | ${k.msProxy.toFixed(2)} | ${k.msHandle.toFixed(2)} |`),
    '',
    `Added latency on a small result (${r.latency.calls} calls each, alternating blocks): direct p50 ${r.latency.direct.p50.toFixed(3)} ms / p99 ${r.latency.direct.p99.toFixed(3)} ms; proxy p50 ${r.latency.proxy.p50.toFixed(3)} ms / p99 ${r.latency.proxy.p99.toFixed(3)} ms; +${r.latency.addedP50.toFixed(3)} ms at p50 (x${r.latency.ratioP50.toFixed(2)} p50, x${r.latency.ratioP99.toFixed(2)} p99).`,
    '',
    '| ToolBench tools | tools/list tokens direct | --defer auto (128K window) | --defer on |',
    '|---|---|---|---|',
    ...r.toolsList.map((t) => `| ${t.tools} | ${t.tokensDirect} | ${t.tokensAuto}${t.autoDeferred ? ' (deferred)' : ' (not deferred)'} | ${t.tokensOn} |`),
    ...(r.stdioRead !== undefined
      ? ['', `Reading one ${r.stdioRead.megabytes} MB upstream message off stdio in ${r.stdioRead.chunkBytes / 1024} KiB chunks (median of ${r.stdioRead.runs}, same run): the SDK's ReadBuffer ${r.stdioRead.msSdk.toFixed(0)} ms, the proxy's line buffer ${r.stdioRead.msLineBuffer.toFixed(0)} ms (x${r.stdioRead.speedup.toFixed(1)}).`]
      : []),
    ...r.notes.map((n) => `\nNote: ${n}`),
    '',
  ]
  return lines.join('\n')
}

/** Writes `mcp.json` and `mcp.md` into `out`; returns the file names. */
export function writeMcpReport(out: string, r: McpReport): string[] {
  writeFileSync(join(out, 'mcp.json'), `${JSON.stringify(r, null, 2)}\n`)
  writeFileSync(join(out, 'mcp.md'), mcpMarkdown(r))
  return ['mcp.json', 'mcp.md']
}
