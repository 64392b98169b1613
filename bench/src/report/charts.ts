import { REPORT_BUDGETS } from '../suites/trimming.js'
import { barChart, lineChart } from './svg.js'
import type { Report } from './types.js'

const pctFmt = (v: number): string => `${Math.round(v * 100)}%`

/** The SVG charts of a report, by file name. */
export function renderCharts(r: Report): Record<string, string> {
  const charts: Record<string, string> = {}
  const t = r.trimming
  if (t !== null) {
    const methods = r.methods.trimming.map((m) => m.id)
    const budget = REPORT_BUDGETS.includes(8000) ? 8000 : REPORT_BUDGETS[0]
    charts['tokens-kept.svg'] = barChart({
      title: `Tokens kept per kind (o200k, % of input) at ${budget / 1000}k chars`, yLabel: 'tokens kept', format: pctFmt,
      groups: t.kinds.map((k) => k.kind), series: methods,
      values: t.kinds.map((k) => methods.map((m) => t.cells.find((c) => c.method === m && c.kind === k.kind && c.budget === budget)?.keptShare ?? null)),
    })
    // Pool every labelled log (all label sources), weighting each source by its log count.
    charts['retention-vs-budget.svg'] = lineChart({
      title: 'Labelled lines kept vs budget (all labelled logs)', xLabel: 'budget (chars, log scale)', yLabel: 'labelled lines kept', xLog: true, yMin: 0, yMax: 1,
      formatX: (v) => `${Math.round(v / 1000)}k`, formatY: pctFmt, xTicks: [1000, 2000, 4000, 8000, 16000, 32000, 64000, 128000],
      series: methods.map((m) => {
        const cs = t.curves.filter((c) => c.method === m)
        const n = cs.reduce((s, c) => s + c.cases, 0)
        const grid = cs[0]?.points.map((p) => p.budget) ?? []
        return { name: m, points: grid.map((b, i) => ({ x: b, y: cs.reduce((s, c) => s + c.points[i]!.retention * c.cases, 0) / Math.max(1, n) })) }
      }),
    })
  }
  const rows = r.retrieval ?? []
  if (rows.length > 0) {
    const sets = [...new Set(rows.map((x) => x.set))]
    const methods = r.methods.retrieval.map((m) => m.id)
    const groups = sets.flatMap((s) => (['recall1', 'recall5', 'recall10'] as const).map((k) => [s, k] as const))
    charts['retrieval-recall.svg'] = barChart({
      title: 'Tool retrieval: Recall@1/5/10 per method', yLabel: 'recall', yMax: 1, format: (v) => v.toFixed(2),
      groups: groups.map(([s, k]) => `${s} @${k.slice(6)}`), series: methods,
      values: groups.map(([s, k]) => methods.map((m) => rows.find((x) => x.set === s && x.method === m)?.[k] ?? null)),
    })
  }
  const speed = r.speed ?? []
  if (speed.length > 0) {
    const variants = [...new Set(speed.map((s) => s.variant))]
    charts['speed.svg'] = lineChart({
      title: 'Median time per call vs input size', xLabel: 'input (MiB, log scale)', yLabel: 'median ms (log scale)', xLog: true, yLog: true,
      formatX: (v) => `${Math.round(v)}`, xTicks: [...new Set(speed.map((s) => s.mb))], formatY: (v) => String(Number(v.toPrecision(2))),
      series: variants.map((v) => ({ name: v, points: speed.filter((s) => s.variant === v).map((s) => ({ x: s.mb, y: Math.max(s.medianMs, 0.001) })) })),
    })
  }
  const store = r.store?.rows.filter((x) => x.store !== '-') ?? []
  if (store.length > 0) {
    const stores = [...new Set(store.map((x) => x.store))]
    const groups = [...new Set(store.map((x) => `${x.op} ${x.mb} MB`))]
    charts['store.svg'] = barChart({
      title: 'Store: median time per call as a multiple of SHA-256 of the same bytes', yLabel: 'x SHA-256', format: (v) => String(Number(v.toPrecision(3))),
      groups, series: stores,
      values: groups.map((g) => stores.map((st) => store.find((x) => `${x.op} ${x.mb} MB` === g && x.store === st)?.vsSha256 ?? null)),
    })
  }
  return charts
}
