import { changedSpan } from '../trim/coarse.js'
import { charCut, fitText, mergeRanges } from '../trim/fit.js'
import { lineOffsets } from '../trim/linemap.js'
import { lineMapOf, SOURCE, type Provenance } from '../trim/provenance.js'
import { redLines } from '../trim/colour.js'
import { scanLines, type LineScan } from '../trim/salient.js'
import { countLines } from '../trim/text.js'
import type { LineRange, Profile } from '../trim/types.js'
import type { SalienceWeights } from '../trim/weights.js'

/** The source the excerpt's numbers refer to: the original, or its view, with its one scan. */
export interface Source {
  text: string
  scan: LineScan
}

/** A fitted text: what it left out, and the provenance of its lines afterwards. */
export interface Fitted {
  text: string
  omitted: LineRange[]
  provenance: Provenance
}

/**
 * Fits `text` into `budget` with the fitter. A `merged` provenance gives it a line map, so kept
 * lines carry source numbers (and the result's lines are then the source's); lines that were
 * rewritten have no numbers to show, so they are fitted by head and tail only and no `N: ` line
 * can name the wrong source line. A fitter failure falls back to a plain char cut.
 */
export function fitStep(text: string, budget: number, profile: Profile, provenance: Provenance, source: Source, focus: readonly string[] = [], weights?: Partial<SalienceWeights>): Fitted {
  try {
    const map = lineMapOf(provenance, source.text, source.scan.lines, source.scan.salient.map((s) => s.line))
    const numbered = provenance.kind === 'source' || map !== undefined
    const scan = text === source.text && provenance.kind === 'source' ? source.scan : numbered && profile.salient ? colouredScan(text, provenance, source) : undefined
    const fitted = fitText(text, budget, numbered ? profile : { ...profile, salient: false }, scan, map, focus, weights)
    return { text: fitted.text, omitted: fitted.omitted, provenance: map !== undefined ? SOURCE : dropTerminal(provenance) }
  } catch {
    const cut = charCut(text, budget, 0.5, countLines(text))
    return { text: cut.text, omitted: cut.omitted, provenance: dropTerminal(provenance) }
  }
}

/**
 * The salience scan of `text`, a filtered copy of the source whose lines are the source's one for
 * one (`source`) or runs of them (`merged`), with the lines the source printed in red scored as the
 * scan scores a red line it sees (`trim/colour.ts`, `scanLines`' `red`: 1 in a quiet block, demoted
 * with a passing test's output): the `ansi` filter took the colour away. A merged run counts when
 * its first line is red. `undefined` (the fitter scans) when the source has no red line.
 */
function colouredScan(text: string, provenance: Provenance, source: Source): LineScan | undefined {
  let red = redLines(source.text)
  if (red.length === 0) return undefined
  if (provenance.kind === 'merged') {
    const at = new Map(provenance.starts.map((line, i) => [line, i + 1]))
    red = red.flatMap((line) => (at.has(line) ? [at.get(line)!] : []))
  } else if (provenance.kind !== 'source') return undefined
  return scanLines(text, true, undefined, red)
}

/** The fit cut the terminal filter's output: its ranges no longer hold. */
const dropTerminal = (p: Provenance): Provenance => (p.kind === 'rewritten' && p.terminal !== undefined ? { kind: 'rewritten' } : p)

/**
 * Lines left out, in the source's numbers, and whether exactly: the fitter's ranges when the
 * lines are the source's; the terminal filter's; none when runs were merged (each shown with its
 * count) and nothing was fitted; else one coarse range between the excerpt's verbatim first and
 * last lines (see `TrimOutcome.omittedExact`).
 */
export function omittedLines(provenance: Provenance, fitted: LineRange[] | undefined, source: Source, excerpt: string): { omitted: LineRange[]; omittedExact: boolean } {
  if (provenance.kind === 'source') return { omitted: fitted ?? [], omittedExact: true }
  if (provenance.kind === 'rewritten' && provenance.terminal !== undefined) return { omitted: [...provenance.terminal], omittedExact: true }
  if (provenance.kind === 'merged' && fitted === undefined) return { omitted: [], omittedExact: true }
  const span = safeSpan(source.text, excerpt, source.scan.lines)
  return { omitted: span !== undefined ? [span] : [], omittedExact: false }
}

function safeSpan(source: string, excerpt: string, lines: number): LineRange | undefined {
  try {
    return changedSpan(source, excerpt, lines)
  } catch {
    return { start: 1, end: Math.max(1, lines), chars: Math.max(0, source.length - excerpt.length) }
  }
}

/**
 * `omitted` with the lines that kept summary lines stand for (`FilterOutput.summaries`: a CI
 * job's post-steps shown as one counted line): for each summary of `merged` (the provenance the
 * fit started from) whose line the excerpt shows, its run's other source lines, where no range of
 * `omitted` has them already. Sorted, touching ranges joined.
 */
export function withSummaries(omitted: LineRange[], merged: Provenance, source: Source, excerpt: string): LineRange[] {
  if (merged.kind !== 'merged' || merged.summaries === undefined || merged.summaries.length === 0) return omitted
  const extra: LineRange[] = []
  let offsets: number[] | undefined
  for (const s of merged.summaries) {
    const shown = s.text.endsWith('\r') ? s.text.slice(0, -1) : s.text
    if (shown === '' || !excerpt.includes(shown)) continue
    const i = merged.starts.indexOf(s.line)
    if (i === -1) continue
    const end = i + 1 < merged.starts.length ? merged.starts[i + 1]! - 1 : source.scan.lines
    offsets ??= lineOffsets(source.text)
    const o = offsets
    const at = (n: number): number => o[Math.min(Math.max(0, n), o.length - 1)]!
    // The run's lines after the summary, less those a range of `omitted` names already.
    let from = s.line + 1
    for (const r of [...omitted].sort((a, b) => a.start - b.start)) {
      if (r.end < from || r.start > end) continue
      if (r.start > from) extra.push({ start: from, end: r.start - 1, chars: at(r.start - 1) - at(from - 1) })
      from = Math.max(from, r.end + 1)
    }
    if (from <= end) extra.push({ start: from, end, chars: at(end) - at(from - 1) })
  }
  return extra.length === 0 ? omitted : mergeRanges([...omitted, ...extra])
}
