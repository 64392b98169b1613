// What a checkpointer writes: the ToolMessage is graph state, so its artifact is persisted too.
import { describe, expect, it } from 'vitest'
import { AIMessage, HumanMessage, ToolMessage, createAgent, fakeModel, tool } from 'langchain'
import { MemorySaver } from '@langchain/langgraph'
import { z } from 'zod'
import { createSpillway, memoryStore } from '@spillway/core'
import { spillwayMiddleware, type SpillArtifact } from './index.js'
import { buildLog } from './test.helpers.js'

/** Bytes a MemorySaver holds: every serialized checkpoint, metadata blob and pending write. */
function savedBytes(saver: MemorySaver): number {
  let bytes = 0
  const visit = (value: unknown): void => {
    if (value instanceof Uint8Array) bytes += value.byteLength
    else if (typeof value === 'string') bytes += value.length
    else if (Array.isArray(value)) value.forEach(visit)
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(visit)
  }
  visit(saver.storage)
  visit(saver.writes)
  return bytes
}

async function runWithCheckpointer(options: { keepRawArtifact?: boolean; spill?: boolean }) {
  const result = buildLog(1090) // a 1.09 MB tool result
  const run_build = tool(async () => result, { name: 'run_build', description: 'Run the build', schema: z.object({}) })
  const checkpointer = new MemorySaver()
  const model = fakeModel().respondWithTools([{ name: 'run_build', args: {}, id: 't1' }]).respond(new AIMessage('done'))
  const spillway = createSpillway({ store: memoryStore(), maxChars: 4000 })
  const middleware = options.spill === false ? [] : [spillwayMiddleware({ spillway, ...(options.keepRawArtifact ? { keepRawArtifact: true } : {}) })]
  const agent = createAgent({ model, tools: [run_build], middleware, checkpointer })
  const config = { configurable: { thread_id: 'chk-1' } }
  const state = await agent.invoke({ messages: [new HumanMessage('build it')] }, config)
  const message = state.messages.find((m): m is ToolMessage => ToolMessage.isInstance(m))!
  const latest = await checkpointer.getTuple(config)
  const [, serialized] = await checkpointer.serde.dumpsTyped(latest!.checkpoint)
  return { result, bytes: savedBytes(checkpointer), latest: serialized.length, message, spillway }
}

describe('spillwayMiddleware with a checkpointer (MemorySaver in createAgent)', () => {
  it('by default checkpoints the excerpt and the handle, not the 1.09 MB result', async () => {
    // Regression (issue 13): the raw result sat in ToolMessage.artifact, so it was checkpointed.
    const bare = await runWithCheckpointer({ spill: false })
    const raw = await runWithCheckpointer({ keepRawArtifact: true })
    const lean = await runWithCheckpointer({})
    expect(bare.result.length).toBeGreaterThan(1_090_000)
    expect(bare.bytes).toBeGreaterThan(bare.result.length) // no middleware: the result is in state
    expect(raw.bytes).toBeGreaterThan(raw.result.length) // opt-in: the raw artifact is checkpointed
    expect(raw.latest).toBeGreaterThan(raw.result.length) // the last checkpoint alone holds it
    expect(lean.bytes).toBeLessThan(100_000) // only the excerpt, the handle and the sizes
    expect(lean.latest).toBeLessThan(50_000)
    const artifact = lean.message.artifact as SpillArtifact
    expect(artifact.spillway.original.chars).toBe(lean.result.length)
    expect((await lean.spillway.fetch({ id: artifact.spillway.id, mode: 'stat' }, { sessionId: 'chk-1' })).ok).toBe(true)
    console.info(`for a ${lean.result.length}-char result, MemorySaver total / latest checkpoint bytes: ` +
      `no middleware ${bare.bytes} / ${bare.latest}, keepRawArtifact ${raw.bytes} / ${raw.latest}, default ${lean.bytes} / ${lean.latest}`)
  })

  it('keepRawArtifact keeps the raw result in artifact', async () => {
    const { message, result } = await runWithCheckpointer({ keepRawArtifact: true })
    expect(message.artifact).toBe(result)
  })
})
