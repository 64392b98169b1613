// Trimming suite: every method on every case at every budget, same inputs.
import type { TrimMethod } from '../baselines/index.js'
import { CASE_KINDS, TOOL_FOR_KIND, type CaseKind, type TrimCase } from '../corpus/types.js'
import { SPAN_LABEL_SOURCES, retention, type LabelMatch } from '../metrics/retention.js'
import { ruleSpread, sourceTables, type RuleSpread, type SourceRow, type SourceSummary } from '../metrics/sources.js'
import { fitWeights, type WeightFit } from '../metrics/fit-weights.js'
import { mean } from '../metrics/stats.js'
import { filesNamed, shapeStated } from '../metrics/structure.js'
import type { Progress } from '../progress.js'

/** The budgets of the per-kind tables, in chars. */
export const REPORT_BUDGETS = [2000, 4000, 8000, 16000] as const
/** The grid searched for the budget that keeps 90% of labelled lines, in chars. */
export const RETENTION_GRID = [1000, 2000, 3000, 4000, 6000, 8000, 12000, 16000, 24000, 32000, 48000, 64000, 96000, 128000] as const

/** One (method, kind, budget) cell. */
export interface TrimCell {
  method: string
  kind: CaseKind
  budget: number
  cases: number
  /** Sum of o200k tokens of the inputs / of the outputs. */
  tokensBefore: number
  tokensAfter: number
  /** tokensAfter / tokensBefore. */
  keptShare: number
  /** Mean share of labelled lines kept (cases with labels only), or null. */
  retention: number | null
  /** Mean share of diff / grep files named, or null. */
  filesNamed: number | null
  /** Mean share of JSON shape facts stated (1 for a body shown whole), or null. */
  shapeStated: number | null
  /** Outputs over the budget (must be 0). */
  overBudget: number
  /** Mean ms per call. */
  msPerCall: number
}

/** Retention of one label source (cidiff, logchunks, bgl-alert, ...) by method and budget. */
export interface RetentionCurve {
  method: string
  labelSource: string
  /** Kind of the labelled results. */
  kind: CaseKind
  cases: number
  /** Mean retention at each {@link RETENTION_GRID} budget. */
  points: Array<{ budget: number; retention: number }>
  /** Smallest grid budget whose mean retention is >= 0.9, or null if none. */
  budgetFor90: number | null
  /** Median over logs of the smallest grid budget keeping >= 90% of that log's lines (null if over half never do). */
  medianPerLogBudgetFor90: number | null
  /** Share of logs that keep >= 90% at 8,000 chars. */
  logsAt90At8k: number
}

/** What the trimming suite returns. */
export interface TrimmingResult {
  cells: TrimCell[]
  curves: RetentionCurve[]
  /** Per kind: cases and total o200k tokens before trimming. */
  kinds: Array<{ kind: CaseKind; cases: number; tokens: number; chars: number }>
  /**
   * Retention by source (cidiff, each LogChunks language, each loghub system) at
   * {@link REPORT_BUDGETS}, per method: rows, and per method and kind the in-sample (mean over
   * logs) and source-balanced (mean over sources) figures. See `metrics/sources.ts`.
   */
  sources?: { budgets: readonly number[]; rows: SourceRow[]; summaries: SourceSummary[]; rules: RuleSpread[] }
  /**
   * The salience weights' grid search on the labelled CI logs: in-sample (all-source fit) and
   * leave-one-source-out retention at {@link REPORT_BUDGETS}. Absent when spillway is not among
   * the methods or no CI log is labelled. See `metrics/fit-weights.ts`.
   */
  weightFit?: WeightFit
}

/** How a case's labels are matched: spans for LogChunks, whole lines for the rest. */
export const matchOf = (c: TrimCase): LabelMatch => (c.labelSource !== undefined && SPAN_LABEL_SOURCES.has(c.labelSource) ? 'span' : 'line')

/** The cases with a labelled, non-blank line and a label source: the ones retention is reported for. */
export function labelledCases(cases: readonly TrimCase[]): TrimCase[] {
  return cases.filter((c) => c.labelled !== undefined && c.labelSource !== undefined && retention('', c.labelled) !== undefined)
}

const nullableMean = (xs: Array<number | undefined>): number | null => {
  const v = xs.filter((x): x is number => x !== undefined)
  return v.length === 0 ? null : mean(v)
}

