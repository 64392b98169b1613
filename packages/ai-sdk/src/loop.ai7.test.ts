import { describe, expect, it, vi } from 'vitest'
import { generateText, stepCountIs, tool, toolSearch as toolSearchV7, jsonSchema } from 'ai-v7'
import { createToolIndex } from '@spillway/core'
import { agentLoopSuite } from './loop.suite.js'
import { embedderFromModel, toolSearchRanker } from './index.js'
import { MockEmbeddingModelV3 } from 'ai/test' // redirected to ai-v7/test below
import { callTool, offeredTools, say, scriptedModel } from './loop.helpers.js'

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
