import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { renderCharts } from './charts.js'
import { renderMarkdown } from './markdown.js'
import type { Report } from './types.js'

/** Writes report.json, report.md and the SVG charts into `dir`; returns the file names. */
export function writeReport(dir: string, report: Report): string[] {
  mkdirSync(dir, { recursive: true })
  const charts = renderCharts(report)
  const files: Record<string, string> = {
    'report.json': `${JSON.stringify(report, null, 2)}\n`,
    'report.md': renderMarkdown(report, Object.keys(charts)),
    ...charts,
  }
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text)
  return Object.keys(files)
}
