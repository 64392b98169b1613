// Standalone check of the held-out CI logs (bench/heldout/): validates the labels, then prints
// per-log and mean retention (share of labelled failure lines visible in the excerpt) at the
// report budgets for spillway and the 50/50 head+tail baseline, with the same retention rule as
// the trimming suite. Run from bench/:
//   node --conditions=@spillway/source --import tsx src/heldout-run.ts [--dir ../heldout] [--json]
// (`--dir devextra`: the second development set, same layout and checks; the folder is relative to where it runs)
// Exit code 1 when a label is broken or an excerpt is over its budget.
import { existsSync } from 'node:fs'
import { basename, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { headTail } from './baselines/head-tail.js'
import { spillwayTrim } from './baselines/spillway.js'
import type { TrimMethod } from './baselines/types.js'
import { DEFAULT_DEVEXTRA_DIR, DEFAULT_HELDOUT_DIR, checkHeldout, checkLicenses, checkNotInDevCorpus, heldoutManifest, loadHeldout } from './corpus/heldout.js'
import { TOOL_FOR_KIND, type TrimCase } from './corpus/types.js'
import { retention } from './metrics/retention.js'
import { oracleRetention } from './metrics/oracle.js'
import { mean } from './metrics/stats.js'
import { REPORT_BUDGETS, matchOf } from './suites/trimming.js'

/** The methods compared: spillway and the head+tail reference. */
export const HELDOUT_METHODS: readonly TrimMethod[] = [spillwayTrim, headTail]

/** Retention of one case under one method at each budget, and how many outputs were over budget. */
export interface HeldoutRow {
  id: string
  method: string
  retention: number[]
  overBudget: number
}

/** Runs every method on every case at every budget in `budgets`. */
export function runHeldout(cases: readonly TrimCase[], methods: readonly TrimMethod[] = HELDOUT_METHODS, budgets: readonly number[] = REPORT_BUDGETS): HeldoutRow[] {
  const rows: HeldoutRow[] = []
  for (const method of methods) {
    for (const c of cases) {
      let over = 0
      const r = budgets.map((budget) => {
        const out = method.run(c.text, { budget, kind: c.kind, tool: TOOL_FOR_KIND[c.kind] })
        if (out.length > budget) over++
        return retention(out, c.labelled ?? [], matchOf(c)) ?? 0
      })
      rows.push({ id: c.name, method: method.id, retention: r, overBudget: over })
    }
  }
  return rows
}

const pct = (x: number): string => `${(x * 100).toFixed(1)}%`

function main(): void {
  const { values } = parseArgs({ options: { dir: { type: 'string' }, dev: { type: 'string' }, json: { type: 'boolean' } } })
  const dir = values.dir ?? DEFAULT_HELDOUT_DIR
  const devDir = values.dev ?? resolve(DEFAULT_HELDOUT_DIR, '../../../shared/corpus')
  // (logs made here belong in the development set only, never in the held-out one)
  const problems = [...checkHeldout(dir), ...checkLicenses(dir, { generated: resolve(dir) === resolve(DEFAULT_DEVEXTRA_DIR) })]
  if (existsSync(devDir)) problems.push(...checkNotInDevCorpus(devDir, dir))
  else console.error(`note: no development corpus at ${devDir}: not checked that no held-out log is one of its files`)
  if (problems.length > 0) {
    for (const p of problems) console.error(p)
    process.exit(1)
  }
  const cases = loadHeldout(dir)
  const rows = runHeldout(cases)
  const families = new Map<string, Set<string>>()
  for (const [id, row] of heldoutManifest(dir)) {
    const f = row['family'] ?? 'unknown'
    if (!families.has(f)) families.set(f, new Set())
    families.get(f)!.add(`${basename(resolve(dir))}/${id}`)
  }
  if (values.json === true) {
    console.log(JSON.stringify({ budgets: REPORT_BUDGETS, rows }, null, 2))
  } else {
    const head = REPORT_BUDGETS.map((b) => `${b / 1000}k`)
    const known = cases.map((c) => oracleRetention(c.labelled ?? [], matchOf(c), REPORT_BUDGETS))
    console.log(`labelled CI logs: ${cases.length} from ${dir}`)
    for (const method of HELDOUT_METHODS) {
      console.log(`\n${method.label} (${method.id})`)
      console.log(`| log | chars | labelled lines | ${head.join(' | ')} |`)
      console.log(`|---|---:|---:|${head.map(() => '---:').join('|')}|`)
      const of = rows.filter((r) => r.method === method.id)
      for (const r of of) {
        const c = cases.find((x) => x.name === r.id)!
        console.log(`| ${r.id} | ${c.text.length} | ${c.labelled?.length ?? 0} | ${r.retention.map(pct).join(' | ')} |`)
      }
      console.log(`| **mean** (${of.length} logs) | | | ${REPORT_BUDGETS.map((_, i) => `**${pct(mean(of.map((r) => r.retention[i]!)))}**`).join(' | ')} |`)
      if (method.id === 'spillway') console.log(`| mean, labels known (\`metrics/oracle.ts\`: the labelled lines alone) | | | ${REPORT_BUDGETS.map((_, i) => pct(mean(known.map((k) => k[i]!)))).join(' | ')} |`)
      for (const [family, ids] of families) {
        const fam = of.filter((r) => ids.has(r.id))
        if (fam.length > 0) console.log(`| mean of ${family} (${fam.length} logs) | | | ${REPORT_BUDGETS.map((_, i) => pct(mean(fam.map((r) => r.retention[i]!)))).join(' | ')} |`)
      }
    }
  }
  const over = rows.reduce((s, r) => s + r.overBudget, 0)
  if (over > 0) {
    console.error(`${over} excerpt(s) over budget`)
    process.exit(1)
  }
}

if (process.argv[1] !== undefined && import.meta.url === new URL(`file://${process.argv[1]}`).href) main()
