// Fast development check: spillway's shipped defaults on the two development sets, the shared
// corpus's labelled CI logs (`../shared/corpus`) and `bench/devextra/`, as mean retention at the
// report budgets, in seconds rather than the trimming suite's minutes (no weight grid, no
// leave-one-source-out refit, no baselines). Same cases, label rules and retention as the
// trimming suite, so its `shipped defaults` row and this agree. Never reads the held-out set.
// Run from bench/:
//   node --conditions=@spillway/source --import tsx src/dev-run.ts [--corpus ../../shared/corpus] [--by-log]
// A sweep over a setting is then a shell loop around it; the full bench still decides (it adds
// the leave-one-source-out figure, which a setting can lower while raising the in-sample one).
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { spillwayTrim } from './baselines/spillway.js'
import { DEFAULT_DEVEXTRA_DIR, DEFAULT_HELDOUT_DIR, loadHeldout } from './corpus/heldout.js'
import { loadCorpus } from './corpus/load.js'
import type { TrimCase } from './corpus/types.js'
import { runHeldout } from './heldout-run.js'
import { mean } from './metrics/stats.js'
import { REPORT_BUDGETS, labelledCases } from './suites/trimming.js'

/** Retention of each case at each budget under spillway's shipped defaults. */
export function devRetention(cases: readonly TrimCase[], budgets: readonly number[] = REPORT_BUDGETS): number[][] {
  return runHeldout(cases, [spillwayTrim], budgets).map((row) => row.retention)
}

/** The shared corpus's CI logs with at least one non-blank labelled line (the trimming suite's set). */
export function labelledCiLogs(corpusDir: string): TrimCase[] {
  return labelledCases(loadCorpus(corpusDir).cases).filter((c) => c.kind === 'ci-log')
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`

function main(): void {
  const { values } = parseArgs({ options: { corpus: { type: 'string' }, 'by-log': { type: 'boolean' } } })
  const corpus = values.corpus ?? resolve(DEFAULT_HELDOUT_DIR, '../../../shared/corpus')
  const sets: Array<[string, TrimCase[]]> = [
    ['shared corpus', labelledCiLogs(corpus)],
    ['devextra', loadHeldout(DEFAULT_DEVEXTRA_DIR)],
  ]
  const head = REPORT_BUDGETS.map((b) => `${b / 1000}k`)
  console.log(`| set | logs | ${head.join(' | ')} |`)
  console.log(`|---|---:|${head.map(() => '---:').join('|')}|`)
  for (const [name, cases] of sets) {
    const r = devRetention(cases)
    if (values['by-log'] === true) cases.forEach((c, i) => console.log(`| ${name}: ${c.name} | | ${r[i]!.map(pct).join(' | ')} |`))
    console.log(`| ${name} | ${cases.length} | ${REPORT_BUDGETS.map((_, i) => pct(mean(r.map((x) => x[i]!)))).join(' | ')} |`)
  }
}

if (process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href) main()
