// The SDK's own Client, over real stdio, against `spillway mcp -- node server-everything` (the
// CLI run from source), compared with a direct connection to the same server in the same run.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import {
  CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema, LoggingMessageNotificationSchema,
  type ClientCapabilities, type LoggingMessageNotification,
} from '@modelcontextprotocol/sdk/types.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EVERYTHING, proxyArgs, stdioClient, tempDir, textOf } from './helpers.js'

const CAPS: ClientCapabilities = { sampling: {}, elicitation: {}, roots: { listChanged: true } }
const sampled: unknown[] = []
let rootUri = 'file:///tmp/spillway-root-xyz'
const logs: LoggingMessageNotification[] = []

function hostHandlers(c: Client): void {
  c.setRequestHandler(CreateMessageRequestSchema, async (req) => {
    sampled.push(req.params)
    return { model: 'host-mock', role: 'assistant', content: { type: 'text', text: 'sampled by the host' } }
  })
  c.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'decline' }))
  c.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: rootUri, name: 'xyz' }] }))
  c.setNotificationHandler(LoggingMessageNotificationSchema, async (n) => void logs.push(n))
}

let proxy: Client
let direct: Client
const store = tempDir('everything')

beforeAll(async () => {
  ;[{ client: proxy }, { client: direct }] = await Promise.all([
    stdioClient(proxyArgs(['--dir', store.dir, '--', process.execPath, EVERYTHING]), CAPS, hostHandlers),
    stdioClient([EVERYTHING], CAPS, () => undefined),
  ])
}, 60_000)

afterAll(async () => {
  await Promise.all([proxy?.close(), direct?.close()])
  store.remove()
})

