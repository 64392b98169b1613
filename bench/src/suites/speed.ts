// Speed suite: trimResult, spill `handle` and `fetch` modes on 1 / 10 / 100 MB inputs, each
// compared with one newline scan of the same input measured in the same run. Variants alternate
// order on every repetition; medians and p95 are reported.
import { compileMatcher, createSpillway, memoryStore, redactSecrets, scanLines, trimResult, type Spillway } from '@spillway/core'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { RE2 } from 're2-wasm'
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
  /** Regex engine rows only: medianMs / V8's (`regex-v8`) medianMs on the same lines in the same run. */
  vsV8?: number
  /** Token budget rows only: medianMs / one o200k count of the same input's (`tokens o200k count`) in the same run. */
  vsTokenize?: number
}

/**
 * The regex of the engine rows: a typical model grep (a word, numbers, a word), case-insensitive
 * so no engine can skip lines by a literal prefix alone.
 */
export const SPEED_REGEX = 'fatal worker-\\d+ job \\d+ failed'
/** The same shape matching no line: the fetch row then searches every line (a page-filling match would stop it early). */
export const SPEED_REGEX_NONE = 'fatal worker-\\d+ job \\d+ retried'
/** Engine rows run on inputs up to this size (re2-wasm copies every line across the wasm boundary: ~1 s per 10 MB). */
const REGEX_ENGINE_MAX_MB = 10
/** The handle stage rows run on inputs up to this size (they hold a UTF-8 copy and a scratch buffer). */
const STAGE_MAX_MB = 10

