import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { buildHeadline } from '../src/report/headline.js'
import { renderMarkdown, table } from '../src/report/markdown.js'
import { FIGURES_END, FIGURES_START, readmeFigures, replaceFigures } from '../src/report/readme-figures.js'
import { axis, barChart, lineChart } from '../src/report/svg.js'
import type { Report } from '../src/report/types.js'
import { writeReport } from '../src/report/write.js'
import { ORACLE } from '../src/suites/heldout.js'
import { REPORT_BUDGETS, RETENTION_GRID } from '../src/suites/trimming.js'
import { xmlProblems } from './wellformed.js'

function sampleReport(): Report {
  const methods = ['spillway', 'head-only']
  const cells = methods.flatMap((method, mi) =>
    REPORT_BUDGETS.map((budget) => ({
      method, kind: 'ci-log' as const, budget, cases: 2, tokensBefore: 1000, tokensAfter: budget / 20, keptShare: budget / 20000,
      retention: mi === 0 ? 0.9 : 0.25, filesNamed: null, shapeStated: null, overBudget: 0, msPerCall: 0.5,
    })),
  )
  const curves = methods.map((method, mi) => ({
    method, labelSource: 'cidiff', kind: 'ci-log' as const, cases: 2, points: RETENTION_GRID.map((budget, i) => ({ budget, retention: Math.min(1, (i + 1) / (mi === 0 ? 6 : 14)) })),
    budgetFor90: mi === 0 ? 8000 : 128000, medianPerLogBudgetFor90: mi === 0 ? 6000 : null, logsAt90At8k: mi === 0 ? 1 : 0,
  }))
  const partial: Omit<Report, 'headline'> = {
    generatedAt: '2026-01-01T00:00:00.000Z', mode: 'quick', argv: ['--quick'],
    corpus: { source: 'synthetic', notes: ['synthetic & <test>'], cases: { 'ci-log': 2 }, retrievalSets: [{ name: 'toy', tools: 3, queries: 2 }] },
    tokenizer: 'o200k_base', versions: { node: 'v20', '@spillway/core': '0.1.0' },
    machine: { platform: 'linux', arch: 'x64', cpuModel: 'cpu', cpus: 2, memoryGiB: 24 },
    methods: { trimming: methods.map((id) => ({ id, label: id, source: 's', budgetNative: true })), retrieval: [{ id: 'spillway', label: 'kw', source: 's' }, { id: 'bm25', label: 'bm25', source: 's' }] },
    trimming: { cells, curves, kinds: [{ kind: 'ci-log', cases: 2, tokens: 1000, chars: 4000 }] },
    speed: [
      ...[1, 10].flatMap((mb) => ['newline-scan', 'trimResult'].map((variant, i) => ({ variant, mb, reps: 3, medianMs: mb * (i + 1), p95Ms: mb * (i + 2), mbPerS: 1000, vsNewlineScan: i + 1, failures: 0 }))),
      { variant: 'trimResult maxTokens 2000 (o200k)', mb: 1, reps: 3, medianMs: 5, p95Ms: 6, mbPerS: 200, vsNewlineScan: 25, failures: 0, vsTokenize: 1.08 },
    ],
    retrieval: ['spillway', 'bm25'].map((method, i) => ({ set: 'toy', method, tools: 3, queries: 2, recall1: 0.5 - i / 4, recall5: 1 - i / 4, recall10: 1, mrr: 0.7, medianUs: 3, buildMs: 1 })),
    memory: { peakRssMiBAfterTrimming: 100, peakRssMiBEnd: 200 },
    durations: { total: 1 }, problems: [],
  }
  return { headline: buildHeadline(partial), ...partial }
}

