import { CACHE_PRICING } from '@spillway/core'
import { describe, expect, it } from 'vitest'
import type { TrimCase } from '../src/corpus/types.js'
import { compactionMarkdown, runCompaction } from '../src/suites/compaction.js'

// Big logs (spilled at 8,000 chars) and small JSON bodies (never spilled), alternating.
const log = (k: number) => Array.from({ length: 3000 }, (_, i) => `[${k}] step ${i}: compiled module_${i * k} in ${i % 97} ms`).join('\n')
const cases: TrimCase[] = Array.from({ length: 20 }, (_, k) =>
  k % 2 === 0 ? { kind: 'ci-log', name: `log${k}`, text: log(k + 1) } : { kind: 'json', name: `j${k}`, text: JSON.stringify({ k, ok: true }) },
)

describe('compaction suite', () => {
  it('replays one session under three policies on the same results', async () => {
    const r = await runCompaction(cases, (s) => Math.ceil(s.length / 4), { turns: 30, contextWindow: 40_000, pricing: CACHE_PRICING.anthropic })
    const [none, clear, spill] = r.rows
    expect(none).toMatchObject({ policy: 'none', cacheBreaks: 0, unrecoverable: 0 })
    // clearing breaks the cache on every turn past the threshold and loses what it cleared
    expect(clear!.cacheBreaks).toBeGreaterThan(5)
    expect(clear!.unrecoverable).toBeGreaterThan(0)
    // spillway breaks it in a few batches, keeps everything reachable, and sends fewer tokens than none
    expect(spill!.cacheBreaks).toBeGreaterThan(0)
    expect(spill!.cacheBreaks).toBeLessThan(clear!.cacheBreaks)
    expect(spill!.unrecoverable).toBe(0)
    expect(spill!.tokensSent).toBeLessThan(none!.tokensSent)
    expect(spill!.costUnits).toBeLessThan(none!.costUnits)
    expect(compactionMarkdown(r)).toContain('| spillway |')
  })
})
