import { describe, expect, it } from 'vitest'
import { AIMessage, HumanMessage, ToolMessage, createAgent, fakeModel, tool } from 'langchain'
import { z } from 'zod'
import { createSpillway, createToolIndex, memoryStore, selectTools } from '@spillway/core'
import { spillwayMiddleware, toolDescriptors } from './index.js'
import { NEEDLE, NEEDLE_LINE, buildLog, recordOfferedTools } from './test.helpers.js'

const MAX_CHARS = 4000

function setup() {
  const spillway = createSpillway({ store: memoryStore(), maxChars: MAX_CHARS })
  const log = buildLog(300)
  const run_build = tool(async () => log, { name: 'run_build', description: 'Run the build and return its log', schema: z.object({}) })
  return { spillway, log, run_build }
}

const toolMessages = (messages: unknown[]) => messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m))

describe('spillwayMiddleware in a createAgent loop', () => {
  it('puts an excerpt with the handle in state, keeps the raw result in artifact, and fetch_result grep finds the buried line', async () => {
    const { spillway, log, run_build } = setup()
    const expected = await spillway.handle({ tool: 'run_build', args: {}, result: log, sessionId: 'thread-1' })
    const id = expected.handle?.id ?? ''
    expect(id).not.toBe('')
    const model = fakeModel()
      .respondWithTools([{ name: 'run_build', args: {}, id: 't1' }])
      .respondWithTools([{ name: 'fetch_result', args: { id, mode: 'grep', pattern: 'pkg-quokka' }, id: 't2' }])
      .respond(new AIMessage('found it'))
    const agent = createAgent({ model, tools: [run_build], middleware: [spillwayMiddleware({ spillway })] })
    const state = await agent.invoke({ messages: [new HumanMessage('build it')] }, { configurable: { thread_id: 'thread-1' } })

    const [buildResult, fetchResult] = toolMessages(state.messages)
    expect(buildResult?.name).toBe('run_build')
    const excerpt = buildResult!.content as string
    expect(log.length).toBeGreaterThan(300_000)
    expect(excerpt.length).toBeLessThanOrEqual(MAX_CHARS)
    expect(excerpt).toBe(expected.content)
    expect(excerpt).toContain(id)
    expect(excerpt).not.toContain(NEEDLE)
    expect(buildResult!.artifact).toBe(log)
    expect(buildResult!.tool_call_id).toBe('t1')

    // What the model received on its second call is the excerpt, not the raw log.
    const secondCall = model.calls[1]!.messages
    expect(toolMessages(secondCall)[0]!.content).toBe(excerpt)

    const answer = fetchResult!.content as string
    expect(answer).toMatch(new RegExp(`\\b${NEEDLE_LINE}\\b[^\\n]*${NEEDLE}`))
    expect(state.messages.at(-1)!.content).toBe('found it')
  })

  it('leaves small results as they are', async () => {
    const { spillway } = setup()
    const small = tool(async () => 'all good', { name: 'small', description: 'small', schema: z.object({}) })
    const model = fakeModel().respondWithTools([{ name: 'small', args: {}, id: 't1' }]).respond(new AIMessage('ok'))
    const agent = createAgent({ model, tools: [small], middleware: [spillwayMiddleware({ spillway })] })
    const state = await agent.invoke({ messages: [new HumanMessage('go')] })
    const [result] = toolMessages(state.messages)
    expect(result!.content).toBe('all good')
    expect(result!.artifact).toBeUndefined()
  })

  it('fails open: if the store is down the ToolMessage passes unchanged and the loop goes on', async () => {
    const { spillway, log, run_build } = setup()
    const broken = { ...spillway, handle: async () => Promise.reject(new Error('store down')) }
    const model = fakeModel().respondWithTools([{ name: 'run_build', args: {}, id: 't1' }]).respond(new AIMessage('ok'))
    const agent = createAgent({ model, tools: [run_build], middleware: [spillwayMiddleware({ spillway: broken })] })
    const state = await agent.invoke({ messages: [new HumanMessage('go')] })
    expect(toolMessages(state.messages)[0]!.content).toBe(log)
    expect(state.messages.at(-1)!.content).toBe('ok')
  })

  it('passes exempt tools untouched', async () => {
    const { spillway, log, run_build } = setup()
    const model = fakeModel().respondWithTools([{ name: 'run_build', args: {}, id: 't1' }]).respond(new AIMessage('ok'))
    const agent = createAgent({ model, tools: [run_build], middleware: [spillwayMiddleware({ spillway, exempt: ['run_build'] })] })
    const state = await agent.invoke({ messages: [new HumanMessage('go')] })
    expect(toolMessages(state.messages)[0]!.content).toBe(log)
  })

  it('scopes fetch_result to the thread: another thread cannot read the blob', async () => {
    const { spillway, log } = setup()
    const { handle } = await spillway.handle({ tool: 'run_build', result: log, sessionId: 'thread-a' })
    const answerIn = async (thread: string) => {
      const model = fakeModel()
        .respondWithTools([{ name: 'fetch_result', args: { id: handle!.id, mode: 'grep', pattern: 'pkg-quokka' }, id: 't1' }])
        .respond(new AIMessage('ok'))
      const agent = createAgent({ model, tools: [], middleware: [spillwayMiddleware({ spillway })] })
      const state = await agent.invoke({ messages: [new HumanMessage('go')] }, { configurable: { thread_id: thread } })
      return toolMessages(state.messages)[0]!.content
    }
    expect(await answerIn('thread-a')).toContain(NEEDLE)
    expect(await answerIn('thread-b')).not.toContain(NEEDLE)
  })

  it('offers the model only the selected tools, keeps called ones (sticky) and fetch_result', async () => {
    const { spillway } = setup()
    const specs = {
      github_create_issue: 'Create a new issue in a GitHub repository',
      github_list_pulls: 'List open pull requests of a GitHub repository',
      weather_forecast: 'Get the weather forecast for a city',
      send_email: 'Send an email message to a recipient',
      calendar_create_event: 'Create an event in the calendar',
      read_file: 'Read a file from the workspace',
      translate_text: 'Translate text into another language',
    }
    const tools = Object.entries(specs).map(([name, description]) => tool(async () => `${name} done`, { name, description, schema: z.object({}) }))
    const index = await createToolIndex(toolDescriptors(tools))
    const model = fakeModel()
      .respondWithTools([{ name: 'send_email', args: {}, id: 't1' }])
      .respond(new AIMessage('done'))
    const offered = recordOfferedTools(model)
    const agent = createAgent({ model, tools, middleware: [spillwayMiddleware({ spillway, select: { index, k: 2 } })] })
    const query = 'open a github issue about the crash'
    await agent.invoke({ messages: [new HumanMessage(query)] })

    const expected = await selectTools({ index, query, k: 2 })
    expect(expected).toContain('github_create_issue')
    expect(offered[0]!.sort()).toEqual([...expected, 'fetch_result'].sort())
    expect(offered[0]).not.toContain('weather_forecast')
    expect(offered[1]).toContain('send_email') // called in the first step: sticky
  })
})
