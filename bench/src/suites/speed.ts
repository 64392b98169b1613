// Speed suite: trimResult, spill `handle` and `fetch` modes on 1 / 10 / 100 MB inputs, each
// compared with one newline scan of the same input measured in the same run. Variants alternate
// order on every repetition; medians and p95 are reported.
import { createSpillway, memoryStore, trimResult, type Spillway } from '@spillway/core'
import { createRng } from '../corpus/prng.js'
import { median, quantile } from '../metrics/stats.js'
import type { Progress } from '../progress.js'

/** One (size, variant) row. */
export interface SpeedRow {
  variant: string
  mb: number
  reps: number
  medianMs: number
  p95Ms: number
  /** Input MB / median seconds. */
  mbPerS: number
  /** medianMs / the newline scan's medianMs at the same size. */
  vsNewlineScan: number
  /** Failed calls: a fetch answering ok: false, a handle that did not spill or overran the budget, an excerpt over budget. */
  failures: number
}

/** One newline scan (`indexOf('\n')` loop): the floor any line-aware pass pays. */
export function newlineScan(s: string): number {
  let n = 0
  let i = -1
  while ((i = s.indexOf('\n', i + 1)) !== -1) n++
  return n
}

/** A log-like text of about `mb` MiB (UTF-16 length), deterministic, with a rare FATAL line. */
export function speedInput(mb: number): string {
  const r = createRng(7)
  const lines: string[] = []
  let size = 0
  while (size < 1 << 20) {
    const l = r.next() < 0.002
      ? `2025-01-06 10:00:${String(r.int(0, 59)).padStart(2, '0')} FATAL worker-${r.int(1, 64)} job ${r.int(1, 1e6)} failed: connection reset by peer`
      : `2025-01-06 10:00:${String(r.int(0, 59)).padStart(2, '0')} INFO worker-${r.int(1, 64)} processed batch ${r.int(1, 1e6)} in ${r.int(1, 999)} ms (queue ${r.int(0, 5000)})`
    lines.push(l)
    size += l.length + 1
  }
  const block = `${lines.join('\n')}\n`
  const text = block.repeat(Math.max(1, Math.round((mb * (1 << 20)) / block.length)))
  return text.slice(0, text.length - 1)
}

type Variant = { id: string; setup?: () => Promise<void>; run: () => Promise<boolean> | boolean }

/** Runs the speed suite over `sizes` (MiB) with `reps(size)` repetitions. */
export async function runSpeed(sizes: readonly number[], reps: (mb: number) => number, progress: Progress): Promise<SpeedRow[]> {
  const rows: SpeedRow[] = []
  const budget = 8000
  for (const mb of sizes) {
    let text: string | undefined = speedInput(mb)
    const input = text
    const lines = newlineScan(input) + 1
    const session = 'bench'
    // One spilled copy for the fetch variants; `handle` gets a fresh store each repetition so
    // every call hashes, compresses and stores (no idempotent short cut).
    const reader: Spillway = createSpillway({ store: memoryStore(), maxChars: budget })
    const spilled = await reader.handle({ tool: 'terminal', result: input, sessionId: session })
    const id = spilled.handle?.id
    if (id === undefined) throw new Error(`speed: handle() did not spill a ${mb} MB input`)
    let fresh: Spillway | undefined
    const variants: Variant[] = [
      { id: 'newline-scan', run: () => newlineScan(input) > 0 },
      { id: 'trimResult', run: () => trimResult(input, { tool: 'terminal', maxChars: budget }).text.length <= budget },
      {
        id: 'handle',
        setup: async () => {
          await fresh?.dispose()
          fresh = createSpillway({ store: memoryStore(), maxChars: budget })
        },
        run: async () => {
          const out = await fresh!.handle({ tool: 'terminal', result: input, sessionId: session })
          return out.handle !== undefined && out.content.length <= budget
        },
      },
      { id: 'fetch-range', run: async () => (await reader.fetch({ id, mode: 'range', start: Math.floor(lines / 2), count: 50 }, { sessionId: session })).ok },
      { id: 'fetch-grep', run: async () => (await reader.fetch({ id, mode: 'grep', pattern: 'FATAL', literal: true }, { sessionId: session })).ok },
      { id: 'fetch-stat', run: async () => (await reader.fetch({ id, mode: 'stat' }, { sessionId: session })).ok },
    ]
    const times = variants.map(() => [] as number[])
    const failures = variants.map(() => 0)
    const n = reps(mb)
    for (let rep = 0; rep < n; rep++) {
      const order = variants.map((_, i) => i)
      if (rep % 2 === 1) order.reverse()
      for (const i of order) {
        const v = variants[i]!
        await v.setup?.()
        const t0 = performance.now()
        const ok = await v.run()
        times[i]!.push(performance.now() - t0)
        if (!ok) failures[i]!++
      }
    }
    await fresh?.dispose()
    await reader.dispose()
    const scan = median(times[0]!)
    variants.forEach((v, i) => {
      const med = median(times[i]!)
      rows.push({ variant: v.id, mb, reps: n, medianMs: med, p95Ms: quantile(times[i]!, 0.95), mbPerS: mb / (med / 1000), vsNewlineScan: med / scan, failures: failures[i]! })
    })
    text = undefined
    progress(`speed: ${mb} MB x ${n} reps done (trimResult ${median(times[1]!).toFixed(1)} ms, handle ${median(times[2]!).toFixed(1)} ms)`)
  }
  return rows
}
