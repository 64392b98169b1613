/**
 * Spillway's own output, recognised when it comes back as input (a host trims after us, a
 * sub-agent's result or a proxy passes it through spillway twice): the handle block under an
 * excerpt, and the excerpt's markers and `N: ` numbers. A re-trim keeps an excerpt that fits as
 * it is and otherwise re-fits it in the numbers of the original it was cut from (`lines 23-138
 * of 5000`, not of the excerpt), keeping the markers' counts and the handle; it never adds a
 * second handle. Parsing reads each marker line with anchored, linear regexes only.
 */
import { GAP_MARKER_MAX, MAIN_MARKER_MAX, gapMarker, mainMarker } from './marker.js'
import { lineSalience } from './salient.js'
import type { LineRange } from './types.js'

/** First line of the handle block `spill/` puts under an excerpt. */
export const HANDLE_HEADER = '--- spillway: the text above is an excerpt, not the full output ---'

const COMPACT = /^\[excerpt; full output: fetch_result \{"id":"[0-9a-f]{12,64}"[^\n]{0,40}\}\]$/
const BARE = /^fetch_result \{"id":"[0-9a-f]{12,64}"\}$/
const MAIN = /^\[\.\.\. spillway: omitted (?:line (\d{1,12})|lines (\d{1,12})-(\d{1,12})) of (\d{1,12}) \((\d{1,15}) chars\)(?:; (\d{1,12}) salient lines? there, first at line (\d{1,12})[^\n]{0,60})?(?:; no error or warning lines there)? \.\.\.\]$/
const GAP = /^\[\.\.\. (?:line (\d{1,12})|lines (\d{1,12})-(\d{1,12})) omitted \((\d{1,15}) chars\)(?:, \d{1,12} of them like line \d{1,12})? \.\.\.\]$/
const NUMBERED = /^(\d{1,12}): /
/** Longest line a marker can be; longer lines are never read with the regexes. */
const MARKER_LINE_MAX = 400

/** A text split into spillway's handle block (kept verbatim) and what is above it. */
export interface HandleSplit {
  /** The text above the handle (without the `\n` joining them). */
  body: string
  /** The handle block: the full block, the compact line or the bare `fetch_result` line. */
  handle: string
}

/**
 * Finds spillway's handle block at the end of `text`: the full block (its header line, then only
 * its own lines), or the compact `[excerpt; full output: fetch_result {...}]` line. Undefined
 * when there is none. A text that is only the bare `fetch_result {"id":"..."}` line is a handle
 * with an empty body. Exported for `spill/`: a result that already carries a handle must not be
 * given a second one.
 */
export function splitHandle(text: string): HandleSplit | undefined {
  if (BARE.test(text)) return { body: '', handle: text }
  const start = blockStart(text)
  if (start !== -1) return { body: start === 0 ? '' : text.slice(0, start - 1), handle: text.slice(start) }
  const nl = text.lastIndexOf('\n')
  const last = text.slice(nl + 1)
  if (last.length <= MARKER_LINE_MAX && COMPACT.test(last)) return { body: nl === -1 ? '' : text.slice(0, nl), handle: last }
  return undefined
}

const lineStartsWith = (text: string, start: number, prefix: string): boolean => text.startsWith(prefix, start)

/**
 * Start offset of the full handle block ending `text` (its header line, the `Full result of`
 * line, the `Read exactly` line, then one or more `- fetch_result {` lines up to the end), or -1.
 * Walks back from the end one line at a time: reads only the block, never the text above it
 * (a search for the header over a 10 MB result cost more than the rest of the trim).
 */
function blockStart(text: string): number {
  // Start of the line before the one starting at `start` (> 0, after a `\n`). A negative
  // `lastIndexOf` position would be read as 0, so the first line is handled apart.
  const prevLine = (start: number): number => (start <= 1 ? 0 : text.lastIndexOf('\n', start - 2) + 1)
  let start = text.length === 0 ? 0 : text.lastIndexOf('\n', text.length - 1) + 1
  let calls = 0
  while (lineStartsWith(text, start, '- fetch_result {')) {
    calls++
    if (start === 0) return -1
    start = prevLine(start)
  }
  // `start` is the `Read exactly` line; above it `Full result of`, above that the header.
  if (calls === 0 || start === 0 || !lineStartsWith(text, start, 'Read exactly what you need with ')) return -1
  const full = prevLine(start)
  if (full === 0 || !lineStartsWith(text, full, 'Full result of `')) return -1
  const header = prevLine(full)
  return full - 1 - header === HANDLE_HEADER.length && lineStartsWith(text, header, HANDLE_HEADER) ? header : -1
}

/** One piece of an excerpt in the original's numbering: a line shown, or a run left out. */
type Piece = { kind: 'line'; n: number; text: string; numbered: boolean } | { kind: 'gap'; from: number; to: number; chars: number }

