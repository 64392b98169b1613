// An offline LangChain agent (fakeModel) with spillway: a build tool returns a ~300 KB log; the
// ToolMessage the model reads is a short excerpt with a handle (its `artifact` holds only the handle
// and sizes, so a checkpointer never stores the raw log), the model greps the full log with fetch_result, and answers. A second run defers the long tail
// of tools behind the bridge tools. Exits non-zero if the flow breaks.
// Run: pnpm --filter @spillway/example-langchain start
import { strict as assert } from 'node:assert'
import { AIMessage, HumanMessage, ToolMessage, createAgent, fakeModel, tool } from 'langchain'
import type { BaseMessage } from '@langchain/core/messages'
import { z } from 'zod'
import { createSpillway, estimateTokens, memoryStore } from '@spillway/core'
import { disclosureMiddleware, spillwayMiddleware, type SpillArtifact } from '@spillway/langchain'

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
const run_build = tool(async () => log, { name: 'run_build', description: 'Run the CI build and return its log', schema: z.object({}) })
const lastTool = (messages: BaseMessage[]) => messages.filter((m) => ToolMessage.isInstance(m)).at(-1) as ToolMessage

// 1. Trim + spill. Setup: a spillway and one middleware.
const spillway = createSpillway({ store: memoryStore(), maxChars: 6000 })
const model = fakeModel()
  .respondWithTools([{ name: 'run_build', args: {}, id: 'call-1' }])
  .respond((messages) => {
    const id = /\bid ([0-9a-f]{12,64})\b/.exec(String(lastTool(messages).content))?.[1]
    if (!id) return new Error('no handle id in the excerpt')
    return new AIMessage({ content: '', tool_calls: [{ name: 'fetch_result', args: { id, mode: 'grep', pattern: 'retry budget' }, id: 'call-2', type: 'tool_call' }] })
  })
  .respond((messages) => new AIMessage(`The build log says:\n${String(lastTool(messages).content)}`))
const agent = createAgent({ model, tools: [run_build], middleware: [spillwayMiddleware({ spillway })] })
const state = await agent.invoke({ messages: [new HumanMessage('Run the CI build and tell me why it failed.')] }, { configurable: { thread_id: 'example-thread' } })

const buildMessage = state.messages.find((m) => ToolMessage.isInstance(m) && m.name === 'run_build') as ToolMessage
const excerpt = String(buildMessage.content)
const answer = String(state.messages.at(-1)!.content)
const fmt = (n: number) => n.toLocaleString('en-US')
console.log(`run_build returned   ${fmt(log.length)} chars, ~${fmt(estimateTokens(log))} tokens, ${fmt(log.split('\n').length)} lines`)
console.log(`the model read       ${fmt(excerpt.length)} chars, ~${fmt(estimateTokens(excerpt))} tokens (${((100 * excerpt.length) / log.length).toFixed(1)}% of the log)`)
console.log('\n--- the end of what the model read ---\n' + excerpt.slice(-700))
console.log('\n--- final answer ---\n' + answer)
const artifact = buildMessage.artifact as SpillArtifact
console.log(`\nartifact: ${JSON.stringify(artifact)}`)
assert.equal(artifact.spillway.original.chars, log.length, 'artifact: the handle and the sizes, not the raw log')
assert.ok(excerpt.length <= 6000, 'excerpt within budget')
assert.ok(!excerpt.includes('seed 48151623'), 'the buried line is not in the excerpt')
assert.match(answer, /2718: \[test\] retry budget .*seed 48151623/, 'fetch_result grep found the buried line with its number')

// 2. Deferral: 30 tools, 2 core; the rest sit behind tool_search / tool_describe / tool_call.
const calls: string[] = []
const many = Array.from({ length: 30 }, (_, i) => {
  const name = i === 0 ? 'read_file' : i === 1 ? 'run_build' : i === 17 ? 'jira_create_ticket' : `service_${i}_admin`
  const description = i === 17 ? 'Create a ticket in the Jira issue tracker' : `Administer internal service number ${i}`
  return tool(
    async (args: unknown) => {
      calls.push(name)
      return `${name} ok ${JSON.stringify(args)}`
    },
    { name, description, schema: z.object({ summary: z.string().describe('One line summary') }) },
  )
})
const model2 = fakeModel()
  .respondWithTools([{ name: 'tool_search', args: { query: 'create jira ticket' }, id: 's1' }])
  .respondWithTools([{ name: 'tool_call', args: { name: 'jira_create_ticket', arguments: { summary: 'flaky payments spec' } }, id: 's2' }])
  .respond(new AIMessage('Ticket filed.'))
const bound: string[][] = []
const bind = model2.bindTools.bind(model2)
model2.bindTools = (tools) => (bound.push(tools.map((t) => ('name' in t ? String(t.name) : '?'))), bind(tools))
const agent2 = createAgent({ model: model2, tools: many, middleware: [await disclosureMiddleware({ tools: many, core: ['read_file', 'run_build'], mode: 'on' })] })
const state2 = await agent2.invoke({ messages: [new HumanMessage('File a Jira ticket for the flaky spec.')] }, { configurable: { thread_id: 't2' } })
console.log(`\ndeferral: ${many.length} tools, the model was offered ${bound[0]!.length}: ${bound[0]!.join(', ')}`)
console.log(`tool_call ran: ${calls.join(', ')} -> ${String(lastTool(state2.messages).content)}`)
assert.deepEqual(calls, ['jira_create_ticket'], 'the bridge reached the real tool')
assert.equal(bound[0]!.length, 5, 'two core tools + three bridge tools')
console.log('\nok')
