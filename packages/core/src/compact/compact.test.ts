import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createSpillway } from '../spill/spillway.js'
import { memoryStore } from '../store/memory.js'
import { CACHE_PRICING, compactTranscript, compactedContent, planCompaction, spilledRef, type CompactionItem } from './index.js'

const item = fc.record({
  tokens: fc.integer({ min: 0, max: 5000 }),
  compactTokens: fc.option(fc.integer({ min: 10, max: 80 }), { nil: undefined }),
  before: fc.integer({ min: 0, max: 500 }),
}) as fc.Arbitrary<CompactionItem>
const opts = fc.record({
  contextWindow: fc.integer({ min: 1000, max: 200_000 }),
  keepLast: fc.integer({ min: 0, max: 5 }),
  pricing: fc.constantFrom(CACHE_PRICING.anthropic, CACHE_PRICING.openai, CACHE_PRICING.google),
})

describe('planCompaction', () => {
  it('decides each turn once: the plan of any prefix is the start of the plan of the whole', () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 60 }), opts, fc.nat(), (items, o, cut) => {
        const full = planCompaction(items, o)
        const k = items.length === 0 ? 0 : cut % (items.length + 1)
        const part = planCompaction(items.slice(0, k), o)
        expect(part.batches).toEqual(full.batches.filter((b) => b.at < k))
      }),
      { numRuns: 500 },
    )
  })

  it('compacts only spilled results, never the last keepLast at batch time, and never one twice', () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 60 }), opts, (items, o) => {
        const plan = planCompaction(items, o)
        const seen = new Set<number>()
        for (const b of plan.batches) {
          for (const j of b.items) {
            expect(items[j]!.compactTokens).toBeDefined()
            expect(j).toBeLessThanOrEqual(b.at - o.keepLast)
            expect(seen.has(j)).toBe(false)
            seen.add(j)
          }
        }
        const total = items.reduce((s, x) => s + x.before + x.tokens, 0)
        expect(plan.contextTokens).toBe(total - plan.savedTokens)
        expect(plan.compacted).toEqual([...seen].sort((a, b) => a - b))
      }),
      { numRuns: 500 },
    )
  })

  it('batches: 60 turns of 2,000-token results break the cache a few times, not every turn', () => {
    const items = Array.from({ length: 60 }, () => ({ tokens: 2000, compactTokens: 60, before: 150 }))
    const plan = planCompaction(items, { contextWindow: 64_000, pricing: CACHE_PRICING.anthropic })
    expect(plan.batches.length).toBeGreaterThan(0)
    expect(plan.batches.length).toBeLessThanOrEqual(8)
    expect(plan.contextTokens).toBeLessThanOrEqual(64_000 * 0.5)
    // every batch compacts several results at once
    expect(plan.batches.every((b) => b.items.length >= 2)).toBe(true)
  })

  it('does not compact when it does not pay: short horizon, expensive writes', () => {
    const items = Array.from({ length: 10 }, () => ({ tokens: 300, compactTokens: 60, before: 5000 }))
    const plan = planCompaction(items, { contextWindow: 100_000, remainingTurns: 1, pricing: CACHE_PRICING.anthropic })
    expect(plan.batches).toEqual([])
    // the same transcript with a long horizon pays
    expect(planCompaction(items, { contextWindow: 100_000, remainingTurns: 1000, pricing: CACHE_PRICING.anthropic }).batches.length).toBeGreaterThan(0)
  })

  it('forces a batch near the window even when it does not pay', () => {
    const items = Array.from({ length: 10 }, () => ({ tokens: 300, compactTokens: 60, before: 5000 }))
    const plan = planCompaction(items, { contextWindow: 40_000, remainingTurns: 0 })
    expect(plan.batches.some((b) => b.forced)).toBe(true)
  })
})

describe('compactTranscript with real handles', () => {
  const log = Array.from({ length: 4000 }, (_, i) => (i === 2500 ? 'ERROR: disk full at /var/data' : `line ${i} of the build output ${i * 7}`)).join('\n')
  type Msg = { role: 'user' | 'tool'; text: string }

  it('replaces old spilled results by one line that fetch_result still reads, leaves the rest', async () => {
    const sw = createSpillway({ store: memoryStore(), maxChars: 4000 })
    const messages: Msg[] = []
    const ids: string[] = []
    for (let t = 0; t < 12; t++) {
      messages.push({ role: 'user', text: `turn ${t}: run the build again` })
      const res = await sw.handle({ tool: 'terminal', result: `${log}\nrun ${t}`, sessionId: 's' })
      ids.push(res.handle!.id)
      messages.push({ role: 'tool', text: res.content })
    }
    messages.push({ role: 'tool', text: 'small result, never spilled' })
    const ref = spilledRef(messages[1]!.text)
    expect(ref).toMatchObject({ id: ids[0], tool: 'terminal', lines: 4001 })
    const out = compactTranscript(messages, {
      contextWindow: 16_000,
      toolText: (m) => (m.role === 'tool' ? m.text : undefined),
      withText: (m, text) => ({ ...m, text }),
      tokens: (m) => Math.ceil(m.text.length / 4),
    })
    expect(out.plan.compacted.length).toBeGreaterThan(0)
    expect(messages[1]!.text).not.toContain('compacted') // the input is never mutated
    const first = out.messages[1]!.text
    expect(first).toBe(compactedContent(ref!))
    const back = await sw.fetch({ id: ids[0]!, mode: 'grep', pattern: 'disk full', literal: true }, { sessionId: 's' })
    expect(back.text).toContain('2501')
    // the last three results, and the unspilled one, are untouched
    expect(out.messages.at(-1)!.text).toBe('small result, never spilled')
    expect(out.messages.at(-2)!.text).toBe(messages.at(-2)!.text)
    // same input, same bytes: the compacted prefix caches again next turn
    const again = compactTranscript([...messages, { role: 'user', text: 'next' }], {
      contextWindow: 16_000,
      toolText: (m) => (m.role === 'tool' ? m.text : undefined),
      withText: (m, text) => ({ ...m, text }),
      tokens: (m) => Math.ceil(m.text.length / 4),
    })
    expect(again.messages.slice(0, out.messages.length)).toEqual(out.messages)
    // a compacted line is recognised as such, and compacting it again changes nothing
    expect(spilledRef(first)).toEqual(ref)
  })
})
