// `pnpm bench`: loads the corpus, runs the trimming, speed and retrieval suites in one process on
// the same inputs, and writes report.json, report.md and SVG charts. Progress goes to stderr.
import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs, USAGE } from './args.js'
import { TRIM_METHODS } from './baselines/index.js'
import { loadCorpus } from './corpus/load.js'
import { syntheticCorpus } from './corpus/synthetic.js'
import { CASE_KINDS, type Corpus, type TrimCase } from './corpus/types.js'
import { machine, peakRssMiB, versions } from './env.js'
import { o200k } from './metrics/tokens.js'
import { createProgress } from './progress.js'
import { buildHeadline } from './report/headline.js'
import type { Report } from './report/types.js'
import { writeReport } from './report/write.js'
import { RETRIEVAL_METHODS, runRetrieval, sampleEvenly } from './suites/retrieval.js'
import { runSpeed } from './suites/speed.js'
import { runStore } from './suites/store.js'
import { runCompaction } from './suites/compaction.js'
import { runRedaction } from './suites/redaction.js'
import { runBlobFormat } from './suites/blob-format.js'
import { CACHE_PRICING } from '@spillway/core'
import { runMcp, writeMcpReport } from './suites/mcp.js'
import { labelledCases, runTrimming } from './suites/trimming.js'
import { runPrefixes } from './suites/prefixes.js'
import { runHeldoutSuite } from './suites/heldout.js'
import { runRetrim } from './suites/retrim.js'
import { DEFAULT_DEVEXTRA_DIR, DEFAULT_HELDOUT_DIR, heldoutIds, loadHeldout } from './corpus/heldout.js'

const BENCH_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const REPO_ROOT = resolve(BENCH_DIR, '..')
const SHARED_CORPUS = resolve(REPO_ROOT, '../shared/corpus')

/** Quick mode: at most this many cases per kind and queries per retrieval set. */
const QUICK_CASES_PER_KIND = 6
const QUICK_QUERIES = 300

function pickCorpus(args: ReturnType<typeof parseArgs>): Corpus {
  if (args.synthetic) return syntheticCorpus()
  if (args.corpus !== undefined) {
    if (!existsSync(args.corpus)) throw new Error(`--corpus ${args.corpus}: no such folder`)
    return loadCorpus(args.corpus)
  }
  if (existsSync(join(SHARED_CORPUS, 'README.md'))) return loadCorpus(SHARED_CORPUS)
  const c = syntheticCorpus()
  c.notes.unshift(`no corpus at ${SHARED_CORPUS} and no --corpus given: using the synthetic corpus`)
  return c
}

/** A few cases of every (kind, label set) pair, spread over the corpus, so every figure still has inputs. */
function quickCases(cases: readonly TrimCase[]): TrimCase[] {
  return CASE_KINDS.flatMap((kind) => {
    const of = cases.filter((c) => c.kind === kind)
    return [...new Set(of.map((c) => c.labelSource))].flatMap((src) => sampleEvenly(of.filter((c) => c.labelSource === src), QUICK_CASES_PER_KIND))
  })
}

