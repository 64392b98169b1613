// Labelled lines kept when every line of a log carries a prefix another CI system, a logger or a
// container runner puts there (issue 16, section 1: logs we never saw). The development logs
// without a timestamp of their own (Jenkins, Travis CI, local runs) get each prefix on every line,
// and their labels the same prefix; a GitHub Actions timestamp is the reference, a prefix the
// salience rules have always read. A rule that reads a line's start only where it expects it
// (`[ERROR] `, `--- FAIL:`, `● `) loses its lines behind another prefix; what is left between a
// prefix's row and the reference's is the cost of the longer lines (fewer fit a budget), as the
// head+tail row, which reads no line, shows.
import { headTail } from '../baselines/head-tail.js'
import { spillwayTrim } from '../baselines/spillway.js'
import type { TrimMethod } from '../baselines/types.js'
import type { TrimCase } from '../corpus/types.js'
import { runHeldout } from '../heldout-run.js'
import { mean } from '../metrics/stats.js'
import { REPORT_BUDGETS } from './trimming.js'

/**
 * A prefix put before every line. The same on every line: labels are lines, not positions, so a
 * label the log prints twice is kept by either copy; a stamp that moved on would tie it to one.
 */
export interface LinePrefix {
  id: string
  /** What it is, for the report. */
  label: string
  /** Its name alone, for a sentence. */
  name: string
  prefix: string
}

/** The prefixes measured; `none` and `gha` first (the logs as they are; the reference). */
export const LINE_PREFIXES: readonly LinePrefix[] = [
  { id: 'none', label: 'as they are', name: 'none', prefix: '' },
  { id: 'gha', label: 'GitHub Actions `2024-01-02T03:04:05.1234567Z ` (reference)', name: 'GitHub Actions', prefix: '2024-01-02T03:04:05.1234567Z ' },
  { id: 'jenkins', label: 'Jenkins Pipeline `[2024-01-02T03:04:05.678Z] `', name: 'Jenkins Pipeline', prefix: '[2024-01-02T03:04:05.678Z] ' },
  { id: 'timestamper', label: "Jenkins Timestamper's clock `03:04:05 `", name: 'Timestamper', prefix: '03:04:05 ' },
  { id: 'logging', label: "Python logging's `2024-01-02 03:04:05,678 `", name: 'Python logging', prefix: '2024-01-02 03:04:05,678 ' },
  { id: 'golog', label: "Go's log package `2024/01/02 03:04:05 `", name: 'Go log', prefix: '2024/01/02 03:04:05 ' },
  { id: 'compose', label: 'Docker Compose `app-1  | `', name: 'Docker Compose', prefix: 'app-1  | ' },
  { id: 'gitlab', label: 'GitLab runner `2024-01-02T03:04:05.123456Z 01O ` (a stamp, then a stream marker)', name: 'GitLab', prefix: '2024-01-02T03:04:05.123456Z 01O ' },
  { id: 'turbo', label: 'Turborepo `web:test: `', name: 'Turborepo', prefix: 'web:test: ' },
  { id: 'pnpm', label: 'pnpm `packages/web test: `', name: 'pnpm', prefix: 'packages/web test: ' },
  { id: 'yarn', label: 'yarn workspaces `[@acme/web]: `', name: 'yarn', prefix: '[@acme/web]: ' },
  { id: 'kubectl', label: 'kubectl `[pod/web-7d9f8c6b5-x2x4q/app] `', name: 'kubectl', prefix: '[pod/web-7d9f8c6b5-x2x4q/app] ' },
  { id: 'ghlog', label: '`gh run view --log`: `build<TAB>Run tests<TAB>` and a GitHub Actions stamp', name: 'gh run view --log', prefix: 'build\tRun tests\t2024-01-02T03:04:05.1234567Z ' },
]

const STAMPED = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/

/** True when most of a log's first 100 non-blank lines carry an ISO timestamp already (GitHub Actions, `gh run view --log`): a second prefix would make no real log. */
export function isStamped(c: TrimCase): boolean {
  const head = c.text.split('\n').slice(0, 100).filter((l) => l.trim() !== '')
  return head.filter((l) => STAMPED.test(l.slice(0, 120))).length * 2 > head.length
}

