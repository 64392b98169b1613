import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { buildHeadline } from '../src/report/headline.js'
import { table } from '../src/report/markdown.js'
import { barChart, lineChart } from '../src/report/svg.js'
import type { Report } from '../src/report/types.js'
import { writeReport } from '../src/report/write.js'
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
    speed: [1, 10].flatMap((mb) => ['newline-scan', 'trimResult'].map((variant, i) => ({ variant, mb, reps: 3, medianMs: mb * (i + 1), p95Ms: mb * (i + 2), mbPerS: 1000, vsNewlineScan: i + 1, failures: 0 }))),
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
