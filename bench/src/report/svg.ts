// SVG charts: grouped bars and lines with log or linear axes. Scales and ticks come from
// d3-scale (nice domains, round ticks); the domain always covers every value, so nothing is clipped.
import { scaleLinear, scaleLog, type ScaleContinuousNumeric } from 'd3-scale'

const PALETTE = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f']

/** Escapes text for SVG/XML. */
export function xml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

const f = (n: number): string => (Math.round(n * 10) / 10).toString()

/** Tick count asked of d3 on a linear axis (it picks 1/2/5 x 10^k steps near this count). */
const LINEAR_TICKS = 5

/**
 * A nice axis over `[lo, hi]` (log or linear) mapped to `[from, to]` pixels, with round ticks:
 * d3's 1/2/5 steps on a linear axis; on a log axis the powers of ten, with 2x and 5x added when
 * the range spans fewer than three decades. `nice: false` keeps the domain at `[lo, hi]`.
 */
export function axis(lo: number, hi: number, from: number, to: number, log: boolean, nice = true): { scale: ScaleContinuousNumeric<number, number>; ticks: number[] } {
  if (log) {
    const a = Math.max(lo, Number.MIN_VALUE), b = Math.max(hi, a)
    const scale = scaleLog().domain([a, b === a ? a * 10 : b]).range([from, to])
    if (nice) scale.nice()
    const [d0, d1] = scale.domain() as [number, number]
    const decades = Math.round(Math.log10(d1 / d0))
    const ticks = scale.ticks().filter((t) => {
      const m = Math.round(t / 10 ** Math.floor(Math.log10(t) + 1e-9))
      return m === 1 || (decades < 3 && (m === 2 || m === 5))
    })
    return { scale, ticks }
  }
  const scale = scaleLinear().domain([lo, hi === lo ? lo + 1 : hi]).range([from, to])
  if (nice) scale.nice(LINEAR_TICKS)
  return { scale, ticks: scale.ticks(LINEAR_TICKS) }
}

function frame(w: number, h: number, title: string, body: string[]): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" font-family="sans-serif" font-size="11">`,
    `<rect width="${w}" height="${h}" fill="#ffffff"/>`,
    `<text x="${w / 2}" y="18" text-anchor="middle" font-size="14" font-weight="bold">${xml(title)}</text>`,
    ...body,
    '</svg>',
    '',
  ].join('\n')
}

function legend(series: readonly string[], x: number, y: number): string[] {
  return series.flatMap((s, i) => [
    `<rect x="${x}" y="${y + i * 16}" width="10" height="10" fill="${PALETTE[i % PALETTE.length]}"/>`,
    `<text x="${x + 14}" y="${y + i * 16 + 9}">${xml(s)}</text>`,
  ])
}

/** Options of {@link barChart}. */
export interface BarChartSpec {
  title: string
  yLabel: string
  groups: readonly string[]
  series: readonly string[]
  /** values[group][series]; null = no bar. */
  values: ReadonlyArray<ReadonlyArray<number | null>>
  /** Top of the y axis at least (the axis still grows to the largest value, rounded up to a tick). */
  yMax?: number
  /** Format of the tick labels. */
  format?: (v: number) => string
}

/** A grouped bar chart. */
export function barChart(spec: BarChartSpec): string {
  const { groups, series, values } = spec
  const fmt = spec.format ?? ((v: number) => f(v))
  const left = 60, right = 190, top = 34, bottom = 60
  // Wide enough for each group's label and for the title (about 6.5 px per 11 px char, 8.5 per 14 px bold).
  const groupW = Math.max(60, series.length * 14 + 16, ...groups.map((g) => g.length * 6.5 + 12))
  const w = Math.max(left + right + groups.length * groupW, Math.ceil(spec.title.length * 8.5) + 40)
  const h = 340
  const plotH = h - top - bottom
  const dataMax = Math.max(1e-9, ...values.flat().filter((v): v is number => v !== null && Number.isFinite(v)))
  const { scale, ticks } = axis(0, Math.max(spec.yMax ?? 0, dataMax), top + plotH, top, false)
  const y = (v: number): number => scale(v)
  const body: string[] = []
  for (const v of ticks) {
    body.push(`<line x1="${left}" x2="${w - right}" y1="${f(y(v))}" y2="${f(y(v))}" stroke="#ddd"/>`, `<text x="${left - 4}" y="${f(y(v) + 4)}" text-anchor="end">${xml(fmt(v))}</text>`)
  }
  const barW = (groupW - 16) / Math.max(1, series.length)
  groups.forEach((g, gi) => {
    const gx = left + gi * groupW + 8
    series.forEach((_, si) => {
      const v = values[gi]?.[si]
      if (v === null || v === undefined || !Number.isFinite(v)) return
      body.push(`<rect x="${f(gx + si * barW)}" y="${f(y(v))}" width="${f(barW - 1)}" height="${f(top + plotH - y(v))}" fill="${PALETTE[si % PALETTE.length]}"><title>${xml(`${g} / ${series[si]}: ${fmt(v)}`)}</title></rect>`)
    })
    body.push(`<text x="${f(gx + (groupW - 16) / 2)}" y="${top + plotH + 14}" text-anchor="middle">${xml(g)}</text>`)
  })
  body.push(
    `<line x1="${left}" x2="${left}" y1="${top}" y2="${top + plotH}" stroke="#333"/>`,
    `<line x1="${left}" x2="${w - right}" y1="${top + plotH}" y2="${top + plotH}" stroke="#333"/>`,
    `<text transform="translate(14 ${top + plotH / 2}) rotate(-90)" text-anchor="middle">${xml(spec.yLabel)}</text>`,
    ...legend(series, w - right + 12, top),
  )
  return frame(w, h, spec.title, body)
}

