// Typechecked against ai 7 (tsconfig.ai7.json maps 'ai' to the ai-v7 install): the adapter's
// types must fit ai 7 call sites too. Not run, not published.
import { generateText, jsonSchema, stepCountIs, streamText, tool, toolSearch } from 'ai'
import { createSpillway, createToolIndex, memoryStore } from '@spillway/core'
import { embedderFromModel, spillTools, spillwayPrepareStep, toolDescriptors, toolSearchRanker } from '../src/index.js'

declare const model: Parameters<typeof generateText>[0]['model']
declare const embeddingModel: Parameters<typeof embedderFromModel>[0]
const noArgs = jsonSchema<Record<string, never>>({ type: 'object', properties: {} })
const mine = { run_build: tool({ description: 'Run the build', inputSchema: noArgs, execute: async () => 'log' }) }
const spillway = createSpillway({ store: memoryStore() })
const tools = spillTools(mine, { spillway, sessionId: 's' })
const index = await createToolIndex(await toolDescriptors(mine), { embedder: embedderFromModel(embeddingModel) })

await generateText({ model, tools, prompt: 'p', stopWhen: stepCountIs(3), prepareStep: spillwayPrepareStep({ index }) })
streamText({ model, tools, prompt: 'p', prepareStep: spillwayPrepareStep({ index, k: 2 }) })
await generateText({ model, tools: { ...tools, tool_search: toolSearch({ search: toolSearchRanker({ index }) }) }, prompt: 'p' })
