import { describe, expect, it, vi } from 'vitest'
import { SpillwayError } from '../errors.js'
import { createDisclosure } from './disclosure.js'
import { schemaTokens } from './gate.js'
import type { DisclosableTool } from './types.js'

const ctx = { sessionId: 's1' }

function makeTools(): Array<DisclosableTool & { execute: ReturnType<typeof vi.fn> }> {
  const core = ['terminal', 'read_file'].map((name) => ({ name, description: `Core ${name}.`, execute: vi.fn(async () => `${name} ran`) }))
  const services = ['github', 'slack', 'jira', 'notion', 'linear']
  const actions = ['create_item', 'list_items', 'delete_item', 'update_item']
  const mcp = services.flatMap((s) =>
    actions.map((a) => ({
      name: `${s}_${a}`,
      description: `${a.replace('_', ' ')} in ${s}: a long description that makes the schema cost tokens. `.repeat(3),
      parameters: { type: 'object', properties: { id: { type: 'string', description: `${s} id` }, count: { type: 'integer', minimum: 1 } }, required: ['id'], additionalProperties: false },
      execute: vi.fn(async (args: unknown) => ({ ok: true, tool: `${s}_${a}`, args })),
    })),
  )
  return [...core, ...mcp]
}

describe('createDisclosure: threshold gate', () => {
  it('auto defers only when deferrable schemas exceed thresholdPct of the window', async () => {
    const tools = makeTools()
    const tokens = tools.slice(2).reduce((s, t) => s + schemaTokens(t), 0)
    const below = await createDisclosure({ tools, core: ['terminal', 'read_file'], contextWindow: tokens * 10 }) // exactly 10%: not over
    expect(below.deferred).toBe(false)
    expect(below.deferrableTokens).toBe(tokens)
    expect(below.visible).toEqual(tools)
    expect(below.bridgeTools).toEqual([])
    const above = await createDisclosure({ tools, core: ['terminal', 'read_file'], contextWindow: tokens * 10 - 10 })
    expect(above.deferred).toBe(true)
    expect(above.visible.map((t) => t.name)).toEqual(['terminal', 'read_file'])
    expect(above.deferredNames).toHaveLength(20)
    expect(above.bridgeTools.map((t) => t.name)).toEqual(['tool_search', 'tool_describe', 'tool_call'])
    const pct = await createDisclosure({ tools, core: ['terminal', 'read_file'], contextWindow: tokens * 10, thresholdPct: 5 })
    expect(pct.deferred).toBe(true)
  })

  it('on and off force it; core tools are never deferred', async () => {
    const tools = makeTools()
    const on = await createDisclosure({ tools, core: ['terminal'], mode: 'on', contextWindow: 10_000_000 })
    expect(on.deferred).toBe(true)
    expect(on.visible.map((t) => t.name)).toEqual(['terminal'])
    expect(on.deferredNames).toContain('read_file')
    const off = await createDisclosure({ tools, core: [], mode: 'off', contextWindow: 100 })
    expect(off.deferred).toBe(false)
    expect(off.visible).toHaveLength(tools.length)
    const allCore = await createDisclosure({ tools, core: tools.map((t) => t.name), mode: 'on' })
    expect(allCore.deferred).toBe(false) // nothing to defer
  })

  it('refuses bad setups', async () => {
    const tools = makeTools()
    const code = (e: unknown): boolean => SpillwayError.is(e) && e.code === 'invalid_argument'
    await expect(createDisclosure({ tools: [...tools, { name: 'tool_call' }], core: [] })).rejects.toSatisfy(code)
    await expect(createDisclosure({ tools: [...tools, tools[0]!], core: [] })).rejects.toSatisfy(code)
    await expect(createDisclosure({ tools, core: [], thresholdPct: 150 })).rejects.toSatisfy(code)
  })
})