/** Options of {@link lineChart}. */
export interface LineChartSpec {
  title: string
  xLabel: string
  yLabel: string
  series: ReadonlyArray<{ name: string; points: ReadonlyArray<{ x: number; y: number }> }>
  xLog?: boolean
  yLog?: boolean
  yMin?: number
  yMax?: number
  formatX?: (v: number) => string
  formatY?: (v: number) => string
  /** Where to label the x axis (default: d3's round ticks). */
  xTicks?: readonly number[]
}

/** A line chart with markers; log axes optional. */
export function lineChart(spec: LineChartSpec): string {
  const left = 64, right = 190, top = 34, bottom = 50, w = 760, h = 360
  const plotW = w - left - right, plotH = h - top - bottom
  const pts = spec.series.flatMap((s) => s.points).filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y) && (!spec.xLog || p.x > 0) && (!spec.yLog || p.y > 0))
  const xs = pts.map((p) => p.x), ys = pts.map((p) => p.y)
  // Given x ticks (the measured sizes or budgets) label the data's own extent: no padding to a decade.
  const xAxis = axis(xs.length ? Math.min(...xs) : 1, xs.length ? Math.max(...xs) : 10, left, left + plotW, spec.xLog === true, spec.xTicks === undefined)
  // yMin/yMax widen the axis (0..100% for shares); values outside them widen it further: no clipping.
  const yLo = Math.min(...ys, ...(spec.yMin !== undefined ? [spec.yMin] : [])), yHi = Math.max(...ys, ...(spec.yMax !== undefined ? [spec.yMax] : []))
  const yAxis = axis(Number.isFinite(yLo) ? yLo : 1, Number.isFinite(yHi) ? yHi : 10, top + plotH, top, spec.yLog === true)
  const px = (v: number): number => xAxis.scale(v)
  const py = (v: number): number => yAxis.scale(v)
  const fx = spec.formatX ?? ((v: number) => f(v)), fy = spec.formatY ?? ((v: number) => f(v))
  const body: string[] = []
  for (const yv of yAxis.ticks) {
    body.push(
      `<line x1="${left}" x2="${left + plotW}" y1="${f(py(yv))}" y2="${f(py(yv))}" stroke="#ddd"/>`,
      `<text x="${left - 4}" y="${f(py(yv) + 4)}" text-anchor="end">${xml(fy(yv))}</text>`,
    )
  }
  const [dx0, dx1] = xAxis.scale.domain() as [number, number]
  const xTicks = (spec.xTicks ?? xAxis.ticks).filter((v) => Number.isFinite(v) && v >= dx0 && v <= dx1)
  for (const xv of xTicks) body.push(`<text x="${f(px(xv))}" y="${top + plotH + 14}" text-anchor="middle">${xml(fx(xv))}</text>`)
  spec.series.forEach((s, si) => {
    const color = PALETTE[si % PALETTE.length]
    const p = s.points.filter((q) => Number.isFinite(q.x) && Number.isFinite(q.y) && (!spec.xLog || q.x > 0) && (!spec.yLog || q.y > 0))
    if (p.length === 0) return
    // Past the palette, series repeat a colour with a dashed line.
    const dash = si >= PALETTE.length ? ' stroke-dasharray="6 3"' : ''
    body.push(`<polyline fill="none" stroke="${color}" stroke-width="2"${dash} points="${p.map((q) => `${f(px(q.x))},${f(py(q.y))}`).join(' ')}"/>`)
    for (const q of p) body.push(`<circle cx="${f(px(q.x))}" cy="${f(py(q.y))}" r="3" fill="${color}"><title>${xml(`${s.name}: ${fx(q.x)} -> ${fy(q.y)}`)}</title></circle>`)
  })
  body.push(
    `<line x1="${left}" x2="${left}" y1="${top}" y2="${top + plotH}" stroke="#333"/>`,
    `<line x1="${left}" x2="${left + plotW}" y1="${top + plotH}" y2="${top + plotH}" stroke="#333"/>`,
    `<text x="${left + plotW / 2}" y="${h - 12}" text-anchor="middle">${xml(spec.xLabel)}</text>`,
    `<text transform="translate(14 ${top + plotH / 2}) rotate(-90)" text-anchor="middle">${xml(spec.yLabel)}</text>`,
    ...legend(spec.series.map((s) => s.name), left + plotW + 12, top),
  )
  return frame(w, h, spec.title, body)
}
