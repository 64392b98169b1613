/**
 * Spillway's own output, recognised when it comes back as input (a host trims after us, a
 * sub-agent's result or a proxy passes it through spillway twice): the handle block under an
 * excerpt, and the excerpt's markers and `N: ` numbers. A re-trim keeps an excerpt that fits as
 * it is and otherwise re-fits it in the numbers of the original it was cut from (`lines 23-138
 * of 5000`, not of the excerpt), keeping the markers' counts and the handle; it never adds a
 * second handle. Parsing reads each marker line with anchored, linear regexes only.
 */
import { mergeRanges } from './fit.js'
import { GAP_MARKER_MAX, MAIN_MARKER_MAX, gapMarker, mainMarker } from './marker.js'
import { DEFAULT_PROFILES } from './profiles.js'
import { lineSalience, scanLines } from './salient.js'
import { weighSalient } from './weigh.js'
import type { LineRange, Profile } from './types.js'

/** First line of the handle block `spill/` puts under an excerpt. */
export const HANDLE_HEADER = '--- spillway: the text above is an excerpt, not the full output ---'

const COMPACT = /^\[excerpt; full output: fetch_result \{"id":"[0-9a-f]{12,64}"[^\n]{0,40}\}\]$/
const BARE = /^fetch_result \{"id":"[0-9a-f]{12,64}"\}$/
const MAIN = /^\[\.\.\. spillway: omitted (?:line (\d{1,12})|lines (\d{1,12})-(\d{1,12})) of (\d{1,12}) \((\d{1,15}) chars(?:, from char (\d{1,15}) of line (\d{1,12}))?(?:, up to char (\d{1,15}) of line (\d{1,12}))?\)(?:; (\d{1,12}) salient lines? there, first at line (\d{1,12})[^\n]{0,60})?(?:; no error or warning lines there)? \.\.\.\]$/
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

/**
 * One piece of an excerpt in the original's numbering: a line shown (standing for `span` lines of
 * the original from `n`: more than one where a filter merged a run, `x (x3)`, `[4 blank lines]`,
 * a CI job's post-steps; `clipped`: the chars of it the fitter cut, `… [+N chars]`, as it counted
 * them), or a run left out.
 */
type Piece = { kind: 'line'; n: number; span: number; text: string; numbered: boolean; clipped?: number } | { kind: 'gap'; from: number; to: number; chars: number }

/** A line shown, as {@link Piece}. */
type LinePiece = Extract<Piece, { kind: 'line' }>

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

/** A line's last {@link MARKER_LINE_MAX} chars: where a merged run's count is read (its regexes are anchored at the end). */
const lineEnd = (text: string): string => (text.length > MARKER_LINE_MAX ? text.slice(-MARKER_LINE_MAX) : text)

