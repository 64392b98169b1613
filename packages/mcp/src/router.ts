import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js'
import {
  ErrorCode, ListPromptsResultSchema, ListResourcesResultSchema, ListResourceTemplatesResultSchema, ListToolsResultSchema, ResultSchema,
  type Prompt, type Request, type Resource, type ResourceTemplate, type Result, type ServerCapabilities, type ServerNotification, type ServerRequest, type Tool,
} from '@modelcontextprotocol/sdk/types.js'
import { mcpFailure } from './failure.js'
import { forwardOptions, upstreamRequest, type HOST_REQUESTS } from './forward.js'
import { mergeNamed, type Routed } from './names.js'
import type { SpillwayPool } from './pool.js'
import { mimeTypeOf } from './result.js'
import { SPILLWAY_URI_PREFIX } from './types.js'
import type { Upstream } from './upstream.js'

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>

/** Most pages the proxy reads of one upstream list before it stops (a server that pages forever). */
export const MAX_LIST_PAGES = 100

/** The resource template under which spilled results are listed. */
export const SPILLWAY_TEMPLATE: ResourceTemplate = {
  uriTemplate: `${SPILLWAY_URI_PREFIX}{id}`,
  name: 'spillway-result',
  title: 'Spilled tool result',
  description: 'The whole result of a tool call that was shown as an excerpt; the id is in the handle block and the resource_link. Readable by the session that spilled it.',
}

