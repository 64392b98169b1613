// Labelled lines kept on the held-out CI logs of bench/heldout/ (see its README.md): public,
// permissively licensed logs of other projects, build systems and languages than the development
// corpus, labelled without reading the salience code. They are never used to write or fit rules
// (the weight fit of the trimming suite sees only the development corpus), so this is the row that
// says how the excerpt does on logs it was not tuned on.
import type { TrimMethod } from '../baselines/types.js'
import { DEFAULT_HELDOUT_DIR, heldoutManifest, loadHeldout } from '../corpus/heldout.js'
import { basename, resolve } from 'node:path'
import { runHeldout } from '../heldout-run.js'
import { oracleRetention } from '../metrics/oracle.js'
import { mean } from '../metrics/stats.js'
import type { Progress } from '../progress.js'
import { REPORT_BUDGETS, matchOf } from './trimming.js'

/** Mean retention of one method over a group of held-out logs, at each of `budgets`. */
export interface HeldoutGroupRow {
  method: string
  /** `all`, or a MANIFEST.tsv family (`new-sources`, `cidiff-other-projects`). */
  group: string
  logs: number
  retention: number[]
}

/** What the held-out suite reports. */
export interface HeldoutResult {
  /** The set's folder name: `heldout` (never used to write or fit rules) or `devextra` (development data). Absent in older reports: `heldout`. */
  set?: string
  budgets: number[]
  logs: number
  rows: HeldoutGroupRow[]
  /** spillway's weakest logs at 8k: id, build system, retention, and the labels-known reference's there. */
  weakest: Array<{ id: string; build: string; retention8k: number; oracle8k?: number }>
  /** Excerpts over their budget, all methods (must be 0). */
  overBudget: number
}

/** Method id of the labels-known reference in the rows (not a trimming method: it reads the labels). */
export const ORACLE = 'labels-known'

/** Runs every method on every log of the labelled set in `dir` (default: the held-out set) at the report budgets. */
export function runHeldoutSuite(methods: readonly TrimMethod[], progress: Progress, dir: string = DEFAULT_HELDOUT_DIR): HeldoutResult {
  const set = basename(resolve(dir))
  const cases = loadHeldout(dir)
  const manifest = heldoutManifest(dir)
  const rows = runHeldout(cases, methods, REPORT_BUDGETS)
  // The labels-known reference (`metrics/oracle.ts`): about the most any excerpt of each size could keep.
  const oracle = cases.map((c) => ({ id: c.name, method: ORACLE, retention: oracleRetention(c.labelled ?? [], matchOf(c), REPORT_BUDGETS), overBudget: 0 }))
  const familyOf = (name: string): string => manifest.get(name.slice(set.length + 1))?.['family'] ?? 'unknown'
  const groups = ['all', ...new Set(cases.map((c) => familyOf(c.name)))]
  const out: HeldoutGroupRow[] = []
  const all = [...rows, ...oracle]
  for (const method of [...methods.map((m) => m.id), ORACLE]) {
    for (const group of groups) {
      const of = all.filter((r) => r.method === method && (group === 'all' || familyOf(r.id) === group))
      out.push({ method, group, logs: of.length, retention: REPORT_BUDGETS.map((_, i) => mean(of.map((r) => r.retention[i]!))) })
    }
  }
  const at8k = REPORT_BUDGETS.indexOf(8000)
  const weakest = rows
    .filter((r) => r.method === 'spillway')
    .sort((a, b) => a.retention[at8k]! - b.retention[at8k]! || (a.id < b.id ? -1 : 1))
    .slice(0, 8)
    .map((r) => ({ id: r.id, build: manifest.get(r.id.slice(set.length + 1))?.['build'] ?? '', retention8k: r.retention[at8k]!, oracle8k: oracle.find((o) => o.id === r.id)!.retention[at8k]! }))
  progress(`${set}: ${cases.length} logs x ${methods.length} methods x ${REPORT_BUDGETS.length} budgets`)
  return { set, budgets: [...REPORT_BUDGETS], logs: cases.length, rows: out, weakest, overBudget: rows.reduce((s, r) => s + r.overBudget, 0) }
}

/** What the labels-known column is, for the report. */
export const ORACLE_NOTE = `\`${ORACLE}\` is not a method but the reference the others are read against: the excerpt a picker that knew the labels would write (the labelled lines alone, each once, most labels per char first; no head, tail, line numbers or markers), scored by the same rule. Where it is under 100%, the labelled lines alone do not fit the budget.`

const pct = (x: number | undefined): string => (x === undefined ? '-' : `${(x * 100).toFixed(1)}%`)

/** The report section. */
export function heldoutMarkdown(h: HeldoutResult): string {
  const methods = [...new Set(h.rows.map((r) => r.method))]
  const groups = [...new Set(h.rows.map((r) => r.group))]
  const dev = h.set === 'devextra'
  const out = [
    dev ? '## Second development set (own corpus; rules may be written against it)' : '## Held-out CI logs (own corpus, never used to write or fit rules)',
    '',
    dev
      ? `Mean share of labelled failure lines visible in the excerpt on the ${h.logs} logs of \`bench/devextra/\`: runners the shared corpus lacks, grouped by runner family (sources and licences in its MANIFEST.tsv). Development data: the salience rules may be written against these logs, so this row is in-sample, not a generalisation figure. Excerpts over budget: ${h.overBudget}.`
      : `Mean share of labelled failure lines visible in the excerpt on the ${h.logs} logs of \`bench/heldout/\` (Xcode/SwiftPM/Buck, MSBuild, tox/pytest, PHPUnit, RSpec/Cucumber, go test -json, Jest, and cidiff projects the development corpus does not have; sources and licences in its MANIFEST.tsv). Excerpts over budget: ${h.overBudget}.`,
    ...(methods.includes(ORACLE) ? ['', ORACLE_NOTE] : []),
    '',
    `| logs | n | budget | ${methods.join(' | ')} |`,
    `| --- | --- | --- | ${methods.map(() => '---').join(' | ')} |`,
  ]
  for (const group of groups) {
    for (const [i, b] of h.budgets.entries()) {
      const n = h.rows.find((r) => r.group === group)?.logs ?? 0
      out.push(`| ${group} | ${n} | ${b / 1000}k | ${methods.map((m) => pct(h.rows.find((r) => r.method === m && r.group === group)?.retention[i])).join(' | ')} |`)
    }
  }
  out.push('', `spillway's weakest ${dev ? 'second-development-set' : 'held-out'} logs at 8k:`, '', `| log | build | kept at 8k | ${ORACLE} at 8k |`, '| --- | --- | --- | --- |')
  for (const w of h.weakest) out.push(`| ${w.id} | ${w.build} | ${pct(w.retention8k)} | ${pct(w.oracle8k)} |`)
  out.push('')
  return out.join('\n')
}