describe('bridge tools', () => {
  it('tool_search finds deferred tools, honours the limit (default 5, max 20) and never lists core tools', async () => {
    const d = await createDisclosure({ tools: makeTools(), core: ['terminal', 'read_file'], mode: 'on' })
    const res = JSON.parse(await d.bridge.tool_search.execute({ query: 'create github item' }, ctx))
    expect(res.tools[0].name).toBe('github_create_item')
    expect(res.total_available).toBe(20)
    expect((JSON.parse(await d.bridge.tool_search.execute({ query: 'item' }, ctx)).tools as unknown[]).length).toBe(5)
    expect((JSON.parse(await d.bridge.tool_search.execute({ query: 'item', limit: 500 }, ctx)).tools as unknown[]).length).toBe(20)
    expect((JSON.parse(await d.bridge.tool_search.execute(JSON.stringify({ query: 'item', limit: 2 }), ctx)).tools as unknown[]).length).toBe(2)
    expect(await d.bridge.tool_search.execute({ query: 'read file terminal core' }, ctx)).not.toMatch(/"read_file"|"terminal"/)
    expect(await d.bridge.tool_search.execute({}, ctx)).toMatch(/needs a non-empty "query"/)
    expect(await d.bridge.tool_search.execute({ query: 'zebra' }, ctx)).toMatch(/No tool matches/)
  })

  it('tool_describe returns the full schema of a deferred tool only', async () => {
    const tools = makeTools()
    const d = await createDisclosure({ tools, core: ['terminal'], mode: 'on' })
    const desc = JSON.parse(await d.bridge.tool_describe.execute({ name: 'slack_list_items' }, ctx))
    const orig = tools.find((t) => t.name === 'slack_list_items')!
    expect(desc).toEqual({ name: orig.name, description: orig.description, parameters: orig.parameters })
    expect(await d.bridge.tool_describe.execute({ name: 'terminal' }, ctx)).toMatch(/core tool: call it directly/)
    expect(await d.bridge.tool_describe.execute({ name: 'nope' }, ctx)).toMatch(/No tool named "nope"/)
  })

  it('tool_call validates, then runs the real tool; refuses core and bridge tools', async () => {
    const tools = makeTools()
    const d = await createDisclosure({ tools, core: ['terminal'], mode: 'on' })
    const jira = tools.find((t) => t.name === 'jira_delete_item')!
    const out = await d.bridge.tool_call.execute({ name: 'jira_delete_item', arguments: { id: 'J-1' } }, ctx)
    expect(JSON.parse(out)).toEqual({ ok: true, tool: 'jira_delete_item', args: { id: 'J-1' } })
    expect(jira.execute).toHaveBeenCalledWith({ id: 'J-1' }, ctx)
    // Arguments as a JSON string, as some models send them.
    expect(await d.bridge.tool_call.execute({ name: 'jira_delete_item', arguments: '{"id":"J-2"}' }, ctx)).toContain('J-2')

    jira.execute.mockClear()
    const bad = await d.bridge.tool_call.execute({ name: 'jira_delete_item', arguments: { count: 0 } }, ctx)
    expect(bad).toMatch(/Invalid arguments for jira_delete_item, not called/)
    expect(bad).toContain('/id: is required')
    expect(bad).toContain('/count: must be >= 1')
    expect(bad).toContain(JSON.stringify(jira.parameters))
    expect(jira.execute).not.toHaveBeenCalled()

    const terminal = tools.find((t) => t.name === 'terminal')!
    expect(await d.bridge.tool_call.execute({ name: 'terminal', arguments: {} }, ctx)).toBe('terminal is a core tool: call it directly, not through tool_call.')
    expect(terminal.execute).not.toHaveBeenCalled()
    for (const b of ['tool_call', 'tool_search', 'tool_describe']) {
      expect(await d.bridge.tool_call.execute({ name: b, arguments: { name: 'jira_delete_item', arguments: { id: 'x' } } }, ctx)).toMatch(/bridge tool: call it directly/)
    }
    expect(jira.execute).not.toHaveBeenCalled()
    expect(await d.bridge.tool_call.execute({ arguments: {} }, ctx)).toMatch(/tool_call needs/)
    expect(await d.bridge.tool_call.execute('not json', ctx)).toMatch(/tool_call needs/)
  })

  it('turns a failing tool into text, never a rejection', async () => {
    const d = await createDisclosure({ tools: [{ name: 'flaky', description: 'x', execute: () => { throw new Error('upstream 503') } }, { name: 'noexec' }], core: [], mode: 'on' })
    expect(await d.bridge.tool_call.execute({ name: 'flaky' }, ctx)).toBe('flaky failed: upstream 503')
    expect(await d.bridge.tool_call.execute({ name: 'noexec' }, ctx)).toMatch(/cannot be run through tool_call/)
  })

  it('when nothing is deferred, tool_call points to the direct tool', async () => {
    const d = await createDisclosure({ tools: makeTools(), core: [], mode: 'off' })
    expect(await d.bridge.tool_call.execute({ name: 'github_list_items', arguments: { id: 'x' } }, ctx)).toMatch(/already available: call it directly/)
  })
})

describe('scoping', () => {
  it('a session searches, describes and calls only the tools it was granted, checked at call time', async () => {
    const tools = makeTools()
    let granted: string[] = ['github_create_item', 'github_list_items']
    const d = await createDisclosure({ tools, core: ['terminal'], mode: 'on', grants: (id) => (id === 'admin' ? undefined : granted) })
    const search = JSON.parse(await d.bridge.tool_search.execute({ query: 'create item', limit: 20 }, ctx))
    expect(search.tools.map((t: { name: string }) => t.name).sort()).toEqual(['github_create_item', 'github_list_items'])
    expect(search.total_available).toBe(2)
    expect(await d.bridge.tool_describe.execute({ name: 'slack_create_item' }, ctx)).toMatch(/No tool named/)
    expect(await d.bridge.tool_call.execute({ name: 'slack_create_item', arguments: { id: 'x' } }, ctx)).toMatch(/No tool named/)
    expect(tools.find((t) => t.name === 'slack_create_item')!.execute).not.toHaveBeenCalled()
    // Admin (no restriction) reaches everything.
    expect(JSON.parse(await d.bridge.tool_search.execute({ query: 'create item', limit: 20 }, { sessionId: 'admin' })).total_available).toBe(21) // 20 + read_file (not core here)

    // Revoked between search and call: the call is refused.
    expect(d.resolveCall({ name: 'github_create_item', arguments: { id: '1' } }, ctx).ok).toBe(true)
    granted = []
    expect(d.resolveCall({ name: 'github_create_item', arguments: { id: '1' } }, ctx)).toEqual({ ok: false, text: expect.stringMatching(/No tool named/) })
    expect(await d.bridge.tool_search.execute({ query: 'create item' }, ctx)).toMatch(/No tools are available/)
  })

  it('fails closed when the grant lookup throws', async () => {
    const d = await createDisclosure({ tools: makeTools(), core: [], mode: 'on', grants: () => { throw new Error('db down') } })
    expect(d.resolveCall({ name: 'github_create_item', arguments: { id: '1' } }, ctx).ok).toBe(false)
  })
})