/** One line-by-line regex pass (what grep does), counting matching lines. */
function countMatching(lines: readonly string[], test: (line: string) => boolean): number {
  let n = 0
  for (const l of lines) if (test(l)) n++
  return n
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

/** A JSON object of `keys` keys (`key_N`: a string every third, else a number), minified. */
export function manyKeysJson(keys: number): string {
  const parts: string[] = []
  for (let i = 0; i < keys; i++) parts.push(`"key_${i}":${i % 3 === 0 ? `"value ${i}"` : i}`)
  return `{${parts.join(',')}}`
}

/**
 * Runs `variants` `n` times each, alternating their order every repetition, on an input of `mb`
 * MiB; ratios are to the first variant (a newline scan of that input).
 */
async function runPaired(variants: Variant[], n: number, mb: number): Promise<SpeedRow[]> {
  const times = variants.map(() => [] as number[])
  const failures = variants.map(() => 0)
  for (let rep = 0; rep < n; rep++) {
    const order = variants.map((_, i) => i)
    if (rep % 2 === 1) order.reverse()
    for (const i of order) {
      const t0 = performance.now()
      const ok = await variants[i]!.run()
      times[i]!.push(performance.now() - t0)
      if (!ok) failures[i]!++
    }
  }
  const scan = median(times[0]!)
  return variants.map((v, i) => {
    const med = median(times[i]!)
    return { variant: v.id, mb: Math.round(mb * 10) / 10, reps: n, medianMs: med, p95Ms: quantile(times[i]!, 0.95), mbPerS: mb / (med / 1000), vsNewlineScan: med / scan, failures: failures[i]! }
  })
}

/**
 * trimResult on a 1M-key JSON object (issue 12: it took 3-5 s, parsing whole) next to the text
 * path on a log of the same length and one newline scan of the JSON, in one run. Two copies of
 * the JSON alternate so the one-entry parse/scan memo never answers.
 */
async function runJsonKeys(n: number, budget: number): Promise<SpeedRow[]> {
  const json = [manyKeysJson(1_000_000), ` ${manyKeysJson(1_000_000)}`]
  const mb = json[0]!.length / (1 << 20)
  const log = speedInput(mb)
  let k = 0
  const variants: Variant[] = [
    { id: 'json-1M-keys newline-scan', run: () => newlineScan(json[0]!) >= 0 },
    { id: 'trimResult text (same size)', run: () => trimResult(log, { tool: 'terminal', maxChars: budget }).text.length <= budget },
    { id: 'trimResult json-1M-keys', run: () => trimResult(json[k++ % 2]!, { maxChars: budget }).text.length <= budget },
  ]
  return runPaired(variants, n, mb)
}

/**
 * A log of about `mb` MiB where every line is a failure line (a build that prints thousands of
 * compile errors and failing tests, each a distinct line): the salience scan finds more lines than
 * its limit, so weighing and picking them costs most, not the scan. Deterministic.
 */
export function denseInput(mb: number): string {
  const r = createRng(11)
  const lines: string[] = []
  let size = 0
  while (size < mb * (1 << 20)) {
    const k = r.int(0, 3)
    const n = r.int(1, 1e5)
    const l = k === 0
      ? `[ERROR] /src/main/java/org/acme/pkg${r.int(1, 40)}/Service${n}.java:[${r.int(1, 900)},${r.int(1, 80)}] cannot find symbol`
      : k === 1
        ? `[ERROR] testCase${n}(org.acme.Suite${r.int(1, 60)})  Time elapsed: 0.${r.int(1, 999)} s  <<< FAILURE!`
        : k === 2
          ? `FAILED tests/test_mod${r.int(1, 50)}.py::test_case_${n} - AssertionError: assert ${r.int(0, 99)} == ${r.int(0, 99)}`
          : `2025-01-06T10:00:${String(r.int(0, 59)).padStart(2, '0')}Z ERROR worker-${r.int(1, 64)} job ${n} failed: exit status ${r.int(1, 255)}`
    lines.push(l)
    size += l.length + 1
  }
  return lines.join('\n')
}

/**
 * A text shaped as spillway's own excerpt of a `lines + 2`-line log, every line of it numbered and
 * a failure (`N: ERROR x3 failed (x4)`; the numbers run on, so each `(xN)` reads as the line's own
 * text, not a merged run): the most a re-trim (`refitExcerpt`) reads and ranks, as a host, a proxy
 * or a model could send it. About 2.7 MiB at 100,000 lines.
 */
export function excerptShaped(lines: number): string {
  const out = ['head', `[... spillway: omitted lines 2-${lines + 1} of ${lines + 2} (999 chars) ...]`]
  for (let i = 2; i <= lines + 1; i++) out.push(`${i}: ERROR x${i % 7} failed (x${(i % 3) + 2})`)
  out.push('tail')
  return out.join('\n')
}

/**
 * trimResult re-fitting {@link excerptShaped} (100,000 lines) to 50,000 chars, next to one newline
 * scan of it and to trimResult on the same text with its marker renamed (not ours: the ordinary
 * pipeline), in one run. A re-trim scans the lines twice (to rank them, and for the outcome's
 * salient lines) where the ordinary pipeline scans them once.
 */
async function runRetrim(n: number): Promise<SpeedRow[]> {
  const ours = excerptShaped(100_000)
  const other = ours.replace('[... spillway:', '[... other:')
  const mb = ours.length / (1 << 20)
  const budget = 50_000
  const variants: Variant[] = [
    { id: 'retrim newline-scan', run: () => newlineScan(ours) > 0 },
    { id: 'trimResult excerpt-shaped, not ours (50k)', run: () => trimResult(other, { tool: 'terminal', maxChars: budget }).applied.includes('fit') },
    { id: 'trimResult re-trim of a 100k-line excerpt (50k)', run: () => trimResult(ours, { tool: 'terminal', maxChars: budget }).applied.includes('refit') },
  ]
  return runPaired(variants, n, mb)
}

/**
 * trimResult with an exact token budget (`maxTokens` and the o200k tokenizer) on the 1 MiB log,
 * next to one newline scan and one o200k count of that log, in one run. An exact budget tokenizes
 * the input at least once (the outcome's `original.tokens`, and whether it fits whole), so one
 * count is its floor: `vsTokenize` is the row's median over that count's.
 */
async function runTokens(n: number, maxTokens: number): Promise<SpeedRow[]> {
  const log = speedInput(1)
  const mb = log.length / (1 << 20)
  const variants: Variant[] = [
    { id: 'tokens newline-scan', run: () => newlineScan(log) > 0 },
    { id: 'tokens o200k count', run: () => countTokens(log) > maxTokens },
    // (`kept.tokens` is the tokenizer's count of the excerpt: no count more than the call's own)
    { id: `trimResult maxTokens ${maxTokens} (o200k)`, run: () => trimResult(log, { tool: 'terminal', maxTokens, tokenizer: countTokens }).kept.tokens <= maxTokens },
  ]
  const rows = await runPaired(variants, n, mb)
  const count = rows[1]!.medianMs
  return rows.map((r, i) => (i === 0 ? r : { ...r, vsTokenize: r.medianMs / count }))
}

/** trimResult on {@link denseInput} (1 MiB) next to one newline scan of it, in one run. */
async function runDense(n: number, budget: number): Promise<SpeedRow[]> {
  const dense = denseInput(1)
  const mb = dense.length / (1 << 20)
  const variants: Variant[] = [
    { id: 'dense newline-scan', run: () => newlineScan(dense) > 0 },
    { id: 'trimResult dense (every line a failure)', run: () => trimResult(dense, { tool: 'terminal', maxChars: budget }).text.length <= budget },
  ]
  return runPaired(variants, n, mb)
}

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
      // The salience scan alone (trimResult's one pass for error/failure lines), issue 16's goal: <= 10x the newline scan.
      { id: 'salience-scan', run: () => scanLines(input, true).salientTotal > 0 },
    ]
    if (mb <= STAGE_MAX_MB) {
      // What handle() costs beside trimResult, stage by stage: the floor its id costs (SHA-256 of
      // the UTF-8 bytes, WebCrypto), the UTF-8 encoding the blob needs, and secret redaction.
      const encoder = new TextEncoder()
      const utf8 = encoder.encode(input)
      const scratch = new Uint8Array(utf8.length)
      variants.push(
        { id: 'handle stage: sha-256', run: async () => (await crypto.subtle.digest('SHA-256', utf8)).byteLength === 32 },
        { id: 'handle stage: utf-8 encode', run: () => encoder.encodeInto(input, scratch).written === utf8.length },
        { id: 'handle stage: redactSecrets', run: () => redactSecrets(input).count === 0 },
      )
    }
    if (mb <= REGEX_ENGINE_MAX_MB) {
      // Regex grep on each engine over the same lines (core uses re2js; V8 is the backtracking
      // reference it replaced), then the whole fetch path with that regex.
      const split = input.split('\n')
      const v8 = new RegExp(SPEED_REGEX, 'iu')
      const re2js = compileMatcher(SPEED_REGEX, { maxChars: 256, literal: false, ignoreCase: true }) // core's matcher: re2js
      if (re2js.kind !== 'regex') throw new Error(`speed: core does not run ${SPEED_REGEX} as a regex`)
      const re2wasm = new RE2(SPEED_REGEX, 'iu')
      const expected = countMatching(split, (l) => v8.test(l))
      variants.push(
        { id: 'regex-v8', run: () => countMatching(split, (l) => v8.test(l)) === expected },
        { id: 'regex-re2js', run: () => countMatching(split, (l) => re2js.test(l)) === expected },
        { id: 'regex-re2-wasm', run: () => countMatching(split, (l) => re2wasm.test(l)) === expected },
        { id: 'fetch-grep-regex', run: async () => (await reader.fetch({ id, mode: 'grep', pattern: SPEED_REGEX_NONE, ignoreCase: true }, { sessionId: session })).text.includes(`no line matches, all ${split.length} lines`) },
      )
    }
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
    const v8At = variants.findIndex((v) => v.id === 'regex-v8')
    variants.forEach((v, i) => {
      const med = median(times[i]!)
      const vsV8 = v8At >= 0 && (v.id.startsWith('regex-') || v.id === 'fetch-grep-regex') ? { vsV8: med / median(times[v8At]!) } : {}
      rows.push({ variant: v.id, mb, reps: n, medianMs: med, p95Ms: quantile(times[i]!, 0.95), mbPerS: mb / (med / 1000), vsNewlineScan: med / scan, failures: failures[i]!, ...vsV8 })
    })
    text = undefined
    progress(`speed: ${mb} MB x ${n} reps done (trimResult ${median(times[1]!).toFixed(1)} ms, handle ${median(times[2]!).toFixed(1)} ms)`)
  }
  const jsonRows = await runJsonKeys(reps(10), budget)
  rows.push(...jsonRows)
  progress(`speed: 1M-key JSON x ${reps(10)} reps done (trimResult ${jsonRows[2]!.medianMs.toFixed(1)} ms)`)
  const denseRows = await runDense(reps(1), budget)
  rows.push(...denseRows)
  progress(`speed: dense 1 MB log x ${reps(1)} reps done (trimResult ${denseRows[1]!.medianMs.toFixed(1)} ms)`)
  const retrimRows = await runRetrim(Math.max(3, Math.ceil(reps(1) / 3)))
  rows.push(...retrimRows)
  progress(`speed: re-trim of a 100,000-line excerpt x ${retrimRows[0]!.reps} reps done (${retrimRows[2]!.medianMs.toFixed(1)} ms; the same text not ours ${retrimRows[1]!.medianMs.toFixed(1)} ms)`)
  const tokenRows = await runTokens(reps(1), 2000)
  rows.push(...tokenRows)
  progress(`speed: exact token budget on a 1 MB log x ${reps(1)} reps done (trimResult ${tokenRows[2]!.medianMs.toFixed(1)} ms, ${tokenRows[2]!.vsTokenize!.toFixed(2)}x one o200k count)`)
  return rows
}
