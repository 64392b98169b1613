// The agent-loop tests, written once and run against ai 6 (loop.ai6.test.ts) and ai 7
// (loop.ai7.test.ts, which redirects 'ai' and 'ai/test' to the ai 7 install with vi.mock).
import { describe, expect, it } from 'vitest'
import * as ai from 'ai'
import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai'
import { MockEmbeddingModelV3 } from 'ai/test'
import { budgetFromContextWindow, createSpillway, createToolIndex, memoryStore, selectTools } from '@spillway/core'
import { embedderFromModel, spillTools, spillwayPrepareStep, toolDescriptors } from './index.js'
import { NEEDLE, NEEDLE_LINE, buildLog, callTool, offeredTools, say, scriptedModel, streamFromScript, toolResultsIn } from './loop.helpers.js'

const MAX_CHARS = 4000
const noArgs = jsonSchema<Record<string, never>>({ type: 'object', properties: {} })

function setup() {
  const spillway = createSpillway({ store: memoryStore(), maxChars: MAX_CHARS })
  const log = buildLog(300)
  const run_build = tool({ description: 'Run the build and return its log', inputSchema: noArgs, execute: async () => log })
  return { spillway, log, run_build }
}

export function agentLoopSuite(label: string, major: 6 | 7): void {
  describe(`spillTools in a generateText loop (${label})`, () => {
    it('runs on the intended ai major', () => {
      // toolSearch exists only in ai 7: proves the redirect in the ai 7 run took effect.
      expect('toolSearch' in ai).toBe(major === 7)
    })

    it('sends a 300 KB result as an excerpt within budget with the handle, grep finds the buried line, steps keep the raw output', async () => {
      const { spillway, log, run_build } = setup()
      // The expected excerpt comes from a separate instance, so nothing is pre-stored in the
      // loop's spillway: only the adapter's own wrapping can make the fetch below succeed.
      const reference = createSpillway({ store: memoryStore(), maxChars: MAX_CHARS })
      const expected = await reference.handle({ tool: 'run_build', args: {}, result: log, sessionId: 'reference' })
      let id = ''
      const { model, calls } = scriptedModel([
        () => [callTool('c1', 'run_build', {})],
        (call) => {
          // Like a real model: read the id from the handle block of the excerpt it was shown.
          id = /\bid ([0-9a-f]{12})\b/.exec(String(toolResultsIn(call)[0]?.output.value))?.[1] ?? 'no-id-in-excerpt'
          return [callTool('c2', 'fetch_result', { id, mode: 'grep', pattern: 'pkg-quokka' })]
        },
        () => say('found it'),
      ])
      const tools = spillTools({ run_build }, { spillway, sessionId: 's1' })
      const result = await generateText({ model, tools, prompt: 'build it', stopWhen: stepCountIs(5) })
      expect(id).toBe(expected.handle?.id)

      expect(calls).toHaveLength(3)
      const seen = toolResultsIn(calls[1]!)[0]!
      expect(seen.toolName).toBe('run_build')
      expect(seen.output.type).toBe('text')
      const excerpt = seen.output.value as string
      expect(log.length).toBeGreaterThan(300_000)
      expect(excerpt.length).toBeLessThanOrEqual(MAX_CHARS)
      expect(excerpt).toBe(expected.content)
      expect(excerpt).toContain(id)
      expect(excerpt).not.toContain(NEEDLE)

      const grep = toolResultsIn(calls[2]!).find((p) => p.toolCallId === 'c2')!
      const answer = grep.output.value as string
      expect(answer).toContain(NEEDLE)
      expect(answer).toMatch(new RegExp(`\\b${NEEDLE_LINE}\\b[^\\n]*${NEEDLE}`))

      expect(result.steps[0]!.toolResults[0]!.output).toBe(log)
      expect(result.text).toBe('found it')

      // The blob was stored in the loop's session, and only there.
      expect((await spillway.stats({ sessionId: 's1' })).blobs).toBe(1)
      expect((await spillway.stats({ sessionId: 'intruder' })).blobs).toBe(0)
      const stolen = await spillway.fetch({ id, mode: 'grep', pattern: 'pkg-quokka' }, { sessionId: 'intruder' })
      expect(stolen.ok).toBe(false)
      expect(stolen.text).not.toContain(NEEDLE)
    })

    it('sizes each result to the model’s window when given the model, unless maxChars was fixed', async () => {
      const log = buildLog(300)
      const run_build = tool({ description: 'Run the build and return its log', inputSchema: noArgs, execute: async () => log })
      const excerptFor = async (spillway: ReturnType<typeof createSpillway>, modelId: string): Promise<string> => {
        const { model, calls } = scriptedModel([() => [callTool('c1', 'run_build', {})], () => say('done')], modelId)
        await generateText({ model, tools: spillTools({ run_build }, { spillway, sessionId: 's', model }), prompt: 'build', stopWhen: stepCountIs(3) })
        return String(toolResultsIn(calls[1]!)[0]!.output.value)
      }
      // gpt-4o: 128K tokens -> budgetFromContextWindow = 25,600 chars, over the default 16,000
      const wide = await excerptFor(createSpillway({ store: memoryStore() }), 'gpt-4o-2024-08-06')
      expect(wide.length).toBeGreaterThan(16_000)
      expect(wide.length).toBeLessThanOrEqual(budgetFromContextWindow(128_000))
      // an id the table does not know keeps the spillway's default budget
      const unknown = await excerptFor(createSpillway({ store: memoryStore() }), 'mock-model-id')
      expect(unknown.length).toBeGreaterThan(12_000)
      expect(unknown.length).toBeLessThanOrEqual(16_000)
      // a budget the user fixed is kept
      const fixed = await excerptFor(createSpillway({ store: memoryStore(), maxChars: MAX_CHARS }), 'gpt-4o')
      expect(fixed.length).toBeLessThanOrEqual(MAX_CHARS)
    })

    it('raises the lines that name a distinctive word of the user’s last message', async () => {
      const lines = Array.from({ length: 2000 }, (_, i) => `cc -c module${i}.c -o module${i}.o`)
      for (let i = 0; i < 300; i++) lines[100 + i * 6] = `src/module${i}.c:${i + 1}:5: error: unknown type name 'thing${i}'`
      // (a quarter of the way in: the family's first, middle and last members are shown without the word)
      lines[100 + 75 * 6] = "src/tokenizer.c:77:5: error: unknown type name 'token'"
      const log = lines.join('\n')
      const make = tool({ description: 'Run make', inputSchema: noArgs, execute: async () => log })
      const seen = async (prompt: string): Promise<string> => {
        const { model, calls } = scriptedModel([() => [callTool('c1', 'make', {})], () => say('done')])
        const spillway = createSpillway({ store: memoryStore(), maxChars: 3000 })
        await generateText({ model, tools: spillTools({ make }, { spillway, sessionId: 's' }), prompt, stopWhen: stepCountIs(3) })
        return String(toolResultsIn(calls[1]!)[0]!.output.value)
      }
      expect(await seen('Why is the build failing?')).not.toContain('src/tokenizer.c:77:5')
      expect(await seen('Why does the build fail in tokenizer.c?')).toContain("src/tokenizer.c:77:5: error: unknown type name 'token'")
    })

    it('keeps a small result exactly as the SDK would send it, and JSON outputs as JSON', async () => {
      const { spillway } = setup()
      const small = tool({ description: 'small', inputSchema: noArgs, execute: async () => ({ ok: true, count: 3 }) })
      const { model, calls } = scriptedModel([() => [callTool('c1', 'small', {})], () => say('ok')])
      await generateText({ model, tools: spillTools({ small }, { spillway, sessionId: 's' }), prompt: 'go', stopWhen: stepCountIs(3) })
      expect(toolResultsIn(calls[1]!)[0]!.output).toEqual({ type: 'json', value: { ok: true, count: 3 } })
    })

    it('trims a large JSON output while steps keep the object', async () => {
      const { spillway } = setup()
      const rows = Array.from({ length: 3000 }, (_, i) => ({ id: i, name: `row-${i}`, status: i === 1500 ? 'failed' : 'ok' }))
      const query_db = tool({ description: 'query', inputSchema: noArgs, execute: async () => ({ rows }) })
      const { model, calls } = scriptedModel([() => [callTool('c1', 'query_db', {})], () => say('ok')])
      const result = await generateText({ model, tools: spillTools({ query_db }, { spillway, sessionId: 's' }), prompt: 'go', stopWhen: stepCountIs(3) })
      const seen = toolResultsIn(calls[1]!)[0]!
      expect(seen.output.type).toBe('text')
      expect((seen.output.value as string).length).toBeLessThanOrEqual(MAX_CHARS)
      expect(result.steps[0]!.toolResults[0]!.output).toEqual({ rows })
    })

    it('passes exempt tools untouched and runs a tool`s own toModelOutput first', async () => {
      const { spillway, log, run_build } = setup()
      const own = tool({
        description: 'own',
        inputSchema: noArgs,
        execute: async () => ({ log }),
        toModelOutput: ({ output }: { output: { log: string } }) => ({ type: 'text', value: output.log }),
      })
      const tools = spillTools({ run_build, own }, { spillway, sessionId: 's', exempt: ['run_build'] })
      expect(tools.run_build).toBe(run_build)
      const { model, calls } = scriptedModel([() => [callTool('c1', 'own', {})], () => say('ok')])
      await generateText({ model, tools, prompt: 'go', stopWhen: stepCountIs(3) })
      const seen = toolResultsIn(calls[1]!)[0]!.output.value as string
      expect(seen.length).toBeLessThanOrEqual(MAX_CHARS)
      expect(seen).not.toContain('"log"') // the excerpt is of the text toModelOutput produced
    })

    it('answers fetch_result only within the session', async () => {
      const { spillway, log } = setup()
      const { handle } = await spillway.handle({ tool: 'run_build', result: log, sessionId: 'owner' })
      const answerFor = async (sessionId: string) => {
        const { model, calls } = scriptedModel([() => [callTool('c1', 'fetch_result', { id: handle!.id, mode: 'grep', pattern: 'pkg-quokka' })], () => say('ok')])
        await generateText({ model, tools: spillTools({}, { spillway, sessionId }), prompt: 'go', stopWhen: stepCountIs(3) })
        return toolResultsIn(calls[1]!)[0]!.output.value as string
      }
      expect(await answerFor('owner')).toContain(NEEDLE)
      expect(await answerFor('intruder')).not.toContain(NEEDLE)
    })

    it('fails open: if the store is down the model gets the original output and the loop goes on', async () => {
      const { spillway } = setup()
      const broken = { ...spillway, handle: async () => Promise.reject(new Error('store down')) }
      const small = tool({ description: 'small', inputSchema: noArgs, execute: async () => 'x'.repeat(10_000) })
      const { model, calls } = scriptedModel([() => [callTool('c1', 'small', {})], () => say('ok')])
      const result = await generateText({ model, tools: spillTools({ small }, { spillway: broken, sessionId: 's' }), prompt: 'go', stopWhen: stepCountIs(3) })
      expect(toolResultsIn(calls[1]!)[0]!.output).toEqual({ type: 'text', value: 'x'.repeat(10_000) })
      expect(result.text).toBe('ok')
    })

    it('sends the excerpt when a chat UI replays history through convertToModelMessages', async () => {
      const { spillway, log, run_build } = setup()
      const tools = spillTools({ run_build }, { spillway, sessionId: 'ui-1' })
      const history = [
        { role: 'user' as const, parts: [{ type: 'text' as const, text: 'build it' }] },
        { role: 'assistant' as const, parts: [{ type: 'tool-run_build' as const, toolCallId: 'c1', state: 'output-available' as const, input: {}, output: log }] },
      ]
      const messages = await ai.convertToModelMessages(history as never, { tools })
      const parts = messages.flatMap((m) => (m.role === 'tool' ? (m.content as unknown as Array<{ type: string; output?: { type: string; value: unknown } }>) : []))
      const result = parts.find((p) => p.type === 'tool-result')!
      expect(result.output!.type).toBe('text')
      const excerpt = result.output!.value as string
      expect(excerpt.length).toBeLessThanOrEqual(MAX_CHARS)
      expect(excerpt).toMatch(/fetch_result/)
      expect(excerpt).not.toContain(NEEDLE)
      // Deterministic: replaying the same history gives the same prompt (provider caches hold).
      const again = await ai.convertToModelMessages(history as never, { tools })
      expect(JSON.stringify(again)).toBe(JSON.stringify(messages))
      expect((await spillway.stats({ sessionId: 'ui-1' })).blobs).toBe(1)
    })

    it('works the same in streamText', async () => {
      const { spillway, log, run_build } = setup()
      const { model, calls } = scriptedModel([() => [callTool('c1', 'run_build', {})], () => say('ok')])
      streamFromScript(model) // streaming: drive the mock's doStream from the same script
      const result = streamText({ model, tools: spillTools({ run_build }, { spillway, sessionId: 's' }), prompt: 'go', stopWhen: stepCountIs(3) })
      const steps = await result.steps
      expect(calls).toHaveLength(2)
      const excerpt = toolResultsIn(calls[1]!)[0]!.output.value as string
      expect(excerpt.length).toBeLessThanOrEqual(MAX_CHARS)
      expect(steps[0]!.toolResults[0]!.output).toBe(log)
    })

    it('trims the content parts MCP tools give (@ai-sdk/mcp: { type: "content", value: [text parts] }), keeping an image part', async () => {
      const { spillway, log } = setup()
      const image = { type: 'image-data', data: 'iVBORw0KGgo=', mediaType: 'image/png' } as const
      // What @ai-sdk/mcp's tools return: the MCP content blocks as content parts.
      const mcp_read = tool({
        description: 'Read a file through an MCP server',
        inputSchema: noArgs,
        execute: async () => ({ content: [{ type: 'text', text: log.slice(0, 150_000) }, { type: 'text', text: log.slice(150_000) }] }),
        toModelOutput: ({ output }) => ({ type: 'content', value: [...(output as { content: Array<{ type: 'text'; text: string }> }).content, image] }),
      })
      const { model, calls } = scriptedModel([() => [callTool('c1', 'mcp_read', {})], () => say('done')])
      await generateText({ model, tools: spillTools({ mcp_read }, { spillway, sessionId: 's1' }), prompt: 'read it', stopWhen: stepCountIs(3) })
      const seen = toolResultsIn(calls[1]!)[0]!
      expect(seen.output.type).toBe('content')
      const parts = seen.output.value as Array<{ type: string; text?: string }>
      // The image part stays (ai 7 sends it on as 'file-data').
      expect(parts).toHaveLength(2)
      expect(parts[0]!.type).toBe('text')
      expect(parts[1]).toMatchObject({ data: image.data, mediaType: image.mediaType })
      expect(parts[0]!.text!.length).toBeLessThanOrEqual(MAX_CHARS)
      const id = /\bid ([0-9a-f]{12})\b/.exec(parts[0]!.text!)?.[1]
      expect(id).toBeDefined()
      // The text parts, joined by a newline, are what was stored: the buried line is there.
      const grep = await spillway.fetch({ id: id!, mode: 'grep', pattern: 'pkg-quokka' }, { sessionId: 's1' })
      expect(grep.text).toContain(NEEDLE)
      const stat = (await spillway.fetch({ id: id!, mode: 'stat' }, { sessionId: 's1' })).text
      expect(stat).toContain(`chars: ${log.length + 1}\n`)
    })
  })

  describe(`spillwayPrepareStep (${label})`, () => {
    const names = ['github_create_issue', 'github_list_pulls', 'weather_forecast', 'send_email', 'calendar_create_event', 'read_file', 'run_build', 'translate_text']
    const describe_ = {
      github_create_issue: 'Create a new issue in a GitHub repository',
      github_list_pulls: 'List open pull requests of a GitHub repository',
      weather_forecast: 'Get the weather forecast for a city',
      send_email: 'Send an email message to a recipient',
      calendar_create_event: 'Create an event in the calendar',
      read_file: 'Read a file from the workspace',
      run_build: 'Run the project build',
      translate_text: 'Translate text into another language',
    } as const
    const makeTools = () =>
      Object.fromEntries(names.map((n) => [n, tool({ description: describe_[n as keyof typeof describe_], inputSchema: noArgs, execute: async () => `${n} done` })]))

    it('offers the selected tools each step, keeps called tools (sticky) and fetch_result', async () => {
      const spillway = createSpillway({ store: memoryStore() })
      const tools = spillTools(makeTools(), { spillway, sessionId: 's' })
      const index = await createToolIndex(await toolDescriptors(makeTools()))
      const { model, calls } = scriptedModel([() => [callTool('c1', 'send_email', {})], () => [callTool('c2', 'github_create_issue', {})], () => say('done')])
      await generateText({
        model,
        tools,
        messages: [
          { role: 'user', content: 'email Bob the summary' },
          { role: 'assistant', content: [{ type: 'text', text: 'sure' }] },
          { role: 'user', content: 'now open a github issue about the bug' },
        ],
        stopWhen: stepCountIs(4),
        prepareStep: spillwayPrepareStep({ index, k: 2 }),
      })
      const expectedFirst = await selectTools({ index, query: 'now open a github issue about the bug', k: 2 })
      expect(expectedFirst).toContain('github_create_issue')
      expect(offeredTools(calls[0]!)).toEqual(expect.arrayContaining([...expectedFirst, 'fetch_result']))
      expect(offeredTools(calls[0]!)).toHaveLength(expectedFirst.length + 1)
      expect(offeredTools(calls[0]!)).not.toContain('weather_forecast')
      // send_email was called in step 1: it stays offered although the query does not match it.
      expect(offeredTools(calls[1]!)).toContain('send_email')
      expect(offeredTools(calls[2]!)).toEqual(expect.arrayContaining(['send_email', 'github_create_issue', 'fetch_result']))
    })

    it('keeps the tools of the previous step in place when a sticky tool joins', async () => {
      // send_email is declared first but joins later: with a stable order it must come last.
      const order = ['send_email', ...names.filter((n) => n !== 'send_email')]
      const declared = Object.fromEntries(order.map((n) => [n, makeTools()[n]!]))
      const spillway = createSpillway({ store: memoryStore() })
      const tools = spillTools(declared, { spillway, sessionId: 's' })
      const index = await createToolIndex(await toolDescriptors(declared))
      const { model, calls } = scriptedModel([() => [callTool('c1', 'send_email', {})], () => say('done')])
      await generateText({ model, tools, prompt: 'list the github pull requests', stopWhen: stepCountIs(3), prepareStep: spillwayPrepareStep({ index, k: 2 }) })
      const [first, second] = [offeredTools(calls[0]!), offeredTools(calls[1]!)]
      expect(first).not.toContain('send_email')
      expect(second).toContain('send_email')
      if (major === 7) {
        // ai 7 sends tools in `toolOrder`: the previous list is an unchanged prefix.
        expect(second.slice(0, first.length)).toEqual(first)
        expect(second.at(-1)).toBe('send_email')
      } else {
        // ai 6 ignores `toolOrder`: tools go out in the record's order.
        expect(second).toEqual(Object.keys(tools).filter((n) => second.includes(n)))
      }
    })

    it('ranks with an AI SDK embedding model through embedderFromModel', async () => {
      // Toy embeddings: one dimension per topic word, so the mock is deterministic and meaningful.
      const topics = ['issue', 'weather', 'email', 'calendar', 'file', 'build', 'translate', 'pull']
      const vec = (text: string) => topics.map((t) => (text.toLowerCase().includes(t) ? 1 : 0))
      const embeddingModel = new MockEmbeddingModelV3({
        maxEmbeddingsPerCall: 100,
        doEmbed: async ({ values }) => ({ embeddings: values.map(vec), warnings: [] }),
      })
      const embedder = embedderFromModel(embeddingModel)
      expect(await embedder(['weather please'])).toEqual([vec('weather please')])
      const index = await createToolIndex(await toolDescriptors(makeTools()), { embedder })
      const hits = await index.search('what is the weather like', { k: 1, mode: 'semantic' })
      expect(hits[0]?.name).toBe('weather_forecast')
      expect(embeddingModel.doEmbedCalls.length).toBeGreaterThan(0)
    })
  })
}