describe('unwrap and resolveCall', () => {
  it('unwrap shows the real tool behind tool_call, other calls unchanged', async () => {
    const d = await createDisclosure({ tools: makeTools(), core: [], mode: 'on' })
    expect(d.unwrap({ name: 'tool_call', args: { name: 'slack_create_item', arguments: { id: 'c1' } } })).toEqual({ name: 'slack_create_item', args: { id: 'c1' } })
    expect(d.unwrap({ name: 'tool_call', args: '{"name":"slack_create_item","arguments":"{\\"id\\":\\"c2\\"}"}' })).toEqual({ name: 'slack_create_item', args: { id: 'c2' } })
    expect(d.unwrap({ name: 'tool_call', args: { name: 'slack_create_item' } })).toEqual({ name: 'slack_create_item', args: {} })
    const other = { name: 'terminal', args: { cmd: 'ls' } }
    expect(d.unwrap(other)).toBe(other)
    const malformed = { name: 'tool_call', args: { arguments: {} } }
    expect(d.unwrap(malformed)).toBe(malformed)
  })

  it('resolveCall checks without executing', async () => {
    const tools = makeTools()
    const d = await createDisclosure({ tools, core: ['terminal'], mode: 'on' })
    expect(d.resolveCall({ name: 'notion_update_item', arguments: { id: 'n' } }, ctx)).toEqual({ ok: true, name: 'notion_update_item', args: { id: 'n' } })
    expect(d.resolveCall({ name: 'notion_update_item', arguments: {} }, ctx)).toMatchObject({ ok: false })
    expect(d.resolveCall({ name: 'terminal', arguments: {} }, ctx)).toMatchObject({ ok: false, text: expect.stringMatching(/call it directly/) })
    for (const t of tools) expect(t.execute).not.toHaveBeenCalled()
  })

  it('fails closed with a sentence when the session is missing', async () => {
    const tools = makeTools()
    const d = await createDisclosure({ tools, core: ['terminal'], mode: 'on' })
    const call = { name: 'notion_update_item', arguments: { id: 'n' } }
    for (const bad of [undefined, null, {}, { sessionId: 42 }]) {
      expect(d.resolveCall(call, bad as never)).toEqual({ ok: false, text: expect.stringMatching(/^The bridge needs the session of the conversation and none was given/) })
      for (const t of [d.bridge.tool_search, d.bridge.tool_describe, d.bridge.tool_call]) {
        const out = await t.execute({ query: 'notion', name: 'notion_update_item', arguments: { id: 'n' } }, bad as never)
        expect(out).toMatch(/^The bridge needs the session/)
        expect(out).not.toMatch(/Cannot read properties/)
      }
    }
    for (const t of tools) expect(t.execute).not.toHaveBeenCalled()
  })

  it('refuses a tool_call whose arguments hide a bad element past a long array, or are too big', async () => {
    const target: DisclosableTool & { execute: ReturnType<typeof vi.fn> } = {
      name: 'db_delete_rows',
      description: 'Delete rows by id.',
      parameters: { type: 'object', properties: { ids: { type: 'array', items: { type: 'integer' } } }, additionalProperties: false },
      execute: vi.fn(async () => 'deleted'),
    }
    const d = await createDisclosure({ tools: [...makeTools(), target], core: ['terminal'], mode: 'on' })
    const ids = [...Array.from({ length: 20_001 }, () => 1), '1; DROP TABLE users']
    const out = await d.bridge.tool_call.execute({ name: 'db_delete_rows', arguments: { ids } }, ctx)
    expect(out).toMatch(/^Invalid arguments for db_delete_rows, not called:\n- \/ids\/20001: expected integer, got string/)
    const big = await d.bridge.tool_call.execute({ name: 'db_delete_rows', arguments: { ids: Array.from({ length: 400_000 }, () => 12345) } }, ctx)
    expect(big).toMatch(/^Arguments not accepted, not called: too large to validate \(\d+ chars of JSON; the limit is 1000000\)/)
    expect(target.execute).not.toHaveBeenCalled()
    expect(await d.bridge.tool_call.execute({ name: 'db_delete_rows', arguments: { ids: [1, 2] } }, ctx)).toBe('deleted')
  })
})