/** A line excerpt made by spillway's fitter, read back. */
export interface ParsedExcerpt {
  /** Lines of the original. */
  lines: number
  /** The span the main marker named (first and last line left out around the numbered lines). */
  from: number
  to: number
  /** Whether the original (and so the excerpt) ended with `\n`. */
  trailingNewline: boolean
  pieces: Piece[]
  /** Salient lines the main marker counted in its span, and the first of them. */
  salientCount: number
  firstSalient: number | undefined
}

const num = (s: string | undefined): number => (s === undefined ? Number.NaN : Number(s))

/**
 * Reads an excerpt made by the fitter (head lines, the main marker, numbered middle lines with
 * gap markers, tail lines) back into pieces numbered as in the original. Undefined for anything
 * else, including excerpts cut inside a line or by chars: those are trimmed as plain text.
 */
export function parseExcerpt(body: string): ParsedExcerpt | undefined {
  const probe = body.indexOf('[... spillway: omitted line')
  if (probe === -1) return undefined
  const trailingNewline = body.endsWith('\n')
  const all = (trailingNewline ? body.slice(0, -1) : body).split('\n')
  const m = all.findIndex((l) => l.length <= MARKER_LINE_MAX && l.startsWith('[... spillway: omitted line'))
  if (m === -1) return undefined
  const mm = MAIN.exec(all[m]!)
  if (mm === null) return undefined
  const from = mm[1] !== undefined ? num(mm[1]) : num(mm[2])
  const to = mm[1] !== undefined ? from : num(mm[3])
  const lines = num(mm[4])
  const chars = num(mm[5])
  if (!(from === m + 1 && to >= from && lines >= to)) return undefined
  const tailCount = lines - to
  const midEnd = all.length - tailCount
  if (midEnd < m + 1) return undefined
  const pieces: Piece[] = all.slice(0, m).map((text, i) => ({ kind: 'line', n: i + 1, text, numbered: false }))
  const middle: Piece[] = []
  let cursor = from
  let explicit = 0
  for (const l of all.slice(m + 1, midEnd)) {
    const g = l.length <= MARKER_LINE_MAX ? GAP.exec(l) : null
    if (g !== null) {
      const gf = g[1] !== undefined ? num(g[1]) : num(g[2])
      const gt = g[1] !== undefined ? gf : num(g[3])
      if (gf < cursor || gt < gf || gt > to) return undefined
      middle.push({ kind: 'gap', from: gf, to: gt, chars: num(g[4]) })
      explicit += num(g[4])
      cursor = gt + 1
      continue
    }
    const nm = NUMBERED.exec(l)
    if (nm === null) return undefined
    const n = num(nm[1])
    if (n < cursor || n > to) return undefined
    if (n > cursor && middle.length > 0) return undefined // lines left out between two shown ones always get a gap marker
    middle.push({ kind: 'line', n, text: l.slice(nm[0].length), numbered: true })
    cursor = n + 1
  }
  // The run before the first numbered line has no marker of its own: the main marker's chars less the gaps'.
  const firstShown = middle.find((p) => p.kind === 'line')
  const leadEnd = firstShown !== undefined && middle[0] === firstShown ? firstShown.n - 1 : firstShown === undefined ? to : Number.NaN
  if (Number.isNaN(leadEnd)) return undefined
  if (leadEnd >= from) pieces.push({ kind: 'gap', from, to: leadEnd, chars: Math.max(0, chars - explicit) })
  pieces.push(...middle)
  all.slice(midEnd).forEach((text, i) => pieces.push({ kind: 'line', n: to + 1 + i, text, numbered: false }))
  return { lines, from, to, trailingNewline, pieces, salientCount: mm[6] !== undefined ? num(mm[6]) : 0, firstSalient: mm[7] !== undefined ? num(mm[7]) : undefined }
}

/** A re-fitted excerpt and what it leaves out of the original, in the original's line numbers. */
export interface Refit {
  text: string
  omitted: LineRange[]
}

/**
 * Re-fits a parsed excerpt into `budget` chars: numbered salient lines first, then tail lines from
 * the bottom and head lines from the top in turn, then the other numbered lines; every line keeps its number in the
 * original, and the main marker counts what the first excerpt and this one left out. Undefined
 * when not even the marker fits.
 */
