// Cache-aware compaction and the window-derived budget, run on ai 6 and ai 7
// (compaction.ai6.test.ts / compaction.ai7.test.ts) with the SDK's MockLanguageModelV3.
import { describe, expect, it } from 'vitest'
import { generateText, jsonSchema, stepCountIs, tool } from 'ai'
import { CACHE_PRICING, compactedContent, createSpillway, createToolIndex, estimateTokens, memoryStore, spilledRef, type CompactionPlan } from '@spillway/core'
import { contextWindowOf, spillTools, spillwayCompaction, spillwayPrepareStep, toolDescriptors } from './index.js'
import { buildLog, callTool, say, scriptedModel, toolResultsIn } from './loop.helpers.js'

const noArgs = jsonSchema<Record<string, never>>({ type: 'object', properties: {} })
const BUILDS = 12
type Call = ReturnType<typeof scriptedModel>['calls'][number]

/** Runs BUILDS builds (plus one small `whoami`), then a fetch_result on the first build's id as the last prompt shows it. */
async function buildLoop(compact: boolean) {
  const spillway = createSpillway({ store: memoryStore(), maxChars: 2000 })
  const log = buildLog(40)
  let n = 0
  const raw = {
    run_build: tool({ description: 'Run the build and return its log', inputSchema: noArgs, execute: async () => `${log}\nrun ${n++}` }),
    whoami: tool({ description: 'Name of the current user', inputSchema: noArgs, execute: async () => 'ci-bot' }),
  }
  const tools = spillTools(raw, { spillway, sessionId: 'chat-c' })
  const select = spillwayPrepareStep({ index: await createToolIndex(await toolDescriptors(raw)), k: 1, pinned: ["whoami"] })
  const plans: CompactionPlan[] = []
  // The window comes from the step's model id ('mock-model-id') through the overridable table.
  const compaction = spillwayCompaction({ contextWindows: { 'mock-model-id': 6000 }, pricing: CACHE_PRICING.openai, onPlan: (p) => plans.push(p) })
  let fetchedId = ''
  const turns = Array.from({ length: BUILDS }, (_, i) => () => [callTool(`b${i}`, 'run_build', {}), ...(i === 1 ? [callTool('w1', 'whoami', {})] : [])])
  const { model, calls } = scriptedModel([
    ...turns,
    (call) => {
      // Like a real model: read the id from the first build result, compacted or not.
      fetchedId = /\bid ([0-9a-f]{12})\b/.exec(String(toolResultsIn(call)[0]?.output.value))?.[1] ?? 'no-id'
      return [callTool('f1', 'fetch_result', { id: fetchedId, mode: 'grep', pattern: 'run 0', literal: true })]
    },
    () => say('done'),
  ])
  const result = await generateText({
    model,
    tools,
    prompt: 'build it until it passes',
    stopWhen: stepCountIs(BUILDS + 3),
    ...(compact ? { prepareStep: async (step) => ({ ...(await select(step)), ...compaction(step) }) } : {}),
  })
  return { calls, plans, result, fetchedId, spillway }
}

const promptTokens = (call: Call) => estimateTokens(JSON.stringify(call.prompt))
const texts = (call: Call) => toolResultsIn(call).map((p) => String(p.output.value))