/**
 * `c` with `p` before every line (a last empty line left empty), and each labelled line replaced
 * by its prefixed line (the first line of the log that trims to it; a label found in no line as it is).
 */
export function withPrefix(c: TrimCase, p: LinePrefix): TrimCase {
  const lines = c.text.split('\n')
  const out = lines.map((l, i) => (l === '' && i === lines.length - 1 ? l : p.prefix + l))
  const first = new Map<string, number>()
  lines.forEach((l, i) => {
    const t = l.trim()
    if (!first.has(t)) first.set(t, i)
  })
  const labelled = c.labelled?.map((lab) => {
    const i = first.get(lab.trim())
    return i === undefined ? lab : out[i]!
  })
  return { ...c, text: out.join('\n'), ...(labelled === undefined ? {} : { labelled }) }
}

/** Mean retention of one method on one set under one prefix. */
export interface PrefixRow {
  set: string
  prefix: string
  method: string
  logs: number
  retention: number[]
}

/** What the prefix suite reports. */
export interface PrefixResult {
  budgets: number[]
  prefixes: Array<{ id: string; label: string; name?: string }>
  rows: PrefixRow[]
  /** Excerpts over their budget, all methods (must be 0). */
  overBudget: number
}

/** The methods compared: spillway and head+tail (which reads no line: the cost of longer lines alone). */
export const PREFIX_METHODS: readonly TrimMethod[] = [spillwayTrim, headTail]

/** Runs every method on the logs of each set without a timestamp of their own, under every prefix, at the report budgets. */
export function runPrefixes(sets: ReadonlyArray<[string, readonly TrimCase[]]>, methods: readonly TrimMethod[] = PREFIX_METHODS, prefixes: readonly LinePrefix[] = LINE_PREFIXES): PrefixResult {
  const rows: PrefixRow[] = []
  let overBudget = 0
  for (const [set, all] of sets) {
    const cases = all.filter((c) => !isStamped(c))
    for (const p of prefixes) {
      const run = runHeldout(cases.map((c) => withPrefix(c, p)), methods, REPORT_BUDGETS)
      for (const m of methods) {
        const of = run.filter((r) => r.method === m.id)
        overBudget += of.reduce((s, r) => s + r.overBudget, 0)
        rows.push({ set, prefix: p.id, method: m.id, logs: of.length, retention: REPORT_BUDGETS.map((_, i) => mean(of.map((r) => r.retention[i]!))) })
      }
    }
  }
  return { budgets: [...REPORT_BUDGETS], prefixes: prefixes.map(({ id, label, name }) => ({ id, label, name })), rows, overBudget }
}

const pct = (v: number): string => `${(v * 100).toFixed(1)}%`

/** The report section. */
export function prefixesMarkdown(r: PrefixResult): string {
  const head = r.budgets.map((b) => `${b / 1000}k`)
  const label = new Map(r.prefixes.map((p) => [p.id, p.label]))
  const out = [
    '## Trimming: logs behind a line prefix',
    '',
    'Mean share of labelled failure lines kept when every line of a development log carries a prefix another CI system, a logger or a container runner puts there (`bench/src/suites/prefixes.ts`): the logs without a timestamp of their own, each prefix on every line and on its labels. A GitHub Actions timestamp is the reference (a prefix the rules have always read); what is left between a prefix and it is the cost of longer lines, as head+tail (which reads no line) shows. ' +
      `Excerpts over budget: ${r.overBudget}.`,
    '',
    `| set | prefix | method | logs | ${head.join(' | ')} |`,
    `|---|---|---|---:|${head.map(() => '---:').join('|')}|`,
  ]
  for (const row of r.rows) out.push(`| ${row.set} | ${(label.get(row.prefix) ?? row.prefix).replace(/\|/g, '\\|')} | ${row.method} | ${row.logs} | ${row.retention.map(pct).join(' | ')} |`)
  out.push('')
  return out.join('\n')
}
