// A tool that throws: its error goes through the same budget as a result (run on ai 6 and ai 7).
import { describe, expect, it } from 'vitest'
import { generateText, jsonSchema, stepCountIs, streamText, tool, type ToolSet } from 'ai'
import { createSpillway, memoryStore, type Spillway } from '@spillway/core'
import { spillTools } from './index.js'
import { buildLog, callTool, say, scriptedModel, streamFromScript, toolResultsIn } from './loop.helpers.js'

const MAX_CHARS = 4000
const noArgs = jsonSchema<Record<string, never>>({ type: 'object', properties: {} })

function failingBuild(message: string) {
  return tool({ description: 'Run the build', inputSchema: noArgs, execute: async (): Promise<string> => { throw new TypeError(message) } })
}

/** What the model received for the failed call, and the id named in its handle block. */
function errorSeen(call: Parameters<typeof toolResultsIn>[0]) {
  const part = toolResultsIn(call).find((p) => p.toolCallId === 'c1')!
  const text = String(part.output.value)
  return { type: part.output.type, text, id: /\bid ([0-9a-f]{12})\b/.exec(text)?.[1] ?? 'no-id' }
}

/** The model-facing output of the failed call `c1`, with the tools wrapped by `spillway` (or bare). */
async function errorOutput(tools: ToolSet, spillway?: Spillway) {
  const { model, calls } = scriptedModel([() => [callTool('c1', 'run_build', {})], () => say('ok')])
  await generateText({ model, tools: spillway ? spillTools(tools, { spillway, sessionId: 's' }) : tools, prompt: 'go', stopWhen: stepCountIs(3) })
  return toolResultsIn(calls[1]!).find((p) => p.toolCallId === 'c1')!.output
}

export function errorSuite(label: string): void {
  describe(`a tool that throws (${label})`, () => {
    it('a 50,000-char error reaches the model trimmed, spilled and still an error; fetch_result greps it; steps keep the original error', async () => {
      // Regression (issue 13): the SDK sent the whole message as error-text, past toModelOutput.
      const spillway = createSpillway({ store: memoryStore(), maxChars: MAX_CHARS })
      const message = buildLog(50)
      const middle = message.split('\n')[350]! // a plain line deep in the omitted middle
      let id = ''
      const { model, calls } = scriptedModel([
        () => [callTool('c1', 'run_build', {})],
        (call) => {
          id = errorSeen(call).id
          return [callTool('c2', 'fetch_result', { id, mode: 'grep', pattern: middle, literal: true })]
        },
        () => say('done'),
      ])
      const tools = spillTools({ run_build: failingBuild(message) }, { spillway, sessionId: 's1' })
      const result = await generateText({ model, tools, prompt: 'build', stopWhen: stepCountIs(4) })
      expect(message.length).toBeGreaterThan(50_000)
      const seen = errorSeen(calls[1]!)
      expect(seen.type).toBe('error-text') // still an error for the provider
      expect(seen.text.length).toBeLessThanOrEqual(MAX_CHARS)
      expect(seen.text.startsWith('TypeError: ')).toBe(true) // the error's name stays visible
      expect(seen.text).toContain('error TS2322') // the salient line survives the cut
      expect(seen.text).not.toContain(middle)
      const grep = String(toolResultsIn(calls[2]!).find((p) => p.toolCallId === 'c2')!.output.value)
      expect(grep).toContain(`351: ${middle}`) // line 1 is "TypeError: ..." + the first log line
      const failed = result.steps[0]!.content.find((p) => p.type === 'tool-error') as { error: Error } | undefined
      expect(failed?.error).toBeInstanceOf(Error)
      expect(failed!.error.name).toBe('TypeError')
      expect((failed!.error.cause as Error).message).toBe(message) // the original, untouched
    })

    it('a small error reaches the model exactly as the SDK sends it', async () => {
      const spillway = createSpillway({ store: memoryStore(), maxChars: MAX_CHARS })
      const seen = await errorOutput({ run_build: failingBuild('disk full') }, spillway)
      expect(seen).toEqual(await errorOutput({ run_build: failingBuild('disk full') })) // no spillway at all
      expect(seen.type).toBe('error-text')
      expect((await spillway.stats({ sessionId: 's' })).blobs).toBe(0)
    })

    it('works in streamText, for a sync throw and for a streaming tool that fails mid-stream', async () => {
      const spillway = createSpillway({ store: memoryStore(), maxChars: MAX_CHARS })
      const message = buildLog(60)
      const sync = tool({ description: 'sync', inputSchema: noArgs, execute: (): string => { throw new Error(message) } })
      const streaming = tool({
        description: 'streaming',
        inputSchema: noArgs,
        execute: async function* () {
          yield 'step 1 ok'
          throw new Error(message)
        },
      })
      for (const [name, t] of [['sync', sync], ['streaming', streaming]] as const) {
        const { model, calls } = scriptedModel([() => [callTool('c1', name, {})], () => say('ok')])
        streamFromScript(model)
        const result = streamText({ model, tools: spillTools({ [name]: t }, { spillway, sessionId: 's' }), prompt: 'go', stopWhen: stepCountIs(3) })
        await result.consumeStream()
        const seen = errorSeen(calls[1]!)
        expect(seen.type, name).toBe('error-text')
        expect(seen.text.length, name).toBeLessThanOrEqual(MAX_CHARS)
        expect(seen.text, name).toContain('spillway')
        expect(seen.id, name).toMatch(/^[0-9a-f]{12}$/)
      }
    })

    it('rethrows the original error when spillway.handle fails (fail open)', async () => {
      const spillway = createSpillway({ store: memoryStore(), maxChars: MAX_CHARS })
      const broken: Spillway = { ...spillway, handle: () => Promise.reject(new Error('spillway down')) }
      const message = buildLog(20)
      expect(await errorOutput({ run_build: failingBuild(message) }, broken)).toEqual(await errorOutput({ run_build: failingBuild(message) }))
    })
  })
}
