import { describe, expect, it, vi } from 'vitest'
import { generateText, stepCountIs, tool, toolSearch as toolSearchV7, jsonSchema, pruneMessages, type ToolSet as ToolSetV7 } from 'ai-v7'
import type { ToolSet } from 'ai'
import { createSpillway, createToolIndex, memoryStore } from '@spillway/core'
import { agentLoopSuite } from './loop.suite.js'
import { errorSuite } from './errors.suite.js'
import { stackSuite } from './stack.suite.js'
import { embedderFromModel, spillTools, toolSearchRanker } from './index.js'
import { MockEmbeddingModelV3 } from 'ai/test' // redirected to ai-v7/test below
import { NEEDLE, buildLog, callTool, offeredTools, say, scriptedModel, toolResultsIn } from './loop.helpers.js'

// Every 'ai' import in this file's module graph (the suite, the helpers and the adapter itself)
// resolves to the ai 7 install, so this run exercises ai 7 end to end.
// embedMany is wrapped with a counter to prove the adapter's own runtime import took the redirect.
const viaV7 = vi.hoisted(() => ({ embedMany: 0 }))
vi.mock('ai', async () => {
  const v7 = await import('ai-v7')
  const embedMany: typeof v7.embedMany = (options) => {
    viaV7.embedMany++
    return v7.embedMany(options)
  }
  return { ...v7, embedMany }
})
vi.mock('ai/test', async () => await import('ai-v7/test'))

agentLoopSuite('ai 7', 7)
errorSuite('ai 7')
stackSuite('ai 7')

describe('the ai 7 redirect', () => {
  it('reaches the adapter: embedderFromModel calls ai 7 embedMany', async () => {
    const before = viaV7.embedMany
    const model = new MockEmbeddingModelV3({ doEmbed: async ({ values }) => ({ embeddings: values.map(() => [1, 0]), warnings: [] }) })
    expect(await embedderFromModel(model)(['a'])).toEqual([[1, 0]])
    expect(viaV7.embedMany).toBe(before + 1)
  })
})

describe('toolSearchRanker with ai 7 toolSearch', () => {
  const noArgs = jsonSchema<Record<string, never>>({ type: 'object', properties: {} })
  const deferred = (description: string) => tool({ description, inputSchema: noArgs, execute: async () => 'ok', deferLoading: true })
  const tools = () => ({
    weather_forecast: deferred('Get the weather forecast for a city'),
    github_create_issue: deferred('Create a new issue in a GitHub repository'),
    send_email: deferred('Send an email message to a recipient'),
    github_list_pulls: deferred('List open pull requests of a GitHub repository'),
  })

  it('ranks the deferred tools for the model query; the best match is offered next step', async () => {
    const ranker = toolSearchRanker()
    const ranked = await ranker({ query: 'open a github issue', tools: Object.entries(tools()).map(([name, t]) => ({ name, description: t.description as string })) })
    expect(ranked[0]).toBe('github_create_issue')
    expect(ranked).not.toContain('weather_forecast')

    const { model, calls } = scriptedModel([() => [callTool('c1', 'tool_search', { query: 'open a github issue' })], () => say('ok')])
    await generateText({
      model: model as never,
      tools: { ...tools(), tool_search: toolSearchV7({ search: ranker, maxResults: 1 }) },
      prompt: 'file a bug',
      stopWhen: stepCountIs(3),
    })
    expect(offeredTools(calls[0]!)).toEqual(['tool_search'])
    expect(offeredTools(calls[1]!).sort()).toEqual(['github_create_issue', 'tool_search'])
  })

  it('uses a prebuilt index and only returns eligible tools', async () => {
    const index = await createToolIndex([
      { name: 'github_create_issue', description: 'Create a new issue in a GitHub repository' },
      { name: 'github_close_issue', description: 'Close an issue in a GitHub repository' },
    ])
    const ranked = await toolSearchRanker({ index })({ query: 'github issue', tools: [{ name: 'github_close_issue' }] })
    expect(ranked).toEqual(['github_close_issue'])
  })
})

describe('recommended ai 7 stack: spillTools + toolSearch(toolSearchRanker) + pruneMessages', () => {
  const noArgs = jsonSchema<Record<string, never>>({ type: 'object', properties: {} })

  it('defers the long tail behind tool_search, never fetch_result, and spills results of discovered tools too', async () => {
    const log = buildLog(300)
    const spillway = createSpillway({ store: memoryStore(), maxChars: 4000 })
    const deferred = (description: string, execute: () => Promise<string>) => tool({ description, inputSchema: noArgs, execute, deferLoading: true })
    // spillTools first (it keeps deferLoading), then the search tool, which must stay unwrapped.
    // (Casts: this file compiles against ai 6's types while every 'ai' import runs ai 7.)
    const tools: ToolSetV7 = {
      ...(spillTools(
        ({
          read_file: tool({ description: 'Read a file', inputSchema: noArgs, execute: async () => 'file' }),
          ci_fetch_log: deferred('Fetch the log of the failed CI build', async () => log),
          github_create_issue: deferred('Create a new issue in a GitHub repository', async () => 'issue #7'),
          weather_forecast: deferred('Get the weather forecast for a city', async () => 'sunny'),
        }) as unknown as ToolSet,
        { spillway, sessionId: 'chat-7' },
      ) as unknown as ToolSetV7),
      tool_search: toolSearchV7({ search: toolSearchRanker(), maxResults: 1 }),
    }
    let id = ''
    const { model, calls } = scriptedModel([
      () => [callTool('c1', 'tool_search', { query: 'fetch the failed CI build log' })],
      () => [callTool('c2', 'ci_fetch_log', {})],
      (call) => {
        id = /\bid ([0-9a-f]{12})\b/.exec(String(toolResultsIn(call).find((p) => p.toolCallId === 'c2')?.output.value))?.[1] ?? 'no-id'
        return [callTool('c3', 'fetch_result', { id, mode: 'grep', pattern: 'pkg-quokka' })]
      },
      () => say('found it'),
    ])
    const result = await generateText({
      model: model as never,
      tools,
      prompt: 'Why did CI fail?',
      stopWhen: stepCountIs(6),
      prepareStep: ({ messages }) => ({ messages: pruneMessages({ messages, toolCalls: [{ type: 'before-last-2-messages', tools: ['ci_fetch_log'] }] }) }),
    })
    expect(result.text).toBe('found it')
    expect(offeredTools(calls[0]!).sort()).toEqual(['fetch_result', 'read_file', 'tool_search']) // long tail deferred
    expect(offeredTools(calls[1]!)).toContain('ci_fetch_log') // discovered through toolSearchRanker
    expect(offeredTools(calls[1]!)).not.toContain('weather_forecast')
    const excerpt = String(toolResultsIn(calls[2]!).find((p) => p.toolCallId === 'c2')!.output.value)
    expect(excerpt.length).toBeLessThanOrEqual(4000) // a deferred tool's result is spilled like any other
    expect(String(toolResultsIn(calls[3]!).find((p) => p.toolCallId === 'c3')!.output.value)).toContain(NEEDLE)
    expect(toolResultsIn(calls[3]!).map((p) => p.toolName)).not.toContain('ci_fetch_log') // pruned history
  })
})
