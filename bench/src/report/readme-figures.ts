// The root README's figures table, generated from a benchmark's report.json (never typed by hand),
// with the machine and date it was measured on. Run: `pnpm readme:figures [report.json]` after
// `pnpm bench`; it rewrites what lies between the markers in README.md.
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ORACLE } from '../suites/heldout.js'
import { table } from './markdown.js'
import type { Report } from './types.js'

export const FIGURES_START = '<!-- figures:start -->'
export const FIGURES_END = '<!-- figures:end -->'

const pct = (v: number | null | undefined): string => (v === null || v === undefined ? '-' : `${(v * 100).toFixed(1)}%`)
const k = (v: number | null | undefined): string => (v === null || v === undefined ? '> 128k' : `${v / 1000}k`)
const ms = (v: number): string => (v >= 100 ? v.toFixed(0) : v >= 1 ? v.toFixed(1) : v.toPrecision(2))

/** The best of `rows` by `score` (higher is better unless `lower`), excluding spillway's own rows and the labels-known reference (not a method). */
function best<T extends { method: string }>(rows: readonly T[], score: (r: T) => number | null, lower = false): { row: T; value: number } | undefined {
  return rows
    .filter((r) => !r.method.startsWith('spillway') && r.method !== ORACLE)
    .map((row) => ({ row, value: score(row) }))
    .filter((x): x is { row: T; value: number } => x.value !== null && Number.isFinite(x.value))
    .sort((a, b) => (lower ? a.value - b.value : b.value - a.value))[0]
}