describe('spillway mcp in front of server-everything (stdio)', () => {
  it('answers initialize with the upstream capabilities (tools and resources always, since it serves both)', () => {
    const up = direct.getServerCapabilities()!
    const px = proxy.getServerCapabilities()!
    expect(Object.keys(px).sort()).toEqual(['completions', 'logging', 'prompts', 'resources', 'tools'])
    expect(px.prompts).toEqual(up.prompts?.listChanged === true ? { listChanged: true } : {})
    expect(px.resources?.subscribe).toBe(up.resources?.subscribe === true ? true : undefined)
    expect(proxy.getInstructions()).toBe(direct.getInstructions())
  })

  it('lists the upstream tools unchanged (outputSchema aside) plus fetch_result, including those registered for the host capabilities', async () => {
    const [p, d] = await Promise.all([proxy.listTools(), direct.listTools()])
    const names = p.tools.map((t) => t.name)
    expect(names).toContain('fetch_result')
    // Registered by the server only because the proxy declared the host's sampling/elicitation/roots.
    for (const n of ['trigger-sampling-request', 'trigger-elicitation-request', 'get-roots-list']) expect(names).toContain(n)
    const strip = ({ outputSchema: _o, ...t }: (typeof d.tools)[number]) => t
    expect(p.tools.filter((t) => t.name !== 'fetch_result')).toEqual(d.tools.map(strip))
  })

  it('passes small results through identical to a direct call (text, image, resource links)', async () => {
    for (const [name, args] of [
      ['echo', { message: 'hello \u{1F600} world' }],
      ['get-sum', { a: 2, b: 40 }],
      ['get-tiny-image', {}],
      ['get-resource-links', { count: 3 }],
      ['get-annotated-message', { messageType: 'error', includeImage: true }],
    ] as const) {
      const [p, d] = await Promise.all([proxy.callTool({ name, arguments: args }), direct.callTool({ name, arguments: args })])
      expect(p, name).toEqual(d)
    }
  })

  it('keeps structuredContent of a small structured result', async () => {
    const r = await proxy.callTool({ name: 'get-structured-content', arguments: { location: 'Chicago' } })
    expect(r.structuredContent).toMatchObject({ temperature: expect.any(Number), conditions: expect.any(String) })
    expect(JSON.parse(textOf(r))).toEqual(r.structuredContent)
  })

  it('relays progress notifications with the host token', async () => {
    const seen: number[] = []
    const r = await proxy.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 1, steps: 4 } }, undefined, { onprogress: (p) => void seen.push(p.progress) })
    expect(textOf(r)).toContain('completed')
    // The proxy keeps the wire order (progress before the result). The SDK's own Protocol settles a
    // response at once but runs notification handlers a microtask later, so a host SDK client that
    // reads the last progress in the same chunk as the result drops it: a race of the client, also
    // seen on direct connections under load. Every progress before that one must arrive, in order.
    expect(seen.slice(0, 3)).toEqual([1, 2, 3])
    expect([3, 4]).toContain(seen.length)
  })

  it('forwards sampling, elicitation and roots requests from the server to the host', async () => {
    const s = await proxy.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'say hi', maxTokens: 5 } })
    expect(textOf(s)).toContain('sampled by the host')
    expect(sampled.length).toBe(1)
    const e = await proxy.callTool({ name: 'trigger-elicitation-request', arguments: {} })
    expect(textOf(e).toLowerCase()).toContain('decline')
    const roots = await proxy.callTool({ name: 'get-roots-list', arguments: {} })
    expect(textOf(roots)).toContain('file:///tmp/spillway-root-xyz')
  })

  it('forwards roots/list_changed from the host: the server re-reads the roots', async () => {
    rootUri = 'file:///tmp/spillway-root-changed'
    await proxy.sendRootsListChanged()
    const end = Date.now() + 5_000
    let text = ''
    while (!text.includes(rootUri) && Date.now() < end) {
      text = textOf(await proxy.callTool({ name: 'get-roots-list', arguments: {} }))
      await new Promise((r) => setTimeout(r, 100))
    }
    expect(text).toContain(rootUri)
  })

  it('passes resources, resource templates (plus the spillway template), subscriptions, prompts and completion', async () => {
    const [pr, dr] = await Promise.all([proxy.listResources(), direct.listResources()])
    expect(pr).toEqual(dr)
    const uri = pr.resources[0]!.uri
    expect(await proxy.readResource({ uri })).toEqual(await direct.readResource({ uri }))
    const [pt, dt] = await Promise.all([proxy.listResourceTemplates(), direct.listResourceTemplates()])
    expect(pt.resourceTemplates.slice(0, -1)).toEqual(dt.resourceTemplates)
    expect(pt.resourceTemplates.at(-1)?.uriTemplate).toBe('spillway://result/{id}')
    await expect(proxy.subscribeResource({ uri })).resolves.toEqual({})
    await expect(proxy.unsubscribeResource({ uri })).resolves.toEqual({})
    const [pp, dp] = await Promise.all([proxy.listPrompts(), direct.listPrompts()])
    expect(pp).toEqual(dp)
    expect(await proxy.getPrompt({ name: 'simple-prompt' })).toEqual(await direct.getPrompt({ name: 'simple-prompt' }))
    const args = { ref: { type: 'ref/prompt' as const, name: 'completable-prompt' }, argument: { name: 'department', value: 'En' } }
    const c = await proxy.complete(args)
    expect(c).toEqual(await direct.complete(args))
    expect(c.completion.values).toContain('Engineering')
  })

  it('passes pings, logging/setLevel and log notifications', async () => {
    await expect(proxy.ping()).resolves.toEqual({})
    await proxy.setLoggingLevel('debug')
    await proxy.callTool({ name: 'toggle-simulated-logging', arguments: {} })
    const end = Date.now() + 8_000
    while (logs.length === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 100))
    await proxy.callTool({ name: 'toggle-simulated-logging', arguments: {} })
    expect(logs.length).toBeGreaterThan(0)
    expect(logs[0]!.params.level).toBeDefined()
  })

  it('cancels an upstream call when the host aborts it, and keeps serving', async () => {
    const ac = new AbortController()
    setTimeout(() => ac.abort('test'), 300)
    await expect(proxy.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 20, steps: 20 } }, undefined, { signal: ac.signal })).rejects.toThrow()
    const r = await proxy.callTool({ name: 'echo', arguments: { message: 'still here' } })
    expect(textOf(r)).toBe('Echo: still here')
  })

  it('answers fetch_result for an unknown id with a sentence, not a crash', async () => {
    const r = await proxy.callTool({ name: 'fetch_result', arguments: { id: 'abcdefabcdef', mode: 'stat' } })
    expect(textOf(r)).toMatch(/not available in this session/)
  })

  it('reports an unknown tool as an MCP error', async () => {
    await expect(proxy.callTool({ name: 'no-such-tool', arguments: {} })).rejects.toThrow(/no tool named "no-such-tool"/)
  })
})
