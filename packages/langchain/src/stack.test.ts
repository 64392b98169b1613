// The recommended LangChain stack, in a real createAgent loop with fakeModel() and a checkpointer:
// spillwayMiddleware (results + zero-LLM selection) then contextEditingMiddleware (history).
// See the README, "Composing with LangChain's own middleware".
import { describe, expect, it } from 'vitest'
import { AIMessage, ClearToolUsesEdit, HumanMessage, ToolMessage, contextEditingMiddleware, createAgent, fakeModel, llmToolSelectorMiddleware, tool } from 'langchain'
import { MemorySaver } from '@langchain/langgraph'
import { z } from 'zod'
import { createSpillway, createToolIndex, memoryStore } from '@spillway/core'
import { spillwayMiddleware, toolDescriptors } from './index.js'
import { NEEDLE, buildLog, recordOfferedTools } from './test.helpers.js'

const MAX_CHARS = 4000
const toolMessages = (messages: unknown[]) => messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m))

function agentTools(log: string) {
  const simple = (name: string, description: string) => tool(async () => 'ok', { name, description, schema: z.object({}) })
  return [
    tool(async () => log, { name: 'run_build', description: 'Run the build and return its log', schema: z.object({}) }),
    tool(async ({ title }) => `issue #7: ${title}`, { name: 'github_create_issue', description: 'Create a new issue in a GitHub repository', schema: z.object({ title: z.string() }) }),
    simple('weather_forecast', 'Get the weather forecast for a city'),
    simple('send_email', 'Send an email message to a recipient'),
    simple('calendar_create_event', 'Create an event in the calendar'),
    simple('translate_text', 'Translate text into another language'),
  ]
}

/** run_build, then fetch_result on the id the model read from the excerpt, then the issue. */
function scriptedModel() {
  let id = ''
  const model = fakeModel()
    .respondWithTools([{ name: 'run_build', args: {}, id: 't1' }])
    .respond((messages) => {
      id = /\bid ([0-9a-f]{12})\b/.exec(String(toolMessages(messages)[0]?.content))?.[1] ?? 'no-id'
      return new AIMessage({ content: '', tool_calls: [{ name: 'fetch_result', args: { id, mode: 'grep', pattern: 'pkg-quokka' }, id: 't2', type: 'tool_call' }] })
    })
    .respondWithTools([{ name: 'github_create_issue', args: { title: 'cache key ck-quokka-77 breaks the build' }, id: 't3' }])
    .respond(new AIMessage('filed'))
  return { model, id: () => id }
}

const PROMPT = 'The build fails: run it, find the cache key of pkg-quokka in its log and file a GitHub issue about it.'

describe('recommended stack: spillwayMiddleware + contextEditingMiddleware (+ a checkpointer)', () => {
  it('keeps results, schemas, history and the checkpoint lean; spilled results stay fetchable', async () => {
    const log = buildLog(300)
    const tools = agentTools(log)
    const spillway = createSpillway({ store: memoryStore(), maxChars: MAX_CHARS })
    const index = await createToolIndex(await toolDescriptors(tools))
    const { model, id } = scriptedModel()
    const offered = recordOfferedTools(model)
    const checkpointer = new MemorySaver()
    const agent = createAgent({
      model,
      tools,
      checkpointer,
      middleware: [
        spillwayMiddleware({ spillway, select: { index, k: 3 } }),
        contextEditingMiddleware({ edits: [new ClearToolUsesEdit({ trigger: { tokens: 1000 }, keep: { messages: 1 }, excludeTools: ['fetch_result'] })] }),
      ],
    })
    const config = { configurable: { thread_id: 'chat-1' } }
    const state = await agent.invoke({ messages: [new HumanMessage(PROMPT)] }, config)
    expect(state.messages.at(-1)!.content).toBe('filed')

    // Schemas: fetch_result always offered, at most k others plus the sticky ones, never the weather.
    expect(offered).toHaveLength(4)
    for (const names of offered) {
      expect(names).toContain('fetch_result')
      expect(names).not.toContain('weather_forecast')
    }
    // Results: the model saw a bounded excerpt with the handle; fetch_result read the full log.
    const excerpt = String(toolMessages(model.calls[1]!.messages)[0]!.content)
    expect(excerpt.length).toBeLessThanOrEqual(MAX_CHARS)
    expect(excerpt).toContain(id())
    const fetched = toolMessages(model.calls[2]!.messages).find((m) => m.tool_call_id === 't2')!
    expect(String(fetched.content)).toContain(NEEDLE)
    // History: once the prompt passed the trigger, the old run_build excerpt was cleared from the
    // model's view (fetch_result's answer is excluded and stays)...
    const lastView = toolMessages(model.calls[3]!.messages)
    expect(lastView.find((m) => m.tool_call_id === 't1')!.content).toBe('[cleared]')
    expect(String(lastView.find((m) => m.tool_call_id === 't2')!.content)).toContain(NEEDLE)
    // ... and, in langchain 1.5, in the state and the checkpoint too: the edit replaces the
    // message in the array the state holds. The handle id left history with the excerpt; the
    // blob stays in the store (until its TTL) but the model can no longer name it.
    const latest = await checkpointer.getTuple(config)
    const saved = toolMessages((latest!.checkpoint.channel_values as { messages: unknown[] }).messages)
    expect(toolMessages(state.messages).find((m) => m.tool_call_id === 't1')!.content).toBe('[cleared]')
    expect(saved.find((m) => m.tool_call_id === 't1')!.content).toBe('[cleared]')
    expect(String(saved.find((m) => m.tool_call_id === 't2')!.content)).toContain(NEEDLE)
    // Checkpoint: the 300 KB log is in the store, not in the checkpointer.
    const [, bytes] = await checkpointer.serde.dumpsTyped(latest!.checkpoint)
    expect(bytes.length).toBeLessThan(log.length / 10)
    expect((await spillway.fetch({ id: id(), mode: 'stat' }, { sessionId: 'chat-1' })).ok).toBe(true)
  })

  it('with llmToolSelectorMiddleware instead of `select`, fetch_result must be in alwaysInclude', async () => {
    const run = async (alwaysInclude: string[]) => {
      const log = buildLog(300)
      const spillway = createSpillway({ store: memoryStore(), maxChars: MAX_CHARS })
      const { model } = scriptedModel()
      const offered = recordOfferedTools(model)
      const selector = fakeModel().structuredResponse({ tools: ['run_build', 'github_create_issue'] })
      // (casts: langchain's typing of this middleware's options does not resolve under this tsconfig)
      const selectorMiddleware = llmToolSelectorMiddleware({ model: selector, maxTools: 2, alwaysInclude } as never) as unknown as ReturnType<typeof spillwayMiddleware>
      const agent = createAgent({
        model,
        tools: agentTools(log),
        middleware: [spillwayMiddleware({ spillway }), selectorMiddleware],
      })
      await agent.invoke({ messages: [new HumanMessage(PROMPT)] }, { configurable: { thread_id: 'chat-2' } })
      return offered
    }
    const withFetch = await run(['fetch_result'])
    for (const names of withFetch) expect(names.sort()).toEqual(['fetch_result', 'github_create_issue', 'run_build'])
    const withoutFetch = await run([])
    expect(withoutFetch[1]).not.toContain('fetch_result') // the selector drops the reader of spilled results
  })
})