async function main(): Promise<void> {
  const t0 = performance.now()
  const args = parseArgs(process.argv.slice(2), process.env['INIT_CWD'] ?? process.cwd(), join(BENCH_DIR, 'results'))
  if (args.help) {
    process.stdout.write(`${USAGE}\n`)
    return
  }
  const progress = createProgress()
  const corpus = pickCorpus(args)
  progress(`corpus: ${corpus.source === 'synthetic' ? 'SYNTHETIC (generated, seeded)' : corpus.dir} - ${corpus.cases.length} results, ${corpus.retrieval.length} retrieval sets`)
  for (const n of corpus.notes) progress(`note: ${n}`)
  const cases = args.quick ? quickCases(corpus.cases) : corpus.cases
  const durations: Record<string, number> = {}
  const problems: string[] = []
  const timed = async <T>(name: string, run: () => Promise<T> | T): Promise<T | null> => {
    const s = performance.now()
    try {
      return await run()
    } catch (err) {
      problems.push(`${name} suite failed: ${err instanceof Error ? err.message : String(err)}`)
      progress(`${name}: FAILED - ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`)
      return null
    } finally {
      durations[name] = (performance.now() - s) / 1000
    }
  }

  const trimming = args.only.has('trimming') ? await timed('trimming', () => runTrimming(cases, TRIM_METHODS, o200k, progress)) : null
  // The held-out logs live in the repository (bench/heldout/): measured in every run that trims.
  const heldout = args.only.has('trimming') && !args.noHeldout ? await timed('heldout', () => runHeldoutSuite(TRIM_METHODS, progress)) : null
  // The second development set (bench/devextra/), when present: reported apart from the shared corpus.
  const devextra = args.only.has('trimming') && heldoutIds(DEFAULT_DEVEXTRA_DIR).length > 0 ? await timed('devextra', () => runHeldoutSuite(TRIM_METHODS, progress, DEFAULT_DEVEXTRA_DIR)) : null
  // The development logs behind other CI systems' line prefixes (Jenkins, Python logging, Docker Compose).
  const prefixes = args.only.has('trimming') ? await timed('prefixes', () => runPrefixes([['shared corpus', labelledCases(cases).filter((c) => c.kind === 'ci-log')], ...(heldoutIds(DEFAULT_DEVEXTRA_DIR).length > 0 ? [['devextra', loadHeldout(DEFAULT_DEVEXTRA_DIR)] as [string, TrimCase[]]] : [])])) : null
  // spillway's excerpt of each labelled log trimmed again to a smaller budget (the refit).
  const retrim = args.only.has('trimming')
    ? await timed('retrim', () =>
        runRetrim([
          ['shared corpus', labelledCases(cases).filter((c) => c.kind === 'ci-log')],
          ...(heldoutIds(DEFAULT_DEVEXTRA_DIR).length > 0 ? [['devextra', loadHeldout(DEFAULT_DEVEXTRA_DIR)] as [string, TrimCase[]]] : []),
          ...(!args.noHeldout ? [['held-out', loadHeldout(DEFAULT_HELDOUT_DIR)] as [string, TrimCase[]]] : []),
        ]),
      )
    : null
  const rssAfterTrim = trimming === null ? null : peakRssMiB()
  const retrieval = args.only.has('retrieval') ? await timed('retrieval', () => runRetrieval(corpus.retrieval, args.quick ? QUICK_QUERIES : Number.POSITIVE_INFINITY, progress, corpus.dir !== undefined ? join(corpus.dir, 'retrieval') : undefined, args.quick ? 1 : undefined)) : null
  const sizes = args.quick ? [1, 10] : [1, 10, 100]
  const reps = (mb: number): number => (args.quick ? (mb >= 10 ? 3 : 5) : mb >= 100 ? 3 : mb >= 10 ? 7 : 15)
  const speed = args.only.has('speed') ? await timed('speed', () => runSpeed(sizes, reps, progress)) : null
  const storeSettings = args.quick
    ? { sizes: [1], reps: () => 3, processes: 4, putsPerProcess: 10, clientSizes: [1], clientReps: (b: number) => (b > 4096 ? 5 : 20) }
    : { sizes: [1, 10, 100], reps: (mb: number) => (mb >= 100 ? 3 : mb >= 10 ? 5 : 9), processes: 4, putsPerProcess: 100, clientSizes: [1, 10], clientReps: (b: number) => (b >= 10 << 20 ? 15 : b > 4096 ? 40 : 300) }
  const store = args.only.has('store') ? await timed('store', () => runStore(storeSettings, progress)) : null
  const toolbench = corpus.retrieval.find((r) => r.name.toLowerCase().includes('toolbench'))?.tools ?? []
  const mcp = args.only.has('mcp') ? await timed('mcp', () => runMcp(cases, toolbench, { latencyCalls: args.quick ? 200 : 1000 }, progress)) : null
  // One 60-turn session per provider's cache pricing (quick: 20 turns, Anthropic only).
  const pricings = args.quick ? [CACHE_PRICING.anthropic] : [CACHE_PRICING.anthropic, CACHE_PRICING.openai, CACHE_PRICING.google]
  const compaction = args.only.has('compaction') ? await timed('compaction', async () => Promise.all(pricings.map((pricing) => runCompaction(cases, o200k, { pricing, turns: args.quick ? 20 : 60, ...(args.quick ? { contextWindow: 32_000 } : {}) })))) : null
  const redaction = args.only.has('redaction') ? await timed('redaction', () => runRedaction(cases, progress)) : null
  // Full runs add the 100 M-char and 500 MB rows (range cost, grep memory).
  const format = args.only.has('format') ? await timed('format', async () => (await runBlobFormat({ big: !args.quick })).rows) : null
  durations['total'] = (performance.now() - t0) / 1000

  const cases_: Record<string, number> = {}
  for (const c of cases) cases_[c.kind] = (cases_[c.kind] ?? 0) + 1
  const partial: Omit<Report, 'headline'> = {
    generatedAt: new Date().toISOString(),
    mode: args.quick ? 'quick' : 'full',
    argv: process.argv.slice(2),
    corpus: {
      source: corpus.source,
      ...(corpus.dir === undefined ? {} : { dir: corpus.dir }),
      notes: corpus.notes,
      cases: cases_,
      retrievalSets: corpus.retrieval.map((s) => ({ name: s.name, tools: s.tools.length, queries: args.quick ? Math.min(QUICK_QUERIES, s.queries.length) : s.queries.length })),
    },
    tokenizer: 'o200k_base (gpt-tokenizer)',
    versions: versions(REPO_ROOT, BENCH_DIR),
    machine: machine(),
    methods: { trimming: TRIM_METHODS.map(({ id, label, source, budgetNative }) => ({ id, label, source, budgetNative })), retrieval: RETRIEVAL_METHODS },
    trimming,
    heldout,
    devextra,
    prefixes,
    retrim,
    speed,
    store,
    compaction,
    redaction,
    format,
    retrieval,
    memory: { peakRssMiBAfterTrimming: rssAfterTrim, peakRssMiBEnd: peakRssMiB() },
    durations,
    problems,
  }
  const report: Report = { headline: buildHeadline(partial), ...partial }
  const files = writeReport(args.out, report)
  if (mcp !== null) files.push(...writeMcpReport(args.out, mcp))
  progress(`wrote ${files.join(', ')} to ${args.out}`)
  process.stdout.write(`${report.headline}\n`)
  if (problems.length > 0) process.exitCode = 1
}

main().catch((err: unknown) => {
  process.stderr.write(`bench: ${err instanceof Error ? err.message : String(err)}\n`)
  process.exitCode = 1
})
