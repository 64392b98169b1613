// The recommended stack, run on ai 6 and ai 7: spillTools (results) + one prepareStep that sets
// activeTools with spillwayPrepareStep (schemas) and prunes old bulky tool calls with the SDK's
// own pruneMessages (history). See the README, "Composing with the SDK's own tools".
import { describe, expect, it } from 'vitest'
import { generateText, jsonSchema, pruneMessages, stepCountIs, tool } from 'ai'
import { createSpillway, createToolIndex, memoryStore } from '@spillway/core'
import { spillTools, spillwayPrepareStep, toolDescriptors } from './index.js'
import { NEEDLE, buildLog, callTool, offeredTools, say, scriptedModel, toolResultsIn } from './loop.helpers.js'

const MAX_CHARS = 4000
const noArgs = jsonSchema<Record<string, never>>({ type: 'object', properties: {} })
const titleArg = jsonSchema<{ title: string }>({ type: 'object', properties: { title: { type: 'string' } }, required: ['title'] })

function agentTools(log: string) {
  const simple = (description: string) => tool({ description, inputSchema: noArgs, execute: async () => 'ok' })
  return {
    run_build: tool({ description: 'Run the build and return its log', inputSchema: noArgs, execute: async () => log }),
    github_create_issue: tool({ description: 'Create a new issue in a GitHub repository', inputSchema: titleArg, execute: async ({ title }) => `issue #7: ${title}` }),
    weather_forecast: simple('Get the weather forecast for a city'),
    send_email: simple('Send an email message to a recipient'),
    calendar_create_event: simple('Create an event in the calendar'),
    translate_text: simple('Translate text into another language'),
  }
}

export function stackSuite(label: string): void {
  describe(`recommended stack: spillTools + spillwayPrepareStep + pruneMessages (${label})`, () => {
    it('keeps results, schemas and history lean in one loop, and the spilled result stays fetchable', async () => {
      const log = buildLog(300)
      const spillway = createSpillway({ store: memoryStore(), maxChars: MAX_CHARS })
      const raw = agentTools(log)
      const index = await createToolIndex(await toolDescriptors(raw))
      const select = spillwayPrepareStep({ index, k: 3 })
      const tools = spillTools(raw, { spillway, sessionId: 'chat-1' })
      let id = ''
      const { model, calls } = scriptedModel([
        () => [callTool('c1', 'run_build', {})],
        (call) => {
          id = /\bid ([0-9a-f]{12})\b/.exec(String(toolResultsIn(call)[0]?.output.value))?.[1] ?? 'no-id'
          return [callTool('c2', 'fetch_result', { id, mode: 'grep', pattern: 'pkg-quokka' })]
        },
        () => [callTool('c3', 'github_create_issue', { title: 'cache key ck-quokka-77 breaks the build' })],
        () => say('filed'),
      ])
      const result = await generateText({
        model,
        tools,
        prompt: 'The build fails: run it, find the cache key of pkg-quokka in its log and file a GitHub issue about it.',
        stopWhen: stepCountIs(6),
        prepareStep: async (step) => ({
          ...(await select(step)), // activeTools (+ toolOrder): chosen on the whole history
          // Results are already bounded by spillTools; only the bulky producer's old calls go.
          messages: pruneMessages({ messages: step.messages, toolCalls: [{ type: 'before-last-2-messages', tools: ['run_build'] }] }),
        }),
      })
      expect(result.text).toBe('filed')
      // Schemas: fetch_result always, at most k others, the irrelevant ones never.
      for (const call of calls) {
        const offered = offeredTools(call)
        expect(offered).toContain('fetch_result')
        expect(offered.length).toBeLessThanOrEqual(1 + 3 + 2) // k plus sticky tools already called
        expect(offered).not.toContain('weather_forecast')
      }
      expect(offeredTools(calls[0]!)).toEqual(expect.arrayContaining(['run_build', 'github_create_issue']))
      // Results: the 300 KB log reached the model as an excerpt with a handle, and fetch_result read it.
      const excerpt = String(toolResultsIn(calls[1]!)[0]!.output.value)
      expect(excerpt.length).toBeLessThanOrEqual(MAX_CHARS)
      expect(excerpt).toContain(id)
      expect(String(toolResultsIn(calls[2]!).find((p) => p.toolCallId === 'c2')!.output.value)).toContain(NEEDLE)
      // History: by the last call the old run_build call and result are pruned; the fetch stays.
      const last = toolResultsIn(calls[3]!).map((p) => p.toolName)
      expect(last).not.toContain('run_build')
      expect(last).toEqual(expect.arrayContaining(['fetch_result', 'github_create_issue']))
      // The raw log is still in the steps for the app, and the blob in the store.
      expect(result.steps[0]!.toolResults[0]!.output).toBe(log)
      expect((await spillway.fetch({ id, mode: 'stat' }, { sessionId: 'chat-1' })).ok).toBe(true)
    })
  })
}
