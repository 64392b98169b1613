// Labelled lines kept when spillway's own excerpt is trimmed again to a smaller budget (issue 16,
// section 4: a host trims after us, a sub-agent's result or a proxy passes through spillway
// twice). `trimResult` reads its excerpt back and re-fits it in the original's line numbers
// (`applied: ['refit']`); a host that cuts the excerpt by chars instead (50/50 head+tail) is the
// reference, and a direct excerpt of the original at the smaller budget the ceiling: a refit only
// has the first excerpt's lines.
import { trimResult } from '@spillway/core'
import { headTail } from '../baselines/head-tail.js'
import { TOOL_FOR_KIND, type TrimCase } from '../corpus/types.js'
import { retention } from '../metrics/retention.js'
import { mean } from '../metrics/stats.js'
import { matchOf } from './trimming.js'

/** The first excerpt's budget and the smaller one it is trimmed to again. */
export const RETRIM_PAIRS: ReadonlyArray<readonly [number, number]> = [
  [16_000, 8000],
  [8000, 4000],
  [8000, 2000],
  [4000, 2000],
]

/** Mean retention on one set for one pair: the refit, a head+tail cut of the excerpt, and a direct excerpt. */
export interface RetrimRow {
  set: string
  from: number
  to: number
  /** Logs over `from` chars (the others have no excerpt to trim again). */
  logs: number
  /** Of them, re-trims that re-fitted the excerpt (`applied: ['refit']`): the rest were cut as plain text. */
  refits: number
  refit: number
  headTail: number
  direct: number
  /** Mean share of `to` the re-trim left unused. */
  unused: number
}

/** What the re-trim suite reports. */
export interface RetrimResult {
  rows: RetrimRow[]
  /** Re-trims over their budget (must be 0). */
  overBudget: number
}

/** Trims each labelled log of each set to `from`, then that excerpt to `to`, for every pair. */
export function runRetrim(sets: ReadonlyArray<[string, readonly TrimCase[]]>, pairs: ReadonlyArray<readonly [number, number]> = RETRIM_PAIRS): RetrimResult {
  const rows: RetrimRow[] = []
  let overBudget = 0
  for (const [set, cases] of sets) {
    for (const [from, to] of pairs) {
      const refit: number[] = []
      const cut: number[] = []
      const direct: number[] = []
      const unused: number[] = []
      let refits = 0
      for (const c of cases) {
        if (c.text.length <= from || c.labelled === undefined) continue
        const tool = TOOL_FOR_KIND[c.kind]
        const score = (text: string): number => retention(text, c.labelled ?? [], matchOf(c)) ?? 0
        const excerpt = trimResult(c.text, { tool, maxChars: from }).text
        const again = trimResult(excerpt, { tool, maxChars: to })
        if (again.text.length > to) overBudget++
        if (again.applied.includes('refit')) refits++
        refit.push(score(again.text))
        unused.push((to - again.text.length) / to)
        cut.push(score(headTail.run(excerpt, { budget: to, kind: c.kind, tool })))
        direct.push(score(trimResult(c.text, { tool, maxChars: to }).text))
      }
      rows.push({ set, from, to, logs: refit.length, refits, refit: mean(refit), headTail: mean(cut), direct: mean(direct), unused: mean(unused) })
    }
  }
  return { rows, overBudget }
}

const pct = (v: number): string => `${(v * 100).toFixed(1)}%`

/** The report section. */
export function retrimMarkdown(r: RetrimResult): string {
  const out = [
    "## Trimming: spillway's excerpt trimmed again",
    '',
    "Mean share of labelled failure lines kept when a labelled log's excerpt is trimmed again to a smaller budget (`bench/src/suites/retrim.ts`): spillway reads its excerpt back and re-fits it in the original's line numbers (`refit`; the logs whose excerpt was not read back are cut as plain text, and count too); `head+tail` is a host that cuts the excerpt 50/50 instead; `direct` is spillway's excerpt of the original at the smaller budget, the ceiling (a refit has only the first excerpt's lines). " +
      `Re-trims over budget: ${r.overBudget}.`,
    '',
    '| set | re-trim | logs | refitted | refit | head+tail of the excerpt | direct | unused |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
  ]
  for (const row of r.rows) out.push(`| ${row.set} | ${row.from / 1000}k -> ${row.to / 1000}k | ${row.logs} | ${row.refits} | ${pct(row.refit)} | ${pct(row.headTail)} | ${pct(row.direct)} | ${pct(row.unused)} |`)
  out.push('')
  return out.join('\n')
}