export function compactionSuite(label: string): void {
  describe(`spillwayCompaction in a generateText loop (${label})`, () => {
    it('compacts old spilled results in one batch, keeps the last ones and unspilled ones, and the prefix stays byte-identical', async () => {
      const plain = await buildLoop(false)
      const { calls, plans, result, fetchedId } = await buildLoop(true)
      expect(calls).toHaveLength(BUILDS + 2)
      // The model saw the same results in both runs until the first batch.
      const first = calls.findIndex((c) => texts(c).some((t) => t.startsWith('[spillway: earlier result')))
      expect(first).toBeGreaterThan(1)
      const before = calls[first - 1]!
      const after = calls[first]!
      expect(texts(before).every((t) => t === 'ci-bot' || spilledRef(t) !== undefined)).toBe(true)
      expect(texts(before).some((t) => t.startsWith('[spillway'))).toBe(false)

      const full = texts(plain.calls[first]!)
      const seen = texts(after)
      expect(seen).toHaveLength(full.length)
      const spilled = full.map((t, i) => ({ t, i })).filter(({ t }) => t !== 'ci-bot')
      const kept = full.map((_, i) => ({ i })).slice(-3) // keepLast counts every tool result, spilled or not
      for (const { t, i } of spilled) {
        if (kept.some((k) => k.i === i)) expect(seen[i]).toBe(t) // the last three are intact
        else expect(seen[i]).toBe(compactedContent(spilledRef(t)!)) // the older ones are one line
      }
      expect(seen[full.indexOf('ci-bot')]).toBe('ci-bot') // never spilled, never touched
      expect(plans.filter((p) => p.batches.length > 0).length).toBeGreaterThan(0)

      // Cache: every later prompt starts with the previous prompt, byte for byte, unless a new batch happened at that step.
      const batchSteps = new Set(plans.flatMap((p, step) => (p.batches.length > (plans[step - 1]?.batches.length ?? 0) ? [step] : [])))
      let stable = 0
      for (let s = first + 1; s < calls.length; s++) {
        if (batchSteps.has(s)) continue
        const prev = JSON.stringify(calls[s - 1]!.prompt).slice(0, -1)
        expect(JSON.stringify(calls[s]!.prompt).startsWith(prev)).toBe(true)
        stable++
      }
      expect(stable).toBeGreaterThan(0)
      expect(batchSteps.size).toBeLessThan(calls.length / 2)

      // The compacted first result is still fetchable in the same loop.
      expect(texts(calls[BUILDS]!)[0]).toContain(fetchedId)
      expect(texts(calls[BUILDS]!)[0]!.startsWith('[spillway: earlier result')).toBe(true)
      const fetched = result.steps.at(-2)!.toolResults.find((r) => r.toolName === 'fetch_result')
      expect(String(fetched?.output)).toMatch(/\brun 0\b/) // the first build's own last line

      // Figures: prompt tokens of the last call, with and without compaction.
      const last = { plain: promptTokens(plain.calls.at(-1)!), compacted: promptTokens(calls.at(-1)!) }
      console.log(`[${label}] last prompt ~tokens: ${last.plain} without compaction, ${last.compacted} with; first compacted prompt at call ${first}, batches at steps ${[...batchSteps].join(',')}, ${stable} steps after it with a byte-identical prefix`)
      expect(last.compacted).toBeLessThan(last.plain * 0.7)
    })

    it('sends nothing new when the model and its window are unknown, or the context is small', async () => {
      const compaction = spillwayCompaction()
      expect(compaction({ messages: [{ role: 'user', content: 'hi' }] })).toEqual({})
      expect(spillwayCompaction({ contextWindow: 200_000 })({ messages: [{ role: 'user', content: 'hi' }] })).toEqual({})
    })
  })

  describe(`window-derived budget (${label})`, () => {
    it('a model with a small window gets a smaller excerpt', async () => {
      const log = buildLog(100)
      const windows = { 'tiny-model': 8_000 }
      const seen: Record<string, string> = {}
      for (const id of ['gpt-4o', 'tiny-model']) {
        const spillway = createSpillway({ store: memoryStore(), contextWindow: contextWindowOf(id, windows)! })
        const tools = spillTools({ run_build: tool({ description: 'Run the build', inputSchema: noArgs, execute: async () => log }) }, { spillway, sessionId: 's' })
        const { model, calls } = scriptedModel([() => [callTool('b', 'run_build', {})], () => say('ok')])
        await generateText({ model, tools, prompt: 'build', stopWhen: stepCountIs(3) })
        seen[id] = String(toolResultsIn(calls[1]!)[0]!.output.value)
      }
      expect(contextWindowOf('openai/gpt-4o-2024-08-06')).toBe(128_000)
      expect(contextWindowOf('claude-sonnet-4-5-20250929')).toBe(200_000)
      expect(contextWindowOf('gpt-4o-mini')).toBe(128_000)
      expect(contextWindowOf('unknown-model')).toBeUndefined()
      // 128K -> 25,600 chars; 8K -> 2,000 chars (core budgetFromContextWindow)
      expect(seen['gpt-4o']!.length).toBeLessThanOrEqual(25_600)
      expect(seen['gpt-4o']!.length).toBeGreaterThan(20_000)
      expect(seen['tiny-model']!.length).toBeLessThanOrEqual(2_000)
      expect(spilledRef(seen['tiny-model']!)).toBeDefined()
    })
  })
}