export function refitExcerpt(ex: ParsedExcerpt, budget: number): Refit | undefined {
  // The excerpt's lines, sorted out and scored once for both fits below.
  const lines = ex.pieces.filter((p): p is LinePiece => p.kind === 'line')
  const numbered = lines.filter((p) => p.numbered)
  const parts: RefitParts = {
    numbered,
    head: lines.filter((p) => p.n < ex.from),
    tail: lines.filter((p) => p.n > ex.to),
    scored: numbered.map((p) => ({ p, s: lineSalience(p.text) })).filter((x) => x.s > 0).sort((a, b) => b.s - a.s || a.p.n - b.p.n).map((x) => x.p),
  }
  const first = refitWithin(ex, parts, budget, 0)
  if (first === undefined) return undefined
  // Each numbered line reserves a gap marker's longest form, so the refit comes out short of its
  // budget (by 12-20% on the CI logs' excerpts); it is made once more with those chars added, and
  // taken when it keeps as many salient lines and more chars.
  const slack = budget - first.text.length
  const second = slack >= GAP_MARKER_MAX ? refitWithin(ex, parts, budget, slack) : undefined
  const better = second !== undefined && second.salient >= first.salient && second.text.length > first.text.length ? second : first
  return { text: better.text, omitted: better.omitted }
}

type LinePiece = Extract<Piece, { kind: 'line' }>

/** An excerpt's lines for {@link refitWithin}: numbered, head, tail, and the numbered salient ones, strongest first. */
interface RefitParts {
  numbered: LinePiece[]
  head: LinePiece[]
  tail: LinePiece[]
  scored: LinePiece[]
}

/** {@link refitExcerpt} with `extra` chars over the budget for its reserve; `salient`: the salient lines it keeps. */
function refitWithin(ex: ParsedExcerpt, { numbered, head, tail, scored }: RefitParts, budget: number, extra: number): (Refit & { salient: number }) | undefined {
  const cost = (p: LinePiece): number => (p.numbered ? `${p.n}: `.length + GAP_MARKER_MAX + 1 : 0) + p.text.length + 1
  let room = budget + extra - MAIN_MARKER_MAX - 1
  if (room < 0) return undefined
  const kept = new Set<number>()
  const take = (p: LinePiece): boolean => {
    if (cost(p) > room) return false
    room -= cost(p)
    kept.add(p.n)
    return true
  }
  let salientKept = 0
  for (const p of scored) if (take(p)) salientKept++
  // Tail and head a line at a time each, so neither takes all that is left.
  for (let ti = tail.length - 1, hi = 0, tailOk = true, headOk = true; (tailOk && ti >= 0) || (headOk && hi < head.length); ) {
    if (tailOk && ti >= 0) tailOk = take(tail[ti--]!)
    if (headOk && hi < head.length) headOk = take(head[hi++]!)
  }
  for (const p of numbered) if (!kept.has(p.n)) take(p)

  // Walk the pieces: kept head, then the span (runs left out, kept numbered lines), kept tail.
  let h = 0
  while (h < head.length && kept.has(head[h]!.n)) h++
  let t = 0
  while (t < tail.length && kept.has(tail[tail.length - 1 - t]!.n)) t++
  const spanFrom = h + 1
  const spanTo = ex.lines - t
  const runs: LineRange[] = []
  const body: string[] = []
  let run: LineRange | undefined
  let salient = ex.salientCount
  let firstSalient = ex.firstSalient
  const inSpan = ex.pieces.filter((p) => (p.kind === 'gap' ? p.from : p.n) >= spanFrom && (p.kind === 'gap' ? p.to : p.n) <= spanTo)
  const flush = (): void => {
    if (run === undefined) return
    runs.push(run)
    if (body.length > 0) body.push(gapMarker(run.start, run.end, run.chars))
    run = undefined
  }
  for (const p of inSpan) {
    if (p.kind === 'line' && p.numbered && kept.has(p.n)) {
      flush()
      body.push(`${p.n}: ${p.text}`)
      continue
    }
    const from = p.kind === 'gap' ? p.from : p.n
    const to = p.kind === 'gap' ? p.to : p.n
    const chars = p.kind === 'gap' ? p.chars : p.text.length + 1
    if (p.kind === 'line' && !p.numbered && lineSalience(p.text) > 0) {
      salient++ // a head or tail line now left out: the span holds it
      firstSalient = firstSalient === undefined ? p.n : Math.min(firstSalient, p.n)
    }
    run = run === undefined ? { start: from, end: to, chars } : { start: run.start, end: to, chars: run.chars + chars }
  }
  if (run !== undefined) {
    const last: LineRange = run
    runs.push(last)
    run = undefined
    if (body.length > 0) body.push(gapMarker(last.start, last.end, last.chars))
  }
  const total = runs.reduce((s, r) => s + r.chars, 0)
  const shown = body.filter((l) => !l.startsWith('[... ')).length
  const marker = mainMarker({ from: spanFrom, to: Math.max(spanFrom, spanTo), lines: ex.lines, chars: total }, salient, firstSalient, shown)
  const out = [...head.slice(0, h).map((p) => p.text), marker, ...body, ...tail.slice(tail.length - t).map((p) => p.text)].join('\n') + (ex.trailingNewline && t > 0 ? '\n' : '')
  return out.length <= budget ? { text: out, omitted: runs, salient: salientKept } : undefined
}