/** The figures rows: what spillway reached and the best alternative measured in the same run. */
export function figureRows(r: Report): string[][] {
  const rows: string[][] = []
  const label = (id: string): string => [...r.methods.trimming, ...r.methods.retrieval].find((m) => m.id === id)?.label ?? id
  const t = r.trimming
  if (t !== null) {
    const at = (kind: string, budget: number) => t.cells.filter((c) => c.kind === kind && c.budget === budget)
    const ci = at('ci-log', 8000)
    const sw = ci.find((c) => c.method === 'spillway')
    const alt = best(ci, (c) => c.retention)
    if (sw !== undefined && alt !== undefined) rows.push([`labelled failure lines of ${sw.cases} failing CI logs still visible`, `**${pct(sw.retention)}**`, `${pct(alt.value)} (${label(alt.row.method)})`])
    const i8k = t.weightFit?.budgets.indexOf(8000) ?? -1
    if (t.weightFit !== undefined && i8k >= 0) {
      rows.push([`the same, leave-one-source-out (salience weights fitted without the log's source; ${t.weightFit.sources} sources)`, `**${pct(t.weightFit.loso[i8k])}**`, '-'])
    }
    const held = r.heldout?.rows.filter((x) => x.group === 'all') ?? []
    const h8k = r.heldout?.budgets.indexOf(8000) ?? -1
    const hs = held.find((x) => x.method === 'spillway')
    const ha = best(held, (x) => (h8k >= 0 ? (x.retention[h8k] ?? null) : null))
    if (hs !== undefined && ha !== undefined && h8k >= 0) {
      rows.push([`labelled failure lines of ${hs.logs} held-out CI logs (bench/heldout/: other projects, runners and languages; never used to write or fit rules)`, `**${pct(hs.retention[h8k])}**`, `${pct(ha.value)} (${label(ha.row.method)})`])
    }
    const extra = r.devextra?.rows.filter((x) => x.group === 'all') ?? []
    const e8k = r.devextra?.budgets.indexOf(8000) ?? -1
    const es = extra.find((x) => x.method === 'spillway')
    const ea = best(extra, (x) => (e8k >= 0 ? (x.retention[e8k] ?? null) : null))
    if (es !== undefined && ea !== undefined && e8k >= 0) {
      rows.push([`labelled failure lines of ${es.logs} failing logs of a second development set (bench/devextra/: CI logs and runs of runners the shared corpus lacks; rules may be written against it)`, `**${pct(es.retention[e8k])}**`, `${pct(ea.value)} (${label(ea.row.method)})`])
    }
    // Behind another CI system's line prefix (the prefix suite): the range over its prefixes, the reference and the logs as they are left out.
    const p8k = r.prefixes?.budgets.indexOf(8000) ?? -1
    const isOther = (prefix: string): boolean => prefix !== 'none' && prefix !== 'gha'
    const behind = (method: string): number[] => (r.prefixes?.rows ?? []).filter((x) => x.set === 'shared corpus' && x.method === method && isOther(x.prefix)).map((x) => x.retention[p8k]!)
    const ps = p8k >= 0 ? behind('spillway') : []
    const ph = p8k >= 0 ? behind('head-tail') : []
    if (ps.length > 0 && ph.length > 0) {
      const range = (xs: number[]): string => `${pct(Math.min(...xs))} - ${pct(Math.max(...xs))}`
      const logs = r.prefixes!.rows.find((x) => x.set === 'shared corpus')!.logs
      const names = r.prefixes!.prefixes.filter((p) => isOther(p.id)).map((p) => p.name ?? p.id)
      rows.push([`labelled failure lines of the ${logs} shared-corpus CI logs without a timestamp of their own, behind another CI system's, logger's or task runner's line prefix on every line (${names.join(', ')})`, `**${range(ps)}**`, `${range(ph)} (${label('head-tail')})`])
    }
    // spillway's own excerpt trimmed again (the re-trim suite): the refit against a host's 50/50 cut of the excerpt.
    const again = (r.retrim?.rows ?? []).find((x) => x.set === 'shared corpus' && x.from === 16_000 && x.to === 8000)
    if (again !== undefined && again.logs > 0) {
      rows.push([`labelled failure lines of ${again.logs} shared-corpus CI logs when spillway's 16,000-char excerpt is trimmed again to 8,000 chars (re-fitted in the original's line numbers; a direct 8,000-char excerpt keeps ${pct(again.direct)})`, `**${pct(again.refit)}**`, `${pct(again.headTail)} (${label('head-tail')} of the excerpt)`])
    }
    const sources = [...new Set(t.curves.map((c) => c.labelSource))]
    const mine = sources.map((s) => t.curves.find((c) => c.labelSource === s && c.method === 'spillway')?.budgetFor90)
    const NEVER = Number.MAX_SAFE_INTEGER // not reached on the grid: shown as "> 128k"
    const theirs = sources.map((s) => best(t.curves.filter((c) => c.labelSource === s), (c) => c.budgetFor90 ?? NEVER, true))
    if (sources.length > 0 && mine.every((m) => m !== undefined)) {
      rows.push([`budget needed to keep 90% of the labelled lines of the development corpus (${sources.join(' / ')})`, `**${mine.map(k).join(' / ')}**`, theirs.map((x) => (x === undefined ? '-' : `${k(x.value === NEVER ? null : x.value)} (${label(x.row.method)})`)).join(' / ')])
    }
    for (const [kind, field, what] of [['diff', 'filesNamed', 'changed files of {n} diffs named'], ['grep', 'filesNamed', 'matching files of {n} grep / rg outputs named'], ['json', 'shapeStated', 'JSON shape (top-level keys, array lengths) stated for {n} API responses']] as const) {
      const cells = at(kind, 4000)
      const s = cells.find((c) => c.method === 'spillway')
      const a = best(cells, (c) => c[field])
      if (s !== undefined && a !== undefined) rows.push([`${what.replace('{n}', String(s.cases))}, at 4,000 chars`, `**${pct(s[field])}**`, `${pct(a.value)} (${label(a.row.method)})`])
    }
  }
  for (const set of r.corpus.retrievalSets) {
    const rs = (r.retrieval ?? []).filter((x) => x.set === set.name)
    const s = rs.find((x) => x.method === 'spillway')
    const a = best(rs, (x) => x.recall5)
    const sdk = rs.find((x) => x.method === 'ai-sdk-7')
    if (s !== undefined && a !== undefined) {
      rows.push([`tool retrieval Recall@5, ${set.name} (${set.tools} tools, ${s.queries} queries)`, `**${s.recall5.toFixed(3)}**`, `${a.value.toFixed(3)} (${label(a.row.method)})${sdk !== undefined && sdk !== a.row ? `; ${label('ai-sdk-7')} ${sdk.recall5.toFixed(3)}` : ''}`])
    }
  }
  const speed = r.speed ?? []
  const trims = speed.filter((x) => x.variant === 'trimResult').sort((a, b) => a.mb - b.mb)
  if (trims.length > 0) rows.push([`\`trimResult\` on ${trims.map((x) => `${x.mb} MB`).join(' / ')}, as a multiple of one \`indexOf('\\n')\` scan of it`, `**${trims.map((x) => `${x.vsNewlineScan.toFixed(1)}x`).join(' / ')}**`, '(one scan = 1x)'])
  for (const mb of [...new Set(speed.filter((x) => x.variant.startsWith('fetch-')).map((x) => x.mb))].sort((a, b) => a - b)) {
    const range = speed.find((x) => x.variant === 'fetch-range' && x.mb === mb)
    const grep = speed.find((x) => x.variant === 'fetch-grep' && x.mb === mb)
    if (range !== undefined && grep !== undefined) rows.push([`\`fetch_result\` on a ${mb} MB spilled log: \`range\` / literal \`grep\` (median)`, `**${ms(range.medianMs)} ms / ${ms(grep.medianMs)} ms**`, '-'])
  }
  return rows
}

