// An offline AI SDK agent (mock model) with spillway: a build tool returns a ~300 KB log; the model
// reads a short excerpt with a handle, greps the full log with fetch_result, and answers.
// Tools are also pre-selected per step with spillwayPrepareStep. A second run shows a tool that
// throws a 60 KB error: the model gets it as a trimmed error with a handle. Exits non-zero if the flow breaks.
// Run: pnpm --filter @spillway/example-ai-sdk start
import { strict as assert } from 'node:assert'
import { generateText, jsonSchema, stepCountIs, tool } from 'ai'
import { MockLanguageModelV3 } from 'ai/test'
import { createSpillway, createToolIndex, estimateTokens, memoryStore } from '@spillway/core'
import { spillTools, spillwayPrepareStep, toolDescriptors } from '@spillway/ai-sdk'

type CallOptions = Parameters<MockLanguageModelV3['doGenerate']>[0]
type Content = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>['content']

const STEPS = ['bundled', 'minified', 'hashed', 'copied', 'linted', 'typechecked', 'compressed']
const AREAS = ['checkout', 'payments', 'search', 'profile', 'admin', 'billing', 'catalog', 'orders', 'inbox', 'reports', 'auth']

/** A CI build log of ~300 KB: varied progress lines, one flaky-test line buried at line 2718. */
function buildLog(): string {
  const lines: string[] = []
  let size = 0
  for (let i = 1; size < 300_000; i++) {
    const line =
      i === 2718
        ? '[test] retry budget for suite payments-flaky-spec exhausted after 3 attempts (seed 48151623)'
        : `[build] ${String(i).padStart(5, '0')} ${STEPS[(i * 7919) % 7]} ${AREAS[(i * 104729) % 11]}/${AREAS[(i * 31) % 11]}-view.tsx (${(i * 13) % 4096} kB) in ${(i * 7) % 900} ms`
    lines.push(line)
    size += line.length + 1
  }
  return lines.join('\n')
}

const log = buildLog()
const noArgs = jsonSchema<Record<string, never>>({ type: 'object', properties: {} })
const myTools = {
  run_build: tool({ description: 'Run the CI build and return its log', inputSchema: noArgs, execute: async () => log }),
  read_file: tool({ description: 'Read a file from the repository', inputSchema: noArgs, execute: async () => 'export const answer = 42\n' }),
  send_email: tool({ description: 'Send an email to a teammate', inputSchema: noArgs, execute: async () => 'sent' }),
  weather_forecast: tool({ description: 'Get the weather forecast for a city', inputSchema: noArgs, execute: async () => 'sunny' }),
}

// Three lines of setup: a spillway, the wrapped tools, and (optionally) per-step tool selection.
const spillway = createSpillway({ store: memoryStore(), maxChars: 6000 })
const tools = spillTools(myTools, { spillway, sessionId: 'example-chat' })
const prepareStep = spillwayPrepareStep({ index: await createToolIndex(await toolDescriptors(myTools)), k: 2 })

// The mock model plays an agent: build, read the handle from the excerpt, grep, answer.
const seen: CallOptions[] = []
const lastToolText = (call: CallOptions): string => {
  const part = call.prompt.at(-1)?.content.at(-1) as { output?: { value?: unknown } } | undefined
  return String(part?.output?.value ?? '')
}
const call = (toolCallId: string, toolName: string, input: unknown): Content[number] => ({ type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) })
const turns: Array<(c: CallOptions) => Content> = [
  () => [call('c1', 'run_build', {})],
  (c) => {
    const id = /\bid ([0-9a-f]{12,64})\b/.exec(lastToolText(c))?.[1]
    assert.ok(id, 'the excerpt carries a handle id')
    return [call('c2', 'fetch_result', { id, mode: 'grep', pattern: 'retry budget' })]
  },
  (c) => [{ type: 'text', text: `The build log says:\n${lastToolText(c)}` }],
]
/** A mock model response carrying `content`. */
const respond = (content: Content) => ({
  content,
  finishReason: { unified: content[0]?.type === 'tool-call' ? ('tool-calls' as const) : ('stop' as const), raw: undefined },
  usage: { inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 0, text: 0, reasoning: 0 } },
  warnings: [],
})
const model = new MockLanguageModelV3({
  doGenerate: async (options) => {
    seen.push(options)
    return respond(turns[seen.length - 1]!(options))
  },
})

const result = await generateText({ model, tools, prepareStep, prompt: 'Run the CI build and tell me why it failed.', stopWhen: stepCountIs(5) })

const excerpt = lastToolText(seen[1]!)
const raw = result.steps[0]!.toolResults[0]!.output
const fmt = (n: number) => n.toLocaleString('en-US')
console.log(`run_build returned   ${fmt(log.length)} chars, ~${fmt(estimateTokens(log))} tokens, ${fmt(log.split('\n').length)} lines`)
console.log(`the model read       ${fmt(excerpt.length)} chars, ~${fmt(estimateTokens(excerpt))} tokens (${((100 * excerpt.length) / log.length).toFixed(1)}% of the log)`)
console.log(`tools offered, step 1: ${seen[0]!.tools?.map((t) => t.name).join(', ')}`)
console.log('\n--- the end of what the model read ---\n' + excerpt.slice(-700))
console.log('\n--- final answer ---\n' + result.text)

assert.equal(raw, log, 'steps keep the raw output')
assert.ok(excerpt.length <= 6000, 'excerpt within budget')
assert.ok(!excerpt.includes('seed 48151623'), 'the buried line is not in the excerpt')
assert.match(result.text, /2718: \[test\] retry budget .*seed 48151623/, 'fetch_result grep found the buried line with its number')
const offered = seen[0]!.tools?.map((t) => t.name) ?? []
assert.ok(offered.includes('run_build') && offered.includes('fetch_result') && !offered.includes('weather_forecast'), 'selected tools')

// 2. A tool that throws: its 60 KB message goes through the same budget and stays an error.
const typecheck = tool({ description: 'Typecheck the repository', inputSchema: noArgs, execute: async (): Promise<string> => { throw new Error(log.slice(0, 60_000)) } })
const errorSeen: CallOptions[] = []
const errorModel = new MockLanguageModelV3({
  doGenerate: async (options) => {
    errorSeen.push(options)
    return respond(errorSeen.length === 1 ? [call('e1', 'typecheck', {})] : [{ type: 'text', text: 'it failed' }])
  },
})
await generateText({ model: errorModel, tools: spillTools({ typecheck }, { spillway, sessionId: 'example-chat' }), prompt: 'Typecheck.', stopWhen: stepCountIs(3) })
const failed = errorSeen[1]!.prompt.at(-1)?.content.at(-1) as { output: { type: string; value: string } }
console.log(`\ntypecheck threw ${fmt(60_000)} chars; the model got ${failed.output.type} of ${fmt(failed.output.value.length)} chars`)
assert.equal(failed.output.type, 'error-text', 'still an error for the provider')
assert.ok(failed.output.value.length <= 6000 && /\bid [0-9a-f]{12}\b/.test(failed.output.value), 'trimmed, with a handle')
console.log('\nok')
