import { describe, expect, it, vi } from 'vitest'
import { AIMessage, HumanMessage, ToolMessage, createAgent, fakeModel, tool } from 'langchain'
import { z } from 'zod'
import { createSpillway, createToolIndex, memoryStore, selectTools } from '@spillway/core'
import { DEFAULT_SESSION_WARNING, NO_SESSION_ANSWER, spillwayMiddleware, toolDescriptors, type SpillArtifact } from './index.js'
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
  it('puts an excerpt with the handle in state, only the handle and sizes in artifact, and fetch_result grep finds the buried line', async () => {
    const { spillway, log, run_build } = setup()
    // The expected excerpt comes from a separate instance, so nothing is pre-stored in the
    // loop's spillway: only the middleware's own wrapping can make the fetch below succeed.
    const reference = createSpillway({ store: memoryStore(), maxChars: MAX_CHARS })
    const expected = await reference.handle({ tool: 'run_build', args: {}, result: log, sessionId: 'reference' })
    let id = ''
    const model = fakeModel()
      .respondWithTools([{ name: 'run_build', args: {}, id: 't1' }])
      .respond((messages) => {
        // Like a real model: read the id from the handle block of the excerpt it was shown.
        id = /\bid ([0-9a-f]{12})\b/.exec(String(toolMessages(messages)[0]?.content))?.[1] ?? 'no-id-in-excerpt'
        return new AIMessage({ content: '', tool_calls: [{ name: 'fetch_result', args: { id, mode: 'grep', pattern: 'pkg-quokka' }, id: 't2', type: 'tool_call' }] })
      })
      .respond(new AIMessage('found it'))
    const agent = createAgent({ model, tools: [run_build], middleware: [spillwayMiddleware({ spillway })] })
    const state = await agent.invoke({ messages: [new HumanMessage('build it')] }, { configurable: { thread_id: 'thread-1' } })

    const [buildResult, fetchResult] = toolMessages(state.messages)
    expect(id).toBe(expected.handle?.id)
    expect(buildResult?.name).toBe('run_build')
    const excerpt = buildResult!.content as string
    expect(log.length).toBeGreaterThan(300_000)
    expect(excerpt.length).toBeLessThanOrEqual(MAX_CHARS)
    expect(excerpt).toBe(expected.content)
    expect(excerpt).toContain(id)
    expect(excerpt).not.toContain(NEEDLE)
    expect(buildResult!.artifact).toEqual({ spillway: { id, original: expected.outcome.original, kept: expected.outcome.kept } })
    expect((buildResult!.artifact as SpillArtifact).spillway.original.chars).toBe(log.length)
    expect(buildResult!.tool_call_id).toBe('t1')

    // What the model received on its second call is the excerpt, not the raw log.
    const secondCall = model.calls[1]!.messages
    expect(toolMessages(secondCall)[0]!.content).toBe(excerpt)

    const answer = fetchResult!.content as string
    expect(answer).toMatch(new RegExp(`\\b${NEEDLE_LINE}\\b[^\\n]*${NEEDLE}`))
    expect(state.messages.at(-1)!.content).toBe('found it')

    // The blob was stored in the thread's session, and only there.
    expect((await spillway.stats({ sessionId: 'thread-1' })).blobs).toBe(1)
    expect((await spillway.stats({ sessionId: 'thread-2' })).blobs).toBe(0)
    const stolen = await spillway.fetch({ id, mode: 'grep', pattern: 'pkg-quokka' }, { sessionId: 'thread-2' })
    expect(stolen.ok).toBe(false)
    expect(stolen.text).not.toContain(NEEDLE)
  })

  it('works the same when the agent is streamed (agent.stream, values mode)', async () => {
    const { spillway, log, run_build } = setup()
    const model = fakeModel().respondWithTools([{ name: 'run_build', args: {}, id: 't1' }]).respond(new AIMessage('done'))
    const agent = createAgent({ model, tools: [run_build], middleware: [spillwayMiddleware({ spillway })] })
    let last: { messages: unknown[] } | undefined
    let chunks = 0
    for await (const chunk of await agent.stream({ messages: [new HumanMessage('build it')] }, { configurable: { thread_id: 'stream-1' }, streamMode: 'values' })) {
      last = chunk as { messages: unknown[] }
      chunks++
      // No streamed state ever carries the raw log as a ToolMessage's content.
      for (const m of toolMessages(last.messages)) expect((m.content as string).length).toBeLessThanOrEqual(MAX_CHARS)
    }
    expect(chunks).toBeGreaterThan(2)
    const [result] = toolMessages(last!.messages)
    expect((result!.content as string).length).toBeLessThanOrEqual(MAX_CHARS)
    expect(result!.content).toMatch(/fetch_result/)
    expect(JSON.stringify(result!.artifact)).not.toContain(log.slice(0, 200)) // sizes, not the log
    expect((await spillway.stats({ sessionId: 'stream-1' })).blobs).toBe(1)
    // The model's second call read the excerpt.
    expect(toolMessages(model.calls[1]!.messages)[0]!.content).toBe(result!.content)
  })

  it('raises the lines that name a distinctive word of the user’s last message', async () => {
    const lines = Array.from({ length: 2000 }, (_, i) => `cc -c module${i}.c -o module${i}.o`)
    for (let i = 0; i < 300; i++) lines[100 + i * 6] = `src/module${i}.c:${i + 1}:5: error: unknown type name 'thing${i}'`
    // (a quarter of the way in: the family's first, middle and last members are shown without the word)
    lines[100 + 75 * 6] = "src/tokenizer.c:77:5: error: unknown type name 'token'"
    const log = lines.join('\n')
    const seen = async (question: string): Promise<string> => {
      const make = tool(async () => log, { name: 'make', description: 'Run make', schema: z.object({}) })
      const model = fakeModel().respondWithTools([{ name: 'make', args: {}, id: 'm1' }]).respond(new AIMessage('done'))
      const spillway = createSpillway({ store: memoryStore(), maxChars: 3000 })
      const agent = createAgent({ model, tools: [make], middleware: [spillwayMiddleware({ spillway })] })
      const state = await agent.invoke({ messages: [new HumanMessage(question)] }, { configurable: { thread_id: 'f' } })
      return String(toolMessages(state.messages)[0]!.content)
    }
    expect(await seen('Why is the build failing?')).not.toContain('src/tokenizer.c:77:5')
    expect(await seen('Why does the build fail in tokenizer.c?')).toContain("src/tokenizer.c:77:5: error: unknown type name 'token'")
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

  it('warns once per middleware when calls without a thread id share the default session', async () => {
    const { spillway, log, run_build } = setup()
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      const middleware = spillwayMiddleware({ spillway })
      for (let i = 0; i < 2; i++) {
        const model = fakeModel().respondWithTools([{ name: 'run_build', args: {}, id: 't1' }]).respond(new AIMessage('ok'))
        await createAgent({ model, tools: [run_build], middleware: [middleware] }).invoke({ messages: [new HumanMessage('go')] })
      }
      expect(warn.mock.calls).toEqual([[DEFAULT_SESSION_WARNING]])
      expect((await spillway.stats({ sessionId: 'default' })).blobs).toBe(1)
      expect(log.length).toBeGreaterThan(MAX_CHARS)
      // With a thread id there is nothing to warn about.
      warn.mockClear()
      const model = fakeModel().respondWithTools([{ name: 'run_build', args: {}, id: 't1' }]).respond(new AIMessage('ok'))
      await createAgent({ model, tools: [run_build], middleware: [spillwayMiddleware({ spillway })] }).invoke({ messages: [new HumanMessage('go')] }, { configurable: { thread_id: 'th' } })
      expect(warn).not.toHaveBeenCalled()
    } finally {
      warn.mockRestore()
    }
  })

  it('requireSession: without a thread id results are trimmed but not stored and fetch_result refuses', async () => {
    const { spillway, log, run_build } = setup()
    const reference = await createSpillway({ store: memoryStore(), maxChars: MAX_CHARS }).handle({ tool: 'run_build', args: {}, result: log, sessionId: 'ref' })
    const id = reference.handle!.id
    const model = fakeModel()
      .respondWithTools([{ name: 'run_build', args: {}, id: 't1' }])
      .respondWithTools([{ name: 'fetch_result', args: { id, mode: 'stat' }, id: 't2' }])
      .respond(new AIMessage('ok'))
    const agent = createAgent({ model, tools: [run_build], middleware: [spillwayMiddleware({ spillway, requireSession: true })] })
    const state = await agent.invoke({ messages: [new HumanMessage('go')] })
    const [built, fetched] = toolMessages(state.messages)
    const excerpt = built!.content as string
    expect(excerpt.length).toBeLessThanOrEqual(MAX_CHARS)
    expect(excerpt).not.toContain(id) // no handle: nothing was stored
    expect(built!.artifact).toBe(log) // not stored anywhere: the raw text stays, the only copy
    expect(fetched!.content).toBe(NO_SESSION_ANSWER)
    expect((await spillway.stats()).blobs).toBe(0)
    // With a thread id it spills as usual.
    const model2 = fakeModel().respondWithTools([{ name: 'run_build', args: {}, id: 't1' }]).respond(new AIMessage('ok'))
    const agent2 = createAgent({ model: model2, tools: [run_build], middleware: [spillwayMiddleware({ spillway, requireSession: true })] })
    const state2 = await agent2.invoke({ messages: [new HumanMessage('go')] }, { configurable: { thread_id: 'th-9' } })
    expect(toolMessages(state2.messages)[0]!.content).toContain(id)
    expect((await spillway.stats({ sessionId: 'th-9' })).blobs).toBe(1)
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

describe('spillwayMiddleware and tool errors', () => {
  const flaky = (message: string) =>
    tool(
      async () => {
        throw new Error(message)
      },
      { name: 'query_db', description: 'Query the DB', schema: z.object({}) },
    )
  const model = () => fakeModel().respondWithTools([{ name: 'query_db', args: {}, id: 't1' }]).respond(new AIMessage('gave up'))
  const toolMessage = (out: { messages: unknown[] }) => out.messages.find((m) => ToolMessage.isInstance(m)) as ToolMessage | undefined

  it('an error a tool throws reaches the model as LangChain gives it without middleware, not as the end of the run', async () => {
    const plain = await createAgent({ model: model(), tools: [flaky('connection refused: db.internal:5432')] }).invoke({ messages: [new HumanMessage('query it')] })
    const spillway = createSpillway({ store: memoryStore() })
    const agent = createAgent({ model: model(), tools: [flaky('connection refused: db.internal:5432')], middleware: [spillwayMiddleware({ spillway, sessionId: 's' })] })
    const out = await agent.invoke({ messages: [new HumanMessage('query it')] })
    expect(toolMessage(out)?.content).toBe(toolMessage(plain)?.content)
    expect(toolMessage(out)?.content).toBe('Error: connection refused: db.internal:5432\n Please fix your mistakes.')
    expect(toolMessage(out)?.status).toBe('error')
    expect(out.messages.at(-1)?.content).toBe('gave up')
  })

  it('a huge error is trimmed and spilled like any result; toolErrors: "throw" lets it propagate', async () => {
    const spillway = createSpillway({ store: memoryStore(), maxChars: 2_000 })
    const trace = Array.from({ length: 3_000 }, (_, i) => `    at frame${i} (/app/src/mod${i}.js:${i}:7)`).join('\n')
    const agent = createAgent({ model: model(), tools: [flaky(`pool exhausted\n${trace}`)], middleware: [spillwayMiddleware({ spillway, sessionId: 's' })] })
    const msg = toolMessage(await agent.invoke({ messages: [new HumanMessage('query it')] }))!
    expect(String(msg.content).length).toBeLessThanOrEqual(2_000)
    expect(msg.status).toBe('error')
    // Every line of the error is reachable through fetch_result.
    const id = /: id ([0-9a-f]{12,}),/.exec(String(msg.content))?.[1]
    expect(id).toBeDefined()
    const last = await spillway.fetch({ id: id!, mode: 'range', start: 3_001, count: 1 }, { sessionId: 's' })
    expect(last.text).toContain('at frame2999 (/app/src/mod2999.js:2999:7)')
    const throwing = createAgent({ model: model(), tools: [flaky('boom')], middleware: [spillwayMiddleware({ spillway, sessionId: 's', toolErrors: 'throw' })] })
    await expect(throwing.invoke({ messages: [new HumanMessage('query it')] })).rejects.toThrow('boom')
  })
})