/** Exact dedup's ` (xN)` at a line's end (`filters/dedup`). */
const REPEATS = / \(x(\d{1,12})\)\r?$/
/** Blank-run collapse's line (`filters/dedup` countBlankRuns). */
const BLANKS = /^\[(\d{1,12}) blank lines\]\r?$/
/** A CI job's post-steps as one line (`filters/epilogue`). */
const POST_STEPS = / \[\+(\d{1,12}) lines: the CI job's post-steps\]\r?$/
/** A repeated block's count line (`filters/dedup` collapseCycles). */
const CYCLES = /(?:^|\s)\[(\d{1,12}) lines: the (\d{1,2}) lines above, (\d{1,12}) more times?\]\r?$/

/**
 * A repeated block's count line read: the lines it stands for, the block's and how many times
 * it repeats; only as `collapseCycles` writes one (2-32 lines a block, 4 lines or more, lines =
 * block x times), so that fewer of a tool's own lines read as one.
 */
function cycleRun(end: string): { lines: number; block: number; times: number } | undefined {
  const m = CYCLES.exec(end)
  if (m === null) return undefined
  const [lines, block, times] = [num(m[1]), num(m[2]), num(m[3])]
  return block >= 2 && block <= 32 && lines >= 4 && lines === block * times ? { lines, block, times } : undefined
}

/**
 * Lines of the original a shown line stands for, as its text says: a merged run's count, else 1.
 * (Read on lines up to {@link MARKER_LINE_MAX} chars' worth of their end only.)
 */
function runOf(text: string): number {
  const end = lineEnd(text)
  const r = REPEATS.exec(end) ?? BLANKS.exec(end)
  if (r !== null) return Math.max(1, num(r[1]))
  const cycle = cycleRun(end)
  if (cycle !== undefined) return cycle.lines
  const p = POST_STEPS.exec(end)
  return p !== null ? num(p[1]) + 1 : 1
}

/** Most lines ending like a merged run that {@link plainPieces} weighs in one head or tail. */
const MAX_RUN_LINES = 12

/**
 * Unnumbered lines (a head or a tail) as pieces from line `first`, covering exactly `count` lines
 * of the original: each merged run as its count says; else one line each; else (a line's own text
 * ending like a run, `VSTest 17.14 (x64)`) the one choice of such lines read as plain that adds
 * up, when there is exactly one among at most {@link MAX_RUN_LINES}. Undefined otherwise.
 */
function plainPieces(texts: string[], first: number, count: number): LinePiece[] | undefined {
  const spans = texts.map(runOf)
  const sum = spans.reduce((a, b) => a + b, 0)
  let read: number[] | undefined = sum === count ? spans : texts.length === count ? texts.map(() => 1) : undefined
  const runs = spans.flatMap((k, i) => (k > 1 ? [i] : []))
  if (read === undefined && sum > count && runs.length <= MAX_RUN_LINES) {
    let found = -1
    for (let mask = 1; mask < 1 << runs.length; mask++) {
      let plain = 0
      for (let b = 0; b < runs.length; b++) if (mask & (1 << b)) plain += spans[runs[b]!]! - 1
      if (sum - plain !== count) continue
      if (found !== -1) return undefined // two readings add up: neither is sure
      found = mask
    }
    if (found !== -1) {
      const plain = new Set(runs.filter((_, b) => found & (1 << b)))
      read = spans.map((k, i) => (plain.has(i) ? 1 : k))
    }
  }
  if (read === undefined) return undefined
  let n = first
  return texts.map((text, i) => {
    const p: LinePiece = { kind: 'line', n, span: read[i]!, text, numbered: false }
    n += read[i]!
    return p
  })
}

/**
 * Reads an excerpt made by the fitter (head lines, the main marker, numbered middle lines with
 * gap markers, tail lines) back into pieces numbered as in the original. Lines a filter merged
 * before the fit (`x (x3)`, `[4 blank lines]`, a CI job's post-steps) stand for their runs: in
 * the head and tail as their counts say, in the middle up to the next number (the fitter marks
 * every run it leaves out, so a number skipped without a marker is the line above's run).
 * A head or tail that ends inside the span's first or last line is read as left out with it.
 * Undefined for anything else, including excerpts cut by chars: those are trimmed as plain text.
 */
export function parseExcerpt(body: string): ParsedExcerpt | undefined {
  const probe = body.indexOf('[... spillway: omitted line')
  if (probe === -1) return undefined
  const trailingNewline = body.endsWith('\n')
  const all = (trailingNewline ? body.slice(0, -1) : body).split('\n')
  const main = mainMarkerOf(all)
  if (main === undefined) return undefined
  const { m, mm, from, to } = main
  const lines = num(mm[4])
  const chars = num(mm[5])
  if (!(from >= 1 && to >= from && lines >= to)) return undefined
  // A head or tail cut inside a line (the span's first or last: `from char 34 of line 1`, when that
  // line alone outgrew its share) shows that line's part above or below the marker: read back as
  // left out, its chars added to the gap it joins (the span's first, or its last), so the excerpt
  // is read in whole lines.
  const cutFirst = mm[6] !== undefined ? num(mm[6]) : undefined
  const cutLast = mm[8] !== undefined ? num(mm[8]) : undefined
  if ((cutFirst !== undefined && num(mm[7]) !== from) || (cutLast !== undefined && (num(mm[9]) !== to || cutLast < 1))) return undefined
  let headLines = all.slice(0, m)
  let headCut = 0
  if (cutFirst !== undefined) {
    // (the fitter's column is 1-based: the part shown is the `cutFirst - 1` chars before it)
    const part = headLines[headLines.length - 1]
    if (part === undefined || part.length !== cutFirst - 1) return undefined
    headLines = headLines.slice(0, -1)
    headCut = part.length
  }
  const head = plainPieces(headLines, 1, from - 1)
  if (head === undefined) return undefined
  const middle = readMiddle(all, m, from, to)
  // The tail: the lines after the middle, covering the lines after the span exactly; the middle
  // reaches the span's end (its last gap ends there, or its last line's run does).
  const last = middle[middle.length - 1]
  if (last !== undefined && last.kind === 'gap' && last.to !== to) return undefined
  let tailLines = all.slice(m + 1 + middle.length)
  let tailCut = 0
  if (cutLast !== undefined) {
    const part = tailLines[0]
    // (a middle that ends with a line: the fitter writes a gap for the cut line's first part)
    if (part === undefined || (last !== undefined && last.kind !== 'gap')) return undefined
    tailLines = tailLines.slice(1)
    // (with the line's end: the span's chars run to the next line's start)
    tailCut = part.length + (tailLines.length > 0 || trailingNewline ? 1 : 0)
  }
  const tail = plainPieces(tailLines, to + 1, lines - to)
  if (tail === undefined) return undefined
  // (only a cut line's parts shown: trimmed as text, which keeps more of them than a refit's marker)
  if ((cutFirst !== undefined || cutLast !== undefined) && head.length === 0 && tail.length === 0 && !middle.some((p) => p.kind === 'line')) return undefined
  const mid = middleLines(middle, from, to, chars + headCut)
  if (tailCut > 0) {
    // (the span's last gap: the middle's, or the one gap of a span with no line shown)
    const end = mid[mid.length - 1]
    if (end === undefined || end.kind !== 'gap') return undefined
    mid[mid.length - 1] = { ...end, chars: end.chars + tailCut }
  }
  const pieces = (head as Piece[]).concat(mid, tail)
  return { lines, from, to, trailingNewline, pieces, salientCount: mm[10] !== undefined ? num(mm[10]) : 0, firstSalient: mm[11] !== undefined ? num(mm[11]) : undefined }
}

/** The main marker among an excerpt's lines: its index, its match and the span it names. */
function mainMarkerOf(all: readonly string[]): { m: number; mm: RegExpExecArray; from: number; to: number } | undefined {
  const m = all.findIndex((l) => l.length <= MARKER_LINE_MAX && l.startsWith('[... spillway: omitted line'))
  const mm = m === -1 ? null : MAIN.exec(all[m]!)
  if (mm === null) return undefined
  const from = mm[1] !== undefined ? num(mm[1]) : num(mm[2])
  return { m, mm, from, to: mm[1] !== undefined ? from : num(mm[3]) }
}

/** A middle line as read, before its run is known. */
type MiddleLine = { kind: 'line'; n: number; text: string } | { kind: 'gap'; from: number; to: number; chars: number }

/**
 * Whether a shown line can stand for `span` lines: one, or the run its text names (`x (x3)`,
 * `[4 blank lines]`, post-steps), or any when the fitter clipped it (the count went with its end).
 */
const runFits = (text: string, span: number): boolean => span === 1 || runOf(text) === span || CLIP_NOTE.test(lineEnd(text))

/**
 * The middle of the excerpt `all` whose main marker is line `m` (0-based) and names the span
 * `from`..`to`, by its shape: numbered lines and gap markers in order after the marker, each past
 * the one before and within the span, and each shown line standing for a run its text allows (up
 * to the next piece, or to the span's end for the last); the first line that breaks this, and
 * what follows, are the tail. No gap marker comes first or after another (the fitter writes none
 * there), and no number is skipped right after a gap marker.
 */
function readMiddle(all: readonly string[], m: number, from: number, to: number): MiddleLine[] {
  const middle: MiddleLine[] = []
  let cursor = from
  for (let i = m + 1; i < all.length; i++) {
    const l = all[i]!
    const prev = middle[middle.length - 1]
    const g = l.length <= MARKER_LINE_MAX ? GAP.exec(l) : null
    if (g !== null) {
      const gf = g[1] !== undefined ? num(g[1]) : num(g[2])
      const gt = g[1] !== undefined ? gf : num(g[3])
      if (prev?.kind !== 'line' || gf < cursor || gt < gf || gt > to || !runFits(prev.text, gf - prev.n)) break
      middle.push({ kind: 'gap', from: gf, to: gt, chars: num(g[4]) })
      cursor = gt + 1
      continue
    }
    const nm = NUMBERED.exec(l)
    if (nm === null) break
    const n = num(nm[1])
    if (n < cursor || n > to || (n > cursor && (prev?.kind === 'gap' || (prev !== undefined && !runFits(prev.text, n - prev.n))))) break
    middle.push({ kind: 'line', n, text: l.slice(nm[0].length) })
    cursor = n + 1
  }
  // The last shown line's run reaches the span's end: one whose text cannot stand for that is the tail's.
  while (middle.length > 0) {
    const last = middle[middle.length - 1]!
    if (last.kind === 'gap' || runFits(last.text, to - last.n + 1)) break
    middle.pop()
  }
  return middle
}

/**
 * The `N: ` of each of an excerpt's `lines` that is a numbered middle line (by {@link readMiddle},
 * as a re-trim reads them); '' for the others (head and tail lines are the tool's text even when
 * they start with digits and `: `). All '' when the lines are not a fitter excerpt.
 */
export function excerptNumbers(lines: readonly string[]): string[] {
  const numbers = lines.map(() => '')
  const main = mainMarkerOf(lines)
  if (main === undefined) return numbers
  readMiddle(lines, main.m, main.from, main.to).forEach((p, k) => {
    if (p.kind === 'line') numbers[main.m + 1 + k] = `${p.n}: `
  })
  return numbers
}

/**
 * The middle's pieces: the run before the first shown line (the main marker's chars less the
 * gaps'), then each shown line standing for the lines up to the next piece (to the span's end
 * for the last), and the gaps.
 */
function middleLines(middle: MiddleLine[], from: number, to: number, chars: number): Piece[] {
  // (the main marker's chars are its runs' and the cut ends of the lines the fitter clipped)
  let explicit = 0
  const shown: Piece[] = middle.map((p, i) => {
    if (p.kind === 'gap') {
      explicit += p.chars
      return p
    }
    const next = middle[i + 1]
    const end = next === undefined ? to : next.kind === 'gap' ? next.from - 1 : next.n - 1
    const clipped = clippedChars(p.text)
    explicit += clipped
    return { kind: 'line', n: p.n, span: end - p.n + 1, text: p.text, numbered: true, ...(clipped > 0 ? { clipped } : {}) }
  })
  // (the middle starts with a shown line, `readMiddle` reads no gap before one; none: the span is one run)
  const lead = middle[0]?.kind === 'line' ? middle[0].n - 1 : to
  return lead >= from ? [{ kind: 'gap', from, to: lead, chars: Math.max(0, chars - explicit) }, ...shown] : shown
}

/** The fitter's note on a middle line it clipped (`trim/text.ts` clipLine). */
const CLIP_NOTE = /… \[\+(\d{1,15}) chars\]$/

/**
 * Chars of a numbered line the fitter clipped, as it counts them in `omitted` and the markers: the
 * note's count less the note's own length (the note stands where the cut text was); 0 for a line
 * shown whole.
 */
function clippedChars(text: string): number {
  const c = CLIP_NOTE.exec(lineEnd(text))
  return c === null ? 0 : Math.max(0, num(c[1]) - c[0].length)
}

/**
 * Chars of the original behind a shown line: its own with its `\n` (and, clipped, its cut end as
 * the fitter counts it); for a merged run, exact dedup's copies, one per line of a blank run (exact
 * for empty lines), a repeated block's lines times its repeats (exact when `above` gives the whole
 * block, read from the excerpt's lines right above the count line; else from those of its lines
 * shown there, on average), a CI job's post-steps' first line and one per line after it. The
 * post-steps, a block not shown whole, and a merged line the fitter clipped are estimates: the
 * text of their other lines is not in the excerpt.
 */
function runChars(p: LinePiece, above?: (k: number) => LinePiece[]): number {
  if (p.span === 1) return p.text.length + 1 + (p.clipped ?? 0)
  const end = lineEnd(p.text)
  // A repeated block's count line: its block's chars, times the repeats, when the block is shown
  // right above it; else its lines there are, each repeat, as long as those shown on average (as
  // long as the count line itself when none is).
  const cycle = cycleRun(end)
  if (cycle !== undefined && cycle.lines === p.span) {
    const k = cycle.block
    const block = above?.(k) ?? []
    const chars = block.reduce((sum, b) => sum + runChars(b), 0)
    if (block.length === k) return cycle.times * chars
    return block.length > 0 ? Math.round((p.span * chars) / block.length) : p.span * (p.text.length + 1)
  }
  const r = REPEATS.exec(end)
  // (each copy: the text before ` (xN)`, its `\r` when the count was written before one, and its `\n`)
  if (r !== null && num(r[1]) === p.span) return p.span * (p.text.length - r[0].length + (r[0].endsWith('\r') ? 2 : 1))
  if (BLANKS.test(end)) return p.span
  const post = POST_STEPS.exec(end)
  return (post !== null ? p.text.length - post[0].length : p.text.length + (p.clipped ?? 0)) + p.span
}

/** The lines right above `order[i]` in the original that the excerpt shows, each one line whole, up to `k` of them. */
function blockAbove(order: readonly LinePiece[], i: number, k: number): LinePiece[] {
  const block: LinePiece[] = []
  // (the shown lines right above `order[i]`, each one line whole, up to `k`: all `k` when the block is shown)
  for (let j = i - 1; j >= 0 && i - j <= k; j--) {
    const b = order[j]!
    if (b.span !== 1 || b.clipped !== undefined || b.n !== order[i]!.n - (i - j)) break
    block.unshift(b)
  }
  return block
}

/** A re-fitted excerpt and what it leaves out of the original, in the original's line numbers. */
export interface Refit {
  text: string
  omitted: LineRange[]
}

/** How a refit shares its budget: the profile's head and tail shares and context lines (see `Profile`). */
export type RefitShape = Pick<Profile, 'head' | 'tail' | 'contextBefore' | 'contextAfter'>

/**
 * Re-fits a parsed excerpt into `budget` chars, as the fitter shares a budget (`shape`, default
 * the `default` profile's): tail lines from the bottom and head lines from the top, each within its
 * share; then the salient lines, strongest first (a head or tail line past the new head or tail is
 * shown numbered, in its original number); then the lines around each (`contextBefore` above,
 * `contextAfter` below, as the first excerpt showed them: a trace's first frames, a failure's
 * message); then more tail and head lines in turn, then the other numbered lines. Every line keeps
 * its number in the original, and the main marker counts what the first excerpt and this one left
 * out. Undefined when not even the marker fits.
 */
export function refitExcerpt(ex: ParsedExcerpt, budget: number, shape: RefitShape = DEFAULT_PROFILES.default!): Refit | undefined {
  // The excerpt's lines, sorted out and scored once for both fits below.
  const lines = ex.pieces.filter((p): p is LinePiece => p.kind === 'line')
  const numbered = lines.filter((p) => p.numbered)
  const parts: RefitParts = {
    numbered,
    order: lines,
    index: new Map(lines.map((p, i) => [p.n, i])),
    head: lines.filter((p) => p.n < ex.from),
    tail: lines.filter((p) => p.n > ex.to),
    ...strongestFirst(lines),
    leastFrom: leastCosts(numbered),
  }
  const first = refitWithin(ex, parts, budget, 0, shape)
  if (first === undefined) return undefined
  // Each piece of numbered lines reserves a gap marker's longest form, so the refit comes out
  // short of its budget; it is made once more with those chars added, and taken when it keeps as
  // many salient lines and more chars.
  const slack = budget - first.text.length
  const second = slack >= GAP_MARKER_MAX ? refitWithin(ex, parts, budget, slack, shape) : undefined
  const better = second !== undefined && second.salient >= first.salient && second.text.length > first.text.length ? second : first
  return { text: better.text, omitted: better.omitted }
}

/**
 * The salient lines among an excerpt's numbered ones, strongest first (then in order), as the
 * fitter weighs them (`weigh.ts`: template rarity, runner shapes, a failure list's items, a
 * trace's own frame), read as one text; `strong`: how many of them (the first) are failure lines,
 * {@link REFIT_STRONG} or more.
 */
function strongestFirst(numbered: LinePiece[]): { scored: LinePiece[]; strong: number } {
  const text = numbered.map((p) => p.text).join('\n')
  const weighed = weighSalient(text, scanLines(text, true).salient)
    .map((s) => ({ p: numbered[s.line - 1]!, score: s.score }))
    .sort((a, b) => b.score - a.score || a.p.n - b.p.n)
  let strong = 0
  while (strong < weighed.length && weighed[strong]!.score >= REFIT_STRONG) strong++
  return { scored: weighed.map((x) => x.p), strong }
}

/**
 * Score from which a refit reads a salient line as a failure line (`weigh.ts`: an error or a
 * failure as a verdict; a warning or a mention of one weighs less): those and their pieces are
 * placed before the weaker lines. Chosen on the development logs' re-trims (3 and 5 measured).
 */
const REFIT_STRONG = 4

/** What the line `p` costs shown as `N: ` and its text, with its newline (no gap marker). */
const numberedCost = (p: LinePiece): number => `${p.n}: `.length + p.text.length + 1

/**
 * For each numbered line, the least any line from it on costs shown numbered (`N: `, its text
 * and newline; no gap marker, as when it joins a kept line): {@link refitWithin} stops its walk
 * where the room left is under it.
 */
function leastCosts(numbered: readonly LinePiece[]): number[] {
  const least = new Array<number>(numbered.length)
  let min = Infinity
  for (let i = numbered.length - 1; i >= 0; i--) {
    min = Math.min(min, numberedCost(numbered[i]!))
    least[i] = min
  }
  return least
}

/** An excerpt's lines for {@link refitWithin}: the numbered ones, all in order (and each one's index there), head, tail, the salient ones, strongest first, and the numbered lines' {@link leastCosts}. */
interface RefitParts {
  numbered: LinePiece[]
  leastFrom: number[]
  order: LinePiece[]
  index: Map<number, number>
  head: LinePiece[]
  tail: LinePiece[]
  scored: LinePiece[]
  /** The first `strong` of `scored` are failure lines ({@link REFIT_STRONG} or more). */
  strong: number
}

/** {@link refitExcerpt} with `extra` chars over the budget for its reserve; `salient`: the salient lines it keeps. */
function refitWithin(ex: ParsedExcerpt, { numbered, leastFrom, order, index, head, tail, scored, strong }: RefitParts, budget: number, extra: number, shape: RefitShape): (Refit & { salient: number }) | undefined {
  let room = budget + extra - MAIN_MARKER_MAX - 1
  if (room < 0) return undefined
  const kept = new Set<number>()
  // Whether lines `i` and `i + 1` of `order` are next to each other in the original (no line between them).
  // A line next to a kept one joins its piece; any other starts a piece, which reserves a gap
  // marker (two pieces that a line joins keep both reserves: an upper bound).
  const touching = (i: number): boolean => i >= 0 && i + 1 < order.length && order[i]!.n + order[i]!.span === order[i + 1]!.n
  const joins = (p: LinePiece): boolean => {
    const i = index.get(p.n)!
    return (touching(i - 1) && kept.has(order[i - 1]!.n)) || (touching(i) && kept.has(order[i + 1]!.n))
  }
  // `numbered`: the cost of the line shown as `N: ` in the middle.
  const cost = (p: LinePiece, numbered = p.numbered): number => (numbered ? numberedCost(p) + (joins(p) ? 0 : GAP_MARKER_MAX + 1) : p.text.length + 1)
  const take = (p: LinePiece, numbered = true): boolean => {
    if (kept.has(p.n)) return true
    const c = cost(p, numbered || p.numbered)
    if (c > room) return false
    room -= c
    kept.add(p.n)
    return true
  }
  // Tail and head within their shares, whole lines from the ends.
  const avail = room
  let ti = tail.length - 1
  for (let quota = Math.floor(avail * shape.tail); ti >= 0 && cost(tail[ti]!) <= quota && take(tail[ti]!, false); ti--) quota -= tail[ti]!.text.length + 1
  let hi = 0
  for (let quota = Math.floor(avail * shape.head); hi < head.length && cost(head[hi]!) <= quota && take(head[hi]!, false); hi++) quota -= head[hi]!.text.length + 1
  let salientKept = 0
  // Failure lines first, then the weaker salient lines: each group's lines, then the lines around
  // each kept one as far as the first excerpt showed them without a gap (a run stops at the first
  // line that does not fit), then the lines after each (the trace or detail the fitter grew
  // there), strongest first, until one does not fit. A failure's trace comes before a warning
  // the first excerpt had room for.
  const walked = new Uint8Array(order.length)
  for (const group of [scored.slice(0, strong), scored.slice(strong)]) {
    for (const p of group) if (take(p)) salientKept++
    for (const p of group) {
      if (!kept.has(p.n)) continue
      const i = index.get(p.n)!
      for (let j = i - 1; j >= 0 && i - j <= shape.contextBefore && touching(j); j--) if (!take(order[j]!)) break
      for (let j = i + 1; j < order.length && j - i <= shape.contextAfter && touching(j - 1); j++) if (!take(order[j]!)) break
    }
    for (const p of group) {
      if (!kept.has(p.n)) continue
      // (a walk stops at a line an earlier walk reached: it went on from there while lines fit, and room only shrinks)
      for (let j = index.get(p.n)! + 1; j < order.length && touching(j - 1) && walked[j] === 0; j++) {
        walked[j] = 1
        if (!take(order[j]!)) break
      }
    }
  }
  // Then tail and head a line at a time each, so neither takes all that is left.
  for (let tailOk = true, headOk = true; (tailOk && ti >= 0) || (headOk && hi < head.length); ) {
    if (tailOk && ti >= 0) tailOk = take(tail[ti--]!, false)
    if (headOk && hi < head.length) headOk = take(head[hi++]!, false)
  }
  // (once no line left could fit, the walk stops: an excerpt of 200,000 numbered lines is not
  // walked to its end for every refit)
  for (let i = 0; i < numbered.length && room >= leastFrom[i]!; i++) if (!kept.has(numbered[i]!.n)) take(numbered[i]!)

  // Walk the pieces: kept head, then the span (runs left out, kept numbered lines), kept tail.
  let h = 0
  while (h < head.length && kept.has(head[h]!.n)) h++
  let t = 0
  while (t < tail.length && kept.has(tail[tail.length - 1 - t]!.n)) t++
  const spanFrom = h < head.length ? head[h]!.n : ex.from
  const spanTo = t > 0 ? tail[tail.length - t]!.n - 1 : ex.lines
  const runs: LineRange[] = []
  const cut: LineRange[] = []
  const body: string[] = []
  let run: LineRange | undefined
  let salient = ex.salientCount
  let firstSalient = ex.firstSalient
  const inSpan = ex.pieces.filter((p) => (p.kind === 'gap' ? p.from : p.n) >= spanFrom && (p.kind === 'gap' ? p.to : p.n + p.span - 1) <= spanTo)
  const flush = (): void => {
    if (run === undefined) return
    runs.push(run)
    if (body.length > 0) body.push(gapMarker(run.start, run.end, run.chars))
    run = undefined
  }
  for (const p of inSpan) {
    if (p.kind === 'line' && !p.numbered && lineSalience(p.text) > 0) {
      salient += p.span // a head or tail line now in the span, shown or not: the span holds it (a merged run: each of its lines)
      firstSalient = firstSalient === undefined ? p.n : Math.min(firstSalient, p.n)
    }
    if (p.kind === 'line' && kept.has(p.n)) {
      flush()
      body.push(`${p.n}: ${p.text}`)
      if (p.clipped !== undefined) cut.push({ start: p.n, end: p.n, chars: p.clipped }) // (still left out: the end the fitter cut)
      continue
    }
    const from = p.kind === 'gap' ? p.from : p.n
    const to = p.kind === 'gap' ? p.to : p.n + p.span - 1
    // (the original's last line has no `\n` to count when the original ends without one)
    const chars = p.kind === 'gap' ? p.chars : runChars(p, (k) => blockAbove(order, index.get(p.n)!, k)) - (to === ex.lines && !ex.trailingNewline ? 1 : 0)
    run = run === undefined ? { start: from, end: to, chars } : { start: run.start, end: to, chars: run.chars + chars }
  }
  if (run !== undefined) {
    const last: LineRange = run
    runs.push(last)
    run = undefined
    if (body.length > 0) body.push(gapMarker(last.start, last.end, last.chars))
  }
  // (as the fitter's: clipped lines' cut ends joined with the runs they touch)
  const omitted = mergeRanges([...runs, ...cut])
  const total = omitted.reduce((s, r) => s + r.chars, 0)
  const shown = body.filter((l) => !l.startsWith('[... ')).length
  const marker = mainMarker({ from: spanFrom, to: Math.max(spanFrom, spanTo), lines: ex.lines, chars: total }, salient, firstSalient, shown)
  const out = [...head.slice(0, h).map((p) => p.text), marker, ...body, ...tail.slice(tail.length - t).map((p) => p.text)].join('\n') + (ex.trailingNewline && t > 0 ? '\n' : '')
  return out.length <= budget ? { text: out, omitted, salient: salientKept } : undefined
}
