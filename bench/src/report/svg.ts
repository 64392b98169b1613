// Hand-written SVG charts (no chart dependency): grouped bars and lines with log or linear axes.

const PALETTE = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f']

/** Escapes text for SVG/XML. */
export function xml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

const f = (n: number): string => (Math.round(n * 10) / 10).toString()

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
  /** Top of the y axis (default: the largest value). */
  yMax?: number
  /** Format of the tick labels. */
  format?: (v: number) => string
}

/** A grouped bar chart. */
export function barChart(spec: BarChartSpec): string {
  const { groups, series, values } = spec
  const fmt = spec.format ?? ((v: number) => f(v))
  const left = 60, right = 190, top = 34, bottom = 60
  const groupW = Math.max(60, series.length * 14 + 16)
  const w = left + right + groups.length * groupW
  const h = 340
  const plotH = h - top - bottom
  const max = spec.yMax ?? Math.max(1e-9, ...values.flat().filter((v): v is number => v !== null))
  const y = (v: number): number => top + plotH - (Math.min(v, max) / max) * plotH
  const body: string[] = []
  for (let t = 0; t <= 4; t++) {
    const v = (max * t) / 4
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
  /** Where to label the x axis (default: 5 evenly spaced ticks). */
  xTicks?: readonly number[]
}

/** A line chart with markers; log axes optional. */
export function lineChart(spec: LineChartSpec): string {
  const left = 64, right = 190, top = 34, bottom = 50, w = 760, h = 360
  const plotW = w - left - right, plotH = h - top - bottom
  const pts = spec.series.flatMap((s) => s.points).filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y) && (!spec.xLog || p.x > 0) && (!spec.yLog || p.y > 0))
  const tx = (v: number): number => (spec.xLog ? Math.log10(v) : v)
  const ty = (v: number): number => (spec.yLog ? Math.log10(v) : v)
  const xs = pts.map((p) => tx(p.x)), ys = pts.map((p) => ty(p.y))
  let x0 = Math.min(...xs), x1 = Math.max(...xs)
  let y0 = spec.yMin !== undefined ? ty(spec.yMin) : Math.min(...ys)
  let y1 = spec.yMax !== undefined ? ty(spec.yMax) : Math.max(...ys)
  if (!Number.isFinite(x0)) (x0 = 0), (x1 = 1)
  if (!Number.isFinite(y0)) (y0 = 0), (y1 = 1)
  if (x1 === x0) x1 = x0 + 1
  if (y1 === y0) y1 = y0 + 1
  const px = (v: number): number => left + ((tx(v) - x0) / (x1 - x0)) * plotW
  const py = (v: number): number => top + plotH - ((ty(v) - y0) / (y1 - y0)) * plotH
  const inv = (t: number, log: boolean | undefined): number => (log ? 10 ** t : t)
  const fx = spec.formatX ?? ((v: number) => f(v)), fy = spec.formatY ?? ((v: number) => f(v))
  const body: string[] = []
  for (let t = 0; t <= 4; t++) {
    const yv = inv(y0 + ((y1 - y0) * t) / 4, spec.yLog)
    body.push(
      `<line x1="${left}" x2="${left + plotW}" y1="${f(py(yv))}" y2="${f(py(yv))}" stroke="#ddd"/>`,
      `<text x="${left - 4}" y="${f(py(yv) + 4)}" text-anchor="end">${xml(fy(yv))}</text>`,
    )
  }
  const xTicks = (spec.xTicks ?? [0, 1, 2, 3, 4].map((t) => inv(x0 + ((x1 - x0) * t) / 4, spec.xLog))).filter((v) => Number.isFinite(tx(v)) && tx(v) >= x0 && tx(v) <= x1)
  for (const xv of xTicks) body.push(`<text x="${f(px(xv))}" y="${top + plotH + 14}" text-anchor="middle">${xml(fx(xv))}</text>`)
  spec.series.forEach((s, si) => {
    const color = PALETTE[si % PALETTE.length]
    const p = s.points.filter((q) => Number.isFinite(q.x) && Number.isFinite(q.y) && (!spec.xLog || q.x > 0) && (!spec.yLog || q.y > 0))
    if (p.length === 0) return
    body.push(`<polyline fill="none" stroke="${color}" stroke-width="2" points="${p.map((q) => `${f(px(q.x))},${f(py(q.y))}`).join(' ')}"/>`)
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
