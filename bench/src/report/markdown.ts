import { weightFitMarkdown } from '../metrics/fit-weights.js'
import { sourcesMarkdown } from '../metrics/sources.js'
import { heldoutMarkdown } from '../suites/heldout.js'
import { prefixesMarkdown } from '../suites/prefixes.js'
import { retrimMarkdown } from '../suites/retrim.js'
import { REPORT_BUDGETS } from '../suites/trimming.js'
import type { Report } from './types.js'
import { storeSection } from './store-section.js'
import { compactionMarkdown } from '../suites/compaction.js'
import { redactionMarkdown } from '../suites/redaction.js'
import { blobFormatMarkdown } from '../suites/blob-format.js'

const pct = (v: number | null | undefined): string => (v === null || v === undefined || !Number.isFinite(v) ? '-' : `${(v * 100).toFixed(1)}%`)
const num = (v: number, d = 1): string => (Number.isFinite(v) ? v.toFixed(d) : '-')
const k = (v: number | null): string => (v === null ? '> 128k' : v >= 1000 ? `${v / 1000}k` : String(v))

/** A markdown table. */
export function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const line = (cells: readonly string[]): string => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n')
}

/** Renders `report.md`; `charts` are the SVG files written beside it, linked from their sections. */
export function renderMarkdown(r: Report, charts: readonly string[] = []): string {
  const out: string[] = ['# spillway benchmark', '', `**${r.headline}**`, '']
  const chart = (file: string, alt: string): void => {
    if (charts.includes(file)) out.push(`![${alt}](${file})`, '')
  }
  out.push(
    `Corpus: ${r.corpus.source === 'synthetic' ? '**synthetic** (generated, seeded; not real tool output)' : `\`${r.corpus.dir}\``}. Mode: ${r.mode}. Tokens: ${r.tokenizer}. ` +
      `Node ${r.versions['node']}, spillway ${r.versions['@spillway/core']}; ${r.machine.cpus} x ${r.machine.cpuModel}, ${r.machine.memoryGiB} GiB. Generated ${r.generatedAt}.`,
    '',
  )
  for (const n of [...r.corpus.notes, ...r.problems]) out.push(`- ${n}`)
  out.push('', table(['kind', 'cases'], Object.entries(r.corpus.cases).map(([kind, n]) => [kind, String(n)])), '')

  const t = r.trimming
  if (t !== null) {
    const methods = r.methods.trimming.map((m) => m.id)
    const cell = (m: string, kind: string, b: number) => t.cells.find((c) => c.method === m && c.kind === kind && c.budget === b)
    out.push('## Trimming: tokens kept (o200k, % of the input tokens)', '')
    chart('tokens-kept.svg', 'Tokens kept per kind and method')
    out.push(table(['kind', 'budget', 'input tokens', ...methods], t.kinds.flatMap((kd) => REPORT_BUDGETS.map((b) => [kd.kind, `${b / 1000}k`, String(kd.tokens), ...methods.map((m) => pct(cell(m, kd.kind, b)?.keptShare))]))), '')
    out.push('## Trimming: labelled lines kept', '', 'Mean share of labelled lines visible in the excerpt (cidiff `E` lines, LogChunks failure reasons, BGL alerts, error-level loghub lines).', '')
    chart('retention-vs-budget.svg', 'Labelled lines kept vs budget')
    const pooled = t.kinds.filter((kd) => t.cells.some((c) => c.kind === kd.kind && c.retention !== null)).flatMap((kd) => REPORT_BUDGETS.map((b) =>
      [`all ${kd.kind}s`, String(t.curves.filter((c) => c.method === methods[0] && c.kind === kd.kind).reduce((s, c) => s + c.cases, 0)), `${b / 1000}k`, ...methods.map((m) => pct(cell(m, kd.kind, b)?.retention))]))
    out.push(table(['labels', 'logs', 'budget', ...methods], [...pooled, ...[...new Set(t.curves.map((c) => c.labelSource))].flatMap((src) => REPORT_BUDGETS.map((b) => {
      const cs = t.curves.filter((c) => c.labelSource === src)
      return [src, String(cs[0]?.cases ?? 0), `${b / 1000}k`, ...methods.map((m) => pct(cs.find((c) => c.method === m)?.points.find((p) => p.budget === b)?.retention))]
    }))]), '')
    out.push('## Budget needed to keep 90% of labelled lines', '', 'Smallest budget on the grid 1k..128k chars where the mean retention reaches 90% (in brackets: median over logs of each log\'s own smallest budget; then the share of logs at >= 90% with 8k).', '')
    out.push(table(['labels', ...methods], [...new Set(t.curves.map((c) => c.labelSource))].map((src) => [src, ...methods.map((m) => {
      const c = t.curves.find((x) => x.method === m && x.labelSource === src)
      return c === undefined ? '-' : `${k(c.budgetFor90)} (${k(c.medianPerLogBudgetFor90)}; ${pct(c.logsAt90At8k)})`
    })])), '')
    if (t.sources !== undefined) out.push(sourcesMarkdown(t.sources.summaries, t.sources.rules, t.sources.budgets))
    if (t.weightFit !== undefined) out.push(weightFitMarkdown(t.weightFit))
    if (r.heldout) out.push(heldoutMarkdown(r.heldout))
    if (r.devextra) out.push(heldoutMarkdown(r.devextra))
    if (r.prefixes) out.push(prefixesMarkdown(r.prefixes))
    if (r.retrim) out.push(retrimMarkdown(r.retrim))
    out.push('## Trimming: structure kept', '', 'diff / grep: share of file paths named in the excerpt; json: share of shape facts stated (top-level keys, array lengths written as counts; a body shown whole counts as 100%).', '')
    const structRows: string[][] = []
    for (const [kind, field, what] of [['diff', 'filesNamed', 'diff files named'], ['grep', 'filesNamed', 'grep files named'], ['json', 'shapeStated', 'JSON shape stated']] as const) {
      if (!t.kinds.some((x) => x.kind === kind)) continue
      for (const b of REPORT_BUDGETS) structRows.push([what, `${b / 1000}k`, ...methods.map((m) => pct(cell(m, kind, b)?.[field]))])
    }
    out.push(table(['figure', 'budget', ...methods], structRows), '')
    const over = t.cells.filter((c) => c.overBudget > 0)
    out.push(over.length === 0 ? 'Every output of every method fitted its budget.' : `Outputs over budget: ${over.map((c) => `${c.method}/${c.kind}@${c.budget}: ${c.overBudget}`).join(', ')}`, '')
    out.push(table(['method', 'mean ms per call (all kinds, 8k)'], methods.map((m) => {
      const cs = t.cells.filter((c) => c.method === m && c.budget === 8000)
      return [m, num(cs.reduce((s, c) => s + c.msPerCall * c.cases, 0) / Math.max(1, cs.reduce((s, c) => s + c.cases, 0)), 2)]
    })), '')
  }
  if (r.speed !== null && r.speed.length > 0) {
    out.push('## Speed', '', 'Median and p95 wall time per call; MB/s = input MiB / median s; ratio = median / one `indexOf(\'\\n\')` scan of the same input in the same run. Budget 8k unless the row names another, tool `terminal`.', '')
    chart('speed.svg', 'Median time per call vs input size')
    out.push(table(['variant', 'MiB', 'reps', 'median ms', 'p95 ms', 'MB/s', 'x newline scan', 'failures'], r.speed.map((s) => [s.variant, String(s.mb), String(s.reps), num(s.medianMs, 2), num(s.p95Ms, 2), num(s.mbPerS, 0), num(s.vsNewlineScan, 2), String(s.failures)])), '')
    const engines = r.speed.filter((s) => s.vsV8 !== undefined)
    if (engines.length > 0) {
      out.push('Regex grep by engine (every line tested; core runs re2js, linear-time; V8 is the backtracking reference), ratio to V8 in the same run:', '')
      out.push(table(['variant', 'MiB', 'median ms', 'x V8'], engines.map((s) => [s.variant, String(s.mb), num(s.medianMs, 1), num(s.vsV8 ?? 0, 2)])), '')
    }
    const tokens = r.speed.filter((s) => s.vsTokenize !== undefined)
    if (tokens.length > 0) {
      out.push('Exact token budget (`maxTokens` with the o200k tokenizer of `gpt-tokenizer`), ratio to one o200k count of the same input in the same run (an exact budget counts the input at least once):', '')
      out.push(table(['variant', 'MiB', 'median ms', 'x one o200k count'], tokens.map((s) => [s.variant, String(s.mb), num(s.medianMs, 1), num(s.vsTokenize ?? 0, 2)])), '')
    }
  }
  if (r.store) {
    out.push(...storeSection(r.store))
    chart('store.svg', 'Store time per call as a multiple of SHA-256')
  }
  if (r.format) out.push('## Blob format', '', 'Chunked blobs: every figure from a fresh process (a cold read is the next turn on another replica); ratios to a reference measured in the same run.', '', blobFormatMarkdown(r.format), '')
  if (r.compaction) for (const c of r.compaction) out.push(compactionMarkdown(c))
  if (r.redaction) out.push(redactionMarkdown(r.redaction))
  if (r.retrieval !== null && r.retrieval.length > 0) {
    out.push('## Tool retrieval', '', 'Recall@k = share of a query\'s relevant tools among the first k, averaged; MRR = mean 1/rank of the first relevant tool (0 if not ranked). Latency: median per query.', '')
    chart('retrieval-recall.svg', 'Recall@1/5/10 per method')
    out.push(table(['set', 'tools', 'queries', 'method', 'R@1', 'R@5', 'R@10', 'MRR', 'median µs'], r.retrieval.map((x) => [x.set, String(x.tools), String(x.queries), x.method, num(x.recall1, 3), num(x.recall5, 3), num(x.recall10, 3), num(x.mrr, 3), num(x.medianUs, 1)])), '')
  }
  out.push('## Memory', '', `Peak RSS after the trimming run: ${r.memory.peakRssMiBAfterTrimming === null ? '-' : `${num(r.memory.peakRssMiBAfterTrimming, 0)} MiB`}; at the end (after the speed run's large inputs): ${num(r.memory.peakRssMiBEnd, 0)} MiB.`, '')
  out.push('## Methods', '', table(['id', 'label', 'source'], [...r.methods.trimming, ...r.methods.retrieval].map((m) => [m.id, m.label, m.source])), '')
  out.push('## Versions and durations', '', table(['what', 'value'], [...Object.entries(r.versions), ...Object.entries(r.durations).map(([s, v]) => [`${s} (s)`, num(v, 1)])]), '')
  return `${out.join('\n')}\n`
}