/** Runs the trimming suite. `tokens` counts o200k tokens. */
export function runTrimming(cases: readonly TrimCase[], methods: readonly TrimMethod[], tokens: (s: string) => number, progress: Progress): TrimmingResult {
  const before = new Map<TrimCase, number>()
  for (const c of cases) before.set(c, tokens(c.text))
  const kinds = CASE_KINDS.map((kind) => {
    const of = cases.filter((c) => c.kind === kind)
    return { kind, cases: of.length, tokens: of.reduce((s, c) => s + before.get(c)!, 0), chars: of.reduce((s, c) => s + c.text.length, 0) }
  }).filter((k) => k.cases > 0)

  const cells: TrimCell[] = []
  for (const method of methods) {
    for (const { kind } of kinds) {
      const of = cases.filter((c) => c.kind === kind)
      for (const budget of REPORT_BUDGETS) {
        let after = 0, over = 0, ms = 0
        const ret: Array<number | undefined> = [], files: Array<number | undefined> = [], shape: Array<number | undefined> = []
        for (const c of of) {
          const t0 = performance.now()
          const out = method.run(c.text, { budget, kind, tool: TOOL_FOR_KIND[kind] })
          ms += performance.now() - t0
          if (out.length > budget) over++
          after += tokens(out)
          if (c.labelled !== undefined) ret.push(retention(out, c.labelled, matchOf(c)))
          if (c.files !== undefined) files.push(filesNamed(out, c.files))
          // A body shown whole has its whole shape in view; only excerpts must state it.
          if (c.jsonFacts !== undefined) shape.push(out === c.text && c.jsonFacts.length > 0 ? 1 : shapeStated(out, c.jsonFacts))
        }
        const tb = of.reduce((s, c) => s + before.get(c)!, 0)
        cells.push({
          method: method.id, kind, budget, cases: of.length, tokensBefore: tb, tokensAfter: after, keptShare: tb === 0 ? 0 : after / tb,
          retention: nullableMean(ret), filesNamed: nullableMean(files), shapeStated: nullableMean(shape), overBudget: over, msPerCall: ms / Math.max(1, of.length),
        })
      }
    }
    progress(`trimming: ${method.id} done (${kinds.length} kinds x ${REPORT_BUDGETS.length} budgets)`)
  }

  const curves: RetentionCurve[] = []
  // Logs without a non-blank label have no retention (undefined): left out, as in the cells.
  const labelled = labelledCases(cases)
  const sources = [...new Set(labelled.map((c) => c.labelSource!))]
  const byMethod = new Map<string, Map<TrimCase, number[]>>()
  const reportAt = REPORT_BUDGETS.map((b) => RETENTION_GRID.indexOf(b as (typeof RETENTION_GRID)[number]))
  for (const method of methods) {
    const byCase = new Map<TrimCase, number[]>()
    byMethod.set(method.id, byCase)
    for (const source of sources) {
      const of = labelled.filter((c) => c.labelSource === source)
      const perLog = of.map((c) => RETENTION_GRID.map((budget) => retention(method.run(c.text, { budget, kind: c.kind, tool: TOOL_FOR_KIND[c.kind] }), c.labelled!, matchOf(c))!))
      of.forEach((c, i) => byCase.set(c, reportAt.map((k) => perLog[i]![k]!)))
      const points = RETENTION_GRID.map((budget, i) => ({ budget, retention: mean(perLog.map((r) => r[i]!)) }))
      const firstAt = (r: number[]): number => {
        const i = r.findIndex((x) => x >= 0.9)
        return i < 0 ? Number.POSITIVE_INFINITY : RETENTION_GRID[i]!
      }
      const mins = perLog.map(firstAt).sort((a, b) => a - b)
      const med = mins[Math.ceil(mins.length / 2) - 1]
      const i8k = RETENTION_GRID.indexOf(8000)
      curves.push({
        method: method.id, labelSource: source, kind: of[0]!.kind, cases: of.length, points,
        budgetFor90: points.find((p) => p.retention >= 0.9)?.budget ?? null,
        medianPerLogBudgetFor90: med === undefined || !Number.isFinite(med) ? null : med,
        logsAt90At8k: perLog.filter((r) => r[i8k]! >= 0.9).length / Math.max(1, perLog.length),
      })
    }
    progress(`retention grid: ${method.id} done (${sources.join(', ')})`)
  }
  const tables = sourceTables(labelled, byMethod, REPORT_BUDGETS)
  const ciLogs = labelled.filter((c) => c.kind === 'ci-log')
  const weightFit = methods.some((m) => m.id === 'spillway') && ciLogs.length > 0 ? fitWeights(ciLogs, REPORT_BUDGETS, matchOf, progress) : undefined
  return { cells, curves, kinds, sources: { budgets: REPORT_BUDGETS, ...tables, rules: ruleSpread(labelled) }, ...(weightFit !== undefined ? { weightFit } : {}) }
}