describe('report writer', () => {
  const dir = mkdtempSync(join(tmpdir(), 'spillway-bench-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('writes valid JSON with the headline, a markdown table and four well-formed SVG charts', () => {
    const report = sampleReport()
    const files = writeReport(dir, report)
    expect(files.sort()).toEqual(['report.json', 'report.md', 'retention-vs-budget.svg', 'retrieval-recall.svg', 'speed.svg', 'tokens-kept.svg'])
    const json = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report
    expect(json.headline).toBe(report.headline)
    expect(json.headline).toContain('spillway 90% vs best baseline head-only 25%')
    expect(json.headline).toContain('toy recall@5 1.00 vs BM25 0.75')
    const md = readFileSync(join(dir, 'report.md'), 'utf8')
    expect(md).toContain('| kind | budget | input tokens | spillway | head-only |')
    expect(md).toContain('| all ci-logs | 2 | 8k | 90.0% | 25.0% |')
    expect(md).toContain('| cidiff | 8k (6k; 100.0%) | 128k (> 128k; 0.0%) |')
    expect(md).toContain('| toy | 3 | 2 | spillway | 0.500 | 1.000 | 1.000 | 0.700 | 3.0 |')
    expect(md).toContain('| trimResult maxTokens 2000 (o200k) | 1 | 5.0 | 1.08 |')
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.svg'))) {
      const svg = readFileSync(join(dir, f), 'utf8')
      expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"'), f).toBe(true)
      expect(xmlProblems(svg), f).toEqual([])
    }
  })

  it('escapes text in charts and keeps every mark inside the canvas', () => {
    const svg = barChart({ title: 'a < b & "c"', yLabel: 'y', groups: ['g&1', 'g2'], series: ['s<1>', 's2'], values: [[1, 2], [3, null]] })
    expect(xmlProblems(svg)).toEqual([])
    expect(svg).toContain('a &lt; b &amp; &quot;c&quot;')
    const w = Number(/width="(\d+)"/.exec(svg)![1]), h = Number(/height="(\d+)"/.exec(svg)![1])
    for (const m of svg.matchAll(/ (x|y|cx|cy)="(-?[\d.]+)"/g)) {
      const v = Number(m[2])
      expect(v).toBeGreaterThanOrEqual(0)
      expect(v).toBeLessThanOrEqual(m[1]!.endsWith('x') ? w : h)
    }
    const line = lineChart({ title: 't', xLabel: 'x', yLabel: 'y', xLog: true, yLog: true, series: [{ name: 'a', points: [{ x: 1, y: 0.5 }, { x: 100, y: 2000 }, { x: 0, y: 1 }] }] })
    expect(xmlProblems(line)).toEqual([])
    expect(line.match(/<circle/g)).toHaveLength(2) // x = 0 cannot sit on a log axis
  })

  it('the well-formedness check catches broken SVG', () => {
    expect(xmlProblems('<svg><g></svg>')).not.toEqual([])
    expect(xmlProblems('<svg><text>a & b</text></svg>')).not.toEqual([])
  })

  it('renders markdown tables with escaped pipes', () => {
    expect(table(['a', 'b'], [['x|y', '1']])).toBe('| a | b |\n| --- | --- |\n| x\\|y | 1 |')
  })
})