/** The markdown that goes between the markers: provenance, the table, the run's duration. */
export function readmeFigures(r: Report): string {
  const m = r.machine
  const corpus = r.corpus.source === 'synthetic' ? 'the **synthetic** corpus (generated, not real tool output)' : 'the development corpus (real CI logs, GitHub API JSON, `git show` diffs, grep output, Playwright snapshots, MetaTool and ToolBench)'
  const total = r.durations['total']
  return [
    `Generated by \`pnpm readme:figures\` from \`bench/results/report.json\`: \`pnpm bench\` (${r.mode} mode) on ${corpus},`,
    `measured ${r.generatedAt.slice(0, 10)} on ${m.cpus} x ${m.cpuModel}, ${m.memoryGiB} GiB, ${m.platform}/${m.arch}, Node ${r.versions['node'] ?? '?'}${total === undefined ? '' : `; the run took ${Math.round(total)} s`}.`,
    'Budget 8,000 chars unless said; the alternative is the best other method measured in the same run.',
    '',
    table(['figure', 'spillway', 'best alternative'], figureRows(r)),
  ].join('\n')
}

/** `readme` with the text between the figures markers replaced. Throws when the markers are missing. */
export function replaceFigures(readme: string, figures: string): string {
  const a = readme.indexOf(FIGURES_START)
  const b = readme.indexOf(FIGURES_END)
  if (a < 0 || b < a) throw new Error(`README.md has no ${FIGURES_START} ... ${FIGURES_END} block`)
  return `${readme.slice(0, a + FIGURES_START.length)}\n${figures}\n${readme.slice(b)}`
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)
if (isMain) {
  const bench = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
  const arg = process.argv.slice(2).find((a) => a !== '--') // pnpm may pass its separator through
  const source = arg !== undefined ? resolve(process.env['INIT_CWD'] ?? process.cwd(), arg) : join(bench, 'results/report.json')
  const readmePath = join(bench, '../README.md')
  const report = JSON.parse(readFileSync(source, 'utf8')) as Report
  writeFileSync(readmePath, replaceFigures(readFileSync(readmePath, 'utf8'), readmeFigures(report)))
  console.log(`README.md figures updated from ${source} (${report.mode}, ${report.generatedAt})`)
}