/** Routes forwarded host requests to the right upstream(s) and serves `spillway://` reads. */
export function createRouter(upstreams: readonly Upstream[], names: readonly string[], timeout: number, pool: SpillwayPool, sessionId: string) {
  const single = upstreams.length === 1
  let prompts: Routed<Prompt>[] = []
  const uriOwner = new Map<string, number>()
  const has = (i: number, cap: keyof ServerCapabilities): boolean => upstreams[i]!.capabilities()?.[cap] !== undefined

  async function send(i: number, req: Request, extra: Extra | undefined, what = req.method): Promise<Result> {
    const u = upstreams[i]!
    const opts = extra === undefined ? { timeout } : forwardOptions(req, extra, timeout)
    const result = await u.request((c) => c.request(upstreamRequest(req), ResultSchema, opts), what, opts)
    if ('flushed' in opts) await opts.flushed()
    return result
  }

  /** Every page of a list method from upstream `i`. */
  async function listAll<T>(i: number, method: string, key: string, extra: Extra | undefined): Promise<T[]> {
    const out: T[] = []
    let cursor: string | undefined
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const r = (await send(i, { method, ...(cursor !== undefined ? { params: { cursor } } : {}) }, extra)) as Record<string, unknown>
      out.push(...((r[key] as T[] | undefined) ?? []))
      cursor = typeof r['nextCursor'] === 'string' ? r['nextCursor'] : undefined
      if (cursor === undefined) break
    }
    return out
  }

  /** The tool lists of all upstreams (one failing upstream is skipped when others answer). */
  async function listTools(): Promise<Tool[][]> {
    await Promise.allSettled(upstreams.map((u) => u.client()))
    const lists = await Promise.allSettled(upstreams.map((_, i) => (has(i, 'tools') ? listAll<Tool>(i, 'tools/list', 'tools', undefined) : Promise.resolve([]))))
    if (lists.every((l) => l.status === 'rejected')) throw (lists[0] as PromiseRejectedResult).reason
    return lists.map((l) => (l.status === 'fulfilled' ? ListToolsResultSchema.parse({ tools: l.value }).tools : []))
  }

  /** Upstreams that have a capability (started lazily by `client()` before). */
  async function withCap(cap: keyof ServerCapabilities): Promise<number[]> {
    await Promise.allSettled(upstreams.map((u) => u.client()))
    return upstreams.flatMap((_, i) => (has(i, cap) ? [i] : []))
  }

  async function readSpilled(uri: string): Promise<Result> {
    const id = uri.slice(SPILLWAY_URI_PREFIX.length)
    const r = await pool.reader().fetch({ id, mode: 'full' }, { sessionId })
    if (!r.ok) throw mcpFailure(-32002, `spillway: ${r.text}`, { uri })
    const body = r.text.slice(r.text.indexOf('\n') + 1) // after the "[full result ...]" echo line
    const looksJson = /^\s*[[{]/.test(body.slice(0, 64))
    return { contents: [{ uri, mimeType: mimeTypeOf(looksJson ? 'json' : 'text'), text: body }] }
  }

  async function byUri(req: Request, extra: Extra): Promise<Result> {
    const uri = String((req.params as { uri?: unknown } | undefined)?.uri ?? '')
    if (req.method === 'resources/read' && uri.startsWith(SPILLWAY_URI_PREFIX)) return readSpilled(uri)
    if (single) return send(0, req, extra)
    const owner = uriOwner.get(uri)
    if (owner !== undefined) return send(owner, req, extra)
    let last: unknown
    for (const i of await withCap('resources')) {
      try {
        return await send(i, req, extra)
      } catch (err) {
        last = err
      }
    }
    throw last ?? mcpFailure(ErrorCode.InvalidParams, `spillway: no upstream serves ${uri}`)
  }

  async function forward(entry: (typeof HOST_REQUESTS)[number], req: Request, extra: Extra): Promise<Result> {
    switch (entry.route) {
      case 'all': {
        const targets = entry.capability === undefined ? upstreams.map((_, i) => i) : await withCap(entry.capability)
        await Promise.all(targets.map((i) => send(i, req, extra)))
        return {}
      }
      case 'by-uri':
        return byUri(req, extra)
      case 'by-prompt': {
        if (single) return send(0, req, extra)
        const name = String((req.params as { name?: unknown }).name)
        if (prompts.length === 0) await listPrompts(extra)
        const p = prompts.find((x) => x.name === name)
        if (p === undefined) throw mcpFailure(ErrorCode.InvalidParams, `spillway: no prompt named "${name}"`)
        return send(p.upstream, { ...req, params: { ...req.params, name: p.original } }, extra)
      }
      case 'by-completion-ref': {
        const ref = (req.params as { ref?: { type?: string; name?: string; uri?: string } }).ref
        if (single) return send(0, req, extra)
        if (ref?.type === 'ref/prompt') {
          if (prompts.length === 0) await listPrompts(extra)
          const p = prompts.find((x) => x.name === ref.name)
          if (p !== undefined) return send(p.upstream, { ...req, params: { ...req.params, ref: { ...ref, name: p.original } } }, extra)
        }
        return byUri({ ...req, params: { ...req.params, uri: ref?.uri } }, extra)
      }
      case 'list-prompts':
        if (single) return send(0, req, extra)
        return { prompts: (await listPrompts(extra)).map((p) => ({ ...p.item, name: p.name })) }
      case 'list-resources': {
        if (single) return (await withCap('resources')).length === 0 ? { resources: [] } : send(0, req, extra)
        const lists = await Promise.all((await withCap('resources')).map(async (i) => ({ i, items: ListResourcesResultSchema.parse({ resources: await listAll<Resource>(i, 'resources/list', 'resources', extra) }).resources })))
        for (const { i, items } of lists) for (const r of items) if (!uriOwner.has(r.uri)) uriOwner.set(r.uri, i)
        return { resources: lists.flatMap((l) => l.items) }
      }
      case 'list-templates': {
        const first = (req.params as { cursor?: unknown } | undefined)?.cursor === undefined
        if (single) {
          const up = (await withCap('resources')).length === 0 ? { resourceTemplates: [] } : ((await send(0, req, extra)) as { resourceTemplates: ResourceTemplate[] })
          return first ? { ...up, resourceTemplates: [...up.resourceTemplates, SPILLWAY_TEMPLATE] } : up
        }
        const lists = await Promise.all((await withCap('resources')).map((i) => listAll<ResourceTemplate>(i, 'resources/templates/list', 'resourceTemplates', extra)))
        return { resourceTemplates: [...ListResourceTemplatesResultSchema.parse({ resourceTemplates: lists.flat() }).resourceTemplates, SPILLWAY_TEMPLATE] }
      }
    }
  }

  async function listPrompts(extra: Extra | undefined): Promise<Routed<Prompt>[]> {
    const idx = await withCap('prompts')
    const lists = await Promise.all(upstreams.map((_, i) => (idx.includes(i) ? listAll<Prompt>(i, 'prompts/list', 'prompts', extra) : Promise.resolve([]))))
    prompts = mergeNamed(lists.map((l) => ListPromptsResultSchema.parse({ prompts: l }).prompts), names)
    return prompts
  }

  return { forward, listTools }
}