describe('chart axes', () => {
  /** The numbers written as tick labels on the y axis (text right-aligned left of the plot). */
  const yLabels = (svg: string): number[] => [...svg.matchAll(/<text x="\d+(?:\.\d+)?" y="[\d.]+" text-anchor="end">([^<]+)<\/text>/g)].map((m) => Number(m[1]!.replace('%', '')))
  /** Ticks a step apart, the step 1, 2 or 5 x 10^k, every tick a multiple of it. */
  const roundTicks = (ticks: number[]): boolean => {
    const step = ticks[1]! - ticks[0]!
    const mantissa = step / 10 ** Math.floor(Math.log10(step))
    return [1, 2, 5].some((r) => Math.abs(mantissa - r) < 1e-9) && ticks.every((t, i) => Math.abs(t / step - Math.round(t / step)) < 1e-9 && (i === 0 || Math.abs(t - ticks[i - 1]! - step) < 1e-9 * step))
  }

  it('ticks are round numbers: the 0/5/11/16/22% of a 22% maximum become 0/5/10/15/20/25%', () => {
    const svg = barChart({ title: 't', yLabel: 'y', groups: ['a'], series: ['s'], values: [[0.22]], format: (v) => `${Math.round(v * 100)}%` })
    expect(yLabels(svg)).toEqual([0, 5, 10, 15, 20, 25])
    expect(axis(0.035, 10, 0, 100, true).ticks).toEqual([0.01, 0.1, 1, 10]) // not 0.035 / 0.59 / 10 ms
    expect(axis(1, 21, 0, 100, true).ticks).toEqual([1, 2, 5, 10, 20, 50, 100])
    for (const [lo, hi] of [[0, 0.713], [0, 37], [0, 1234], [3, 97]] as const) {
      const { scale, ticks } = axis(lo, hi, 0, 100, false)
      expect(roundTicks(ticks), `${ticks.join(',')} on [${lo}, ${hi}]`).toBe(true)
      expect(scale.domain()).toEqual([ticks[0], ticks.at(-1)]) // the axis ends on a tick
    }
  })

  it('never clips: a value above yMax grows the axis, and every bar and point lies inside the plot', () => {
    const svg = barChart({ title: 't', yLabel: 'y', groups: ['a', 'b'], series: ['s'], values: [[0.5], [1.3]], yMax: 1 })
    expect(Math.max(...yLabels(svg))).toBeGreaterThanOrEqual(1.3)
    const heights = [...svg.matchAll(/<rect x="[\d.]+" y="([\d.]+)" width="[\d.]+" height="([\d.]+)" fill/g)].map((m) => Number(m[2]))
    expect(heights[1]! / heights[0]!).toBeCloseTo(1.3 / 0.5, 1) // proportional, not cut at yMax
    const line = lineChart({ title: 't', xLabel: 'x', yLabel: 'y', yMin: 0, yMax: 1, series: [{ name: 'a', points: [{ x: 1, y: 0.2 }, { x: 2, y: 1.4 }] }] })
    const top = 34
    for (const m of line.matchAll(/<circle cx="[\d.]+" cy="([\d.]+)"/g)) expect(Number(m[1])).toBeGreaterThanOrEqual(top)
  })

  it('report.md links each chart it was written with', () => {
    const dir = mkdtempSync(join(tmpdir(), 'spillway-bench-md-'))
    try {
      const files = writeReport(dir, sampleReport()).filter((f) => f.endsWith('.svg'))
      const md = readFileSync(join(dir, 'report.md'), 'utf8')
      for (const f of files) expect(md).toContain(`](${f})`)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('README figures', () => {
  it('come from the report, with its machine and date, and replace only the marked block', () => {
    const r = sampleReport()
    const figures = readmeFigures(r)
    expect(figures).toContain('measured 2026-01-01 on 2 x cpu, 24 GiB, linux/x64, Node v20')
    expect(figures).toContain('| labelled failure lines of 2 failing CI logs still visible | **90.0%** | 25.0% (head-only) |')
    expect(figures).toContain('| budget needed to keep 90% of the labelled lines of the development corpus (cidiff) | **8k** | 128k (head-only) |')
    expect(figures).toContain('| tool retrieval Recall@5, toy (3 tools, 2 queries) | **1.000** | 0.750 (bm25) |')
    expect(figures).toContain('**2.0x / 2.0x**') // trimResult vs the newline scan at 1 and 10 MB
    const readme = `# x\n\nbefore\n${FIGURES_START}\nold table\n${FIGURES_END}\nafter\n`
    const out = replaceFigures(readme, figures)
    expect(out).not.toContain('old table')
    expect(out.startsWith('# x\n\nbefore\n')).toBe(true)
    expect(out.endsWith(`${FIGURES_END}\nafter\n`)).toBe(true)
    expect(replaceFigures(out, figures)).toBe(out) // idempotent
    expect(() => replaceFigures('# no markers', figures)).toThrow(/figures:start/)
  })

  it('give the range over the prefixes of the prefix suite, without the reference and the logs as they are', () => {
    const r = sampleReport()
    expect(readmeFigures(r)).not.toContain('line prefix')
    const row = (prefix: string, method: string, v: number) => ({ set: 'shared corpus', prefix, method, logs: 4, retention: REPORT_BUDGETS.map(() => v) })
    r.prefixes = {
      budgets: [...REPORT_BUDGETS],
      prefixes: [{ id: 'none', label: 'as they are' }, { id: 'gha', label: 'x', name: 'GitHub Actions' }, { id: 'jenkins', label: 'y', name: 'Jenkins Pipeline' }, { id: 'compose', label: 'z', name: 'Docker Compose' }],
      rows: [row('none', 'spillway', 0.99), row('gha', 'spillway', 0.5), row('jenkins', 'spillway', 0.8), row('compose', 'spillway', 0.9), row('none', 'head-tail', 0.7), row('jenkins', 'head-tail', 0.4), row('compose', 'head-tail', 0.6)],
      overBudget: 0,
    }
    expect(readmeFigures(r)).toContain("| labelled failure lines of the 4 shared-corpus CI logs without a timestamp of their own, behind another CI system's, logger's or task runner's line prefix on every line (Jenkins Pipeline, Docker Compose) | **80.0% - 90.0%** | 40.0% - 60.0% (head-tail) |")
  })

  it("give the re-trim suite's 16k -> 8k refit of the shared corpus, against a head+tail cut of the excerpt", () => {
    const r = sampleReport()
    expect(readmeFigures(r)).not.toContain('trimmed again')
    const row = (set: string, from: number, to: number, refit: number) => ({ set, from, to, logs: 5, refits: 5, refit, headTail: 0.4, direct: 0.95, unused: 0.03 })
    r.retrim = { rows: [row('devextra', 16_000, 8000, 0.7), row('shared corpus', 8000, 4000, 0.8), row('shared corpus', 16_000, 8000, 0.9)], overBudget: 0 }
    expect(readmeFigures(r)).toContain("| labelled failure lines of 5 shared-corpus CI logs when spillway's 16,000-char excerpt is trimmed again to 8,000 chars (re-fitted in the original's line numbers; a direct 8,000-char excerpt keeps 95.0%) | **90.0%** | 40.0% (head-tail of the excerpt) |")
    expect(renderMarkdown(r)).toContain('| shared corpus | 16k -> 8k | 5 | 5 | 90.0% | 40.0% | 95.0% | 3.0% |')
  })

  it('never name the labels-known reference as the best alternative (it reads the labels; it is not a method)', () => {
    const r = sampleReport()
    const row = (method: string, v: number) => ({ method, group: 'all', logs: 3, retention: REPORT_BUDGETS.map(() => v) })
    r.heldout = { set: 'heldout', budgets: [...REPORT_BUDGETS], logs: 3, rows: [row('spillway', 0.8), row('head-only', 0.3), row(ORACLE, 0.99)], weakest: [], overBudget: 0 }
    const figures = readmeFigures(r)
    expect(figures).toContain('| labelled failure lines of 3 held-out CI logs (bench/heldout/: other projects, runners and languages; never used to write or fit rules) | **80.0%** | 30.0% (head-only) |')
    expect(figures).not.toContain('99.0%')
  })
})
