import { describe, expect, it } from 'vitest'
import { AIMessage, HumanMessage, ToolMessage, createAgent, fakeModel, tool } from 'langchain'
import { z } from 'zod'
import { disclosureMiddleware } from './index.js'
import { recordOfferedTools } from './test.helpers.js'

const toolMessages = (messages: unknown[]) => messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m))

function makeTools() {
  const ran: Array<{ name: string; args: unknown }> = []
  const make = (name: string, description: string, schema: z.ZodObject) =>
    tool(
      async (args: unknown) => {
        ran.push({ name, args })
        return `${name} ran with ${JSON.stringify(args)}`
      },
      { name, description, schema },
    )
  const tools = [
    make('read_file', 'Read a file from the workspace', z.object({ path: z.string() })),
    make('github_create_issue', 'Create a new issue in a GitHub repository', z.object({ repo: z.string(), title: z.string() })),
    make('weather_forecast', 'Get the weather forecast for a city', z.object({ city: z.string() })),
    make('send_email', 'Send an email message to a recipient', z.object({ to: z.string(), body: z.string() })),
  ]
  return { tools, ran }
}

describe('disclosureMiddleware in a createAgent loop', () => {
  it('hides deferred tools, finds them with tool_search and runs the real tool through tool_call', async () => {
    const { tools, ran } = makeTools()
    const model = fakeModel()
      .respondWithTools([{ name: 'tool_search', args: { query: 'create github issue' }, id: 't1' }])
      .respondWithTools([{ name: 'tool_call', args: { name: 'github_create_issue', arguments: { repo: 'acme/app', title: 'Crash' } }, id: 't2' }])
      .respond(new AIMessage('filed'))
    const offered = recordOfferedTools(model)
    const middleware = await disclosureMiddleware({ tools, core: ['read_file'], mode: 'on' })
    const agent = createAgent({ model, tools, middleware: [middleware] })
    const state = await agent.invoke({ messages: [new HumanMessage('file a bug')] }, { configurable: { thread_id: 'th' } })

    expect(offered[0]!.sort()).toEqual(['read_file', 'tool_call', 'tool_describe', 'tool_search'])
    const [search, call] = toolMessages(state.messages)
    expect(JSON.parse(search!.content as string).tools[0].name).toBe('github_create_issue')
    expect(ran).toEqual([{ name: 'github_create_issue', args: { repo: 'acme/app', title: 'Crash' } }])
    expect(call!.content).toContain('github_create_issue ran with')
    expect(call!.tool_call_id).toBe('t2')
  })

  it('refuses out-of-scope, core and invalid calls without running anything', async () => {
    const { tools, ran } = makeTools()
    const model = fakeModel()
      .respondWithTools([{ name: 'tool_call', args: { name: 'send_email', arguments: { to: 'a@b.c', body: 'hi' } }, id: 't1' }])
      .respondWithTools([{ name: 'tool_call', args: { name: 'read_file', arguments: { path: 'x' } }, id: 't2' }])
      .respondWithTools([{ name: 'tool_call', args: { name: 'github_create_issue', arguments: { repo: 'acme/app' } }, id: 't3' }])
      .respondWithTools([{ name: 'send_email', args: { to: 'a@b.c', body: 'direct' }, id: 't4' }])
      .respond(new AIMessage('done'))
    const middleware = await disclosureMiddleware({
      tools,
      core: ['read_file'],
      mode: 'on',
      grants: (session) => (session === 'limited' ? ['github_create_issue', 'weather_forecast'] : undefined),
    })
    const agent = createAgent({ model, tools, middleware: [middleware] })
    const state = await agent.invoke({ messages: [new HumanMessage('go')] }, { configurable: { thread_id: 'limited' } })

    const [outOfScope, coreCall, invalid, direct] = toolMessages(state.messages)
    expect(outOfScope!.content).toContain('No tool named "send_email"')
    expect(coreCall!.content).toContain('core tool')
    expect(invalid!.content).toContain('Invalid arguments for github_create_issue')
    expect(direct!.content).toContain('No tool named "send_email"')
    expect(ran).toEqual([])
  })

  it('adds nothing and hides nothing when the tool set is small (auto)', async () => {
    const { tools } = makeTools()
    const model = fakeModel().respond(new AIMessage('hi'))
    const offered = recordOfferedTools(model)
    const middleware = await disclosureMiddleware({ tools, core: ['read_file'] })
    const agent = createAgent({ model, tools, middleware: [middleware] })
    await agent.invoke({ messages: [new HumanMessage('hello')] })
    expect(offered[0]!.sort()).toEqual(['github_create_issue', 'read_file', 'send_email', 'weather_forecast'])
  })
})
