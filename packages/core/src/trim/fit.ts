import { GAP_MARKER_MAX, MAIN_MARKER_MAX, gapMarker, mainMarker, type LikeNote } from './marker.js'
import { firstLine, lastLine, rangeMapper, type LineMap } from './linemap.js'
import { isBlankLine, lineAt, nextStart, type Line } from './lines.js'
import { pickMiddle, rankSalient, type Ranked } from './middle.js'
import { scanLines, type LineScan, type SalientLine } from './salient.js'
import { ownTemplateKey, weighSalient } from './weigh.js'
import { runnerShape } from './runners.js'
import { endsWithSuccess, startsWithSuccess } from './verdict.js'
import { surefireProgress } from './passing.js'
import { afterLinePrefix, indentAt, isBlankOrBarePrefix } from './shapes.js'
import { resolveWeights, type SalienceWeights } from './weights.js'
import { clipLine, countLines, headChars, safeEnd, safeStart } from './text.js'
import type { LineRange, Profile } from './types.js'

/** What the fitter returns. */
export interface FitResult {
  text: string
  omitted: LineRange[]
  scan: LineScan
}

/**
 * Share of the tail's quota kept when the tail holds no salient line while the middle does (a CI
 * job's post-steps after the failing one): the rest goes to the middle.
 */
export const QUIET_TAIL_SHARE = 0.25

/**
 * Share of the head's quota kept when the head holds no salient line while the middle does (a CI
 * job's set-up before the failing step): the rest goes to the middle.
 */
export const QUIET_HEAD_SHARE = 0.25

/**
 * Fewest chars an excerpt may leave of its budget before the middle is picked again with them
 * (see {@link fitText}): less than one gap marker's reserve adds nothing.
 */
export const RETRY_SLACK = GAP_MARKER_MAX

/** Below this budget the fitter makes a plain cut with the shortest marker. */
export const MIN_LINE_FIT = 400


/** Whole lines from the top within `quota` chars: returns the end offset (after the last `\n`). */
function takeHead(text: string, from: number, limit: number, quota: number): number {
  let end = from
  while (end < limit) {
    const next = Math.min(nextStart(text, end), limit)
    if (next - from > quota) break
    end = next
  }
  return end
}

/** Most of the budget a runner's summary list above the tail may bring the tail to (see {@link fitText}). */
export const SUMMARY_TAIL_SHARE = 0.5

/** Fewest lines of a summary list that may grow the tail (see {@link summaryAbove}). */
const SUMMARY_MIN_LINES = 3

/**
 * Start of a runner's summary list above the tail, `tailStart` when there is none: the run of
 * salient lines right above it ({@link runAbove}), else the earliest list header within `cap`
 * ({@link listAbove}).
 */
export function summaryAbove(text: string, salient: readonly SalientLine[], tailStart: number, cap: number): number {
  let k = salient.length - 1
  while (k >= 0 && salient[k]!.start >= tailStart) k--
  if (k < 0) return tailStart
  return runAbove(text, salient, k, tailStart, cap) ?? listAbove(text, salient, k, cap) ?? tailStart
}

/** Chars of a salient line the summary rules read. */
const SUMMARY_PROBE = 400

/** Whether `line` (a salient line's first chars, of runner shape `shape`) heads a runner's list: a summary ending with `:` (`Failed tests:`, `Failing Scenarios:`). */
const headsList = (line: string, shape = runnerShape(line)): boolean => shape === 'summary' && line.trimEnd().endsWith(':')

/**
 * Start of the run of consecutive salient lines (one blank line between two of them allowed)
 * whose last one, `salient[k]`, ends right before `tailStart` (or one blank line before it),
 * taken while the text from its start to the end stays within `cap` chars, when it has
 * {@link SUMMARY_MIN_LINES} lines or more and at least half of them have a test runner's shape
 * (`runners.ts`: pytest's `FAILED a.py::t`, Surefire's `Tests run: ... <<< FAILURE!`) or one of
 * them heads a list ({@link headsList}): not a logged trace that happens to sit there. Reads the
 * salient lines of the run only, each's first {@link SUMMARY_PROBE} chars.
 */
function runAbove(text: string, salient: readonly SalientLine[], k: number, tailStart: number, cap: number): number | undefined {
  const after = nextStart(text, salient[k]!.start)
  if (after !== tailStart && !(after < tailStart && isBlankLine(text, after, tailStart))) return undefined
  let j = k
  // (one blank line between two of its lines allowed: Surefire's `Failed tests:` and `Tests in error:` sections)
  const joined = (a: SalientLine, b: SalientLine): boolean => b.line - a.line === 1 || (b.line - a.line === 2 && isBlankLine(text, nextStart(text, a.start), b.start))
  while (j > 0 && joined(salient[j - 1]!, salient[j]!) && text.length - salient[j - 1]!.start <= cap) j--
  if (k - j + 1 < SUMMARY_MIN_LINES) return undefined
  let shaped = 0
  let listHeader = false
  for (let i = j; i <= k; i++) {
    const line = text.slice(salient[i]!.start, Math.min(salient[i]!.end, salient[i]!.start + SUMMARY_PROBE))
    const shape = runnerShape(line)
    if (shape !== undefined) shaped++
    if (headsList(line, shape)) listHeader = true
  }
  return shaped * 2 >= k - j + 1 || listHeader ? salient[j]!.start : undefined
}

/**
 * Start of the earliest salient line up to `salient[k]` that heads a runner's list
 * ({@link headsList}) and whose next line is its first item (not blank, indented deeper after
 * its prefix), while the text from it to the end fits `cap`: Surefire 2's `Failed tests:`,
 * whose items hold no keyword, with Maven's reactor summary between it and the tail. Reads the
 * salient lines within `cap` of the end, each's first {@link SUMMARY_PROBE} chars, and the line
 * after each header.
 */
function listAbove(text: string, salient: readonly SalientLine[], k: number, cap: number): number | undefined {
  let found: number | undefined
  for (let i = k; i >= 0 && text.length - salient[i]!.start <= cap; i--) {
    const s = salient[i]!
    if (!headsList(text.slice(s.start, Math.min(s.end, s.start + SUMMARY_PROBE)))) continue
    const next = nextStart(text, s.start)
    if (next >= text.length) continue
    const item = lineAt(text, s.line + 1, next)
    if (isBlankOrBarePrefix(text, item.start, item.end)) continue
    const from = afterLinePrefix(text, item.start, item.end)
    if (indentAt(text, from, item.end) > indentAt(text, afterLinePrefix(text, s.start, s.end), s.end)) found = s.start
  }
  return found
}

/**
 * Start of the tail without its top of passing tests: the tail's first lines, down to its first
 * salient line, while each is blank (a bare CI timestamp too) or another test's pass verdict
 * (`verdict.ts`: `✓ test`, `ParserTest > testCase() PASSED`; `passing.ts`: Surefire's `Running
 * a.BTest` and a passing class's `Tests run: 3, Failures: 0, Errors: 0, ...`), or the name of a
 * group right above a pass verdict (Jest's and Mocha's `describe`: `  catalog page 9` over
 * `    ✓ prices sku9-0`; see {@link groupOverPasses}). `tailStart` when
 * the tail holds no salient line or starts mid-line. Reads the tail's lines only.
 */
export function quietTailTop(text: string, salient: readonly SalientLine[], tailStart: number): number {
  if (tailStart === 0 || text.charCodeAt(tailStart - 1) !== 10) return tailStart
  let k = salient.length
  while (k > 0 && salient[k - 1]!.start >= tailStart) k--
  if (k === salient.length) return tailStart
  let at = tailStart
  while (at < salient[k]!.start) {
    const next = nextStart(text, at)
    const end = next - 1 // (the line's `\n`: every line read here has one, a salient line follows)
    if (!(isBlankOrBarePrefix(text, at, end) || startsWithSuccess(text, at, end) || endsWithSuccess(text, at, end, true) || surefireProgress(text, at, end) || groupOverPasses(text, at, next, salient[k]!.start))) break
    at = next
  }
  return at
}

/** Deepest nesting of groups {@link groupOverPasses} reads down to a pass verdict. */
const GROUP_DEPTH = 4

/**
 * True when the line at `at` names a group of passing tests (Jest's and Mocha's `describe`): the
 * lines after it, each indented deeper than the one above, reach a pass verdict within
 * {@link GROUP_DEPTH} lines (`  Cart` / `    add` / `      ✓ adds an item`), all before `limit`
 * (the tail's first salient line). A failure's detail right above a verdict (Vitest's
 * `    → reason` over `  ✓ next test`, Jest's `Received length: 0` over `PASS a.test.js`) is
 * indented as deep or deeper: not a group. `next`: the start of the line after `at`.
 */
function groupOverPasses(text: string, at: number, next: number, limit: number): boolean {
  // (`next` never passes `limit`: the walk stops at the line before it; the guard keeps the reads inside the tail's top)
  let indent = indentAt(text, afterLinePrefix(text, at, next - 1), next - 1)
  for (let depth = 0, line = next; depth < GROUP_DEPTH && line < limit; depth++) {
    const after = nextStart(text, line)
    const end = after - 1
    const inner = indentAt(text, afterLinePrefix(text, line, end), end)
    if (inner <= indent) return false
    if (startsWithSuccess(text, line, end)) return true
    indent = inner
    line = after
  }
  return false
}

/** Whole lines from the bottom within `quota` chars: returns the start offset of the tail. */
function takeTail(text: string, to: number, limit: number, quota: number): number {
  let start = to
  while (start > limit) {
    // the line ending just before `start` (its `\n` at start-1, except for the last line)
    const prev = Math.max(limit, text.lastIndexOf('\n', start - 2) + 1)
    if (to - prev > quota) break
    start = prev
  }
  return start
}

/**
 * Plain cut for small budgets or pathological shapes: head chars + marker + tail chars.
 * Always within `budget`.
 */
export function charCut(text: string, budget: number, headShare: number, lines: number): { text: string; omitted: LineRange[] } {
  const n = text.length
  if (n <= budget) return { text, omitted: [] }
  const whole: LineRange[] = [{ start: 1, end: Math.max(1, lines), chars: n }]
  if (budget <= 0) return { text: '', omitted: whole }
  const tiny = `[+${n} chars]`
  if (budget < tiny.length + 2) return { text: headChars(text, budget - 1) + '…', omitted: whole }
  // Two passes: the marker's numbers depend on the cut, the cut on the marker's length.
  let marker = `\n[... spillway: omitted chars ${n}-${n} of ${n} ...]\n`
  if (marker.length + 2 > budget) marker = `[…${n} chars cut]`
  const avail = budget - marker.length
  if (avail < 2) return { text: headChars(text, budget - 1) + '…', omitted: whole }
  const h = safeEnd(text, Math.floor(avail * headShare))
  const t = safeStart(text, n - (avail - h))
  const final = marker.startsWith('\n') ? `\n[... spillway: omitted chars ${h + 1}-${t} of ${n} ...]\n` : `[…${t - h} chars cut]`
  const omittedLines = lines <= 1 ? [{ start: 1, end: 1, chars: t - h }] : whole.map((r) => ({ ...r, chars: t - h }))
  return { text: text.slice(0, h) + final + text.slice(t), omitted: omittedLines }
}

/**
 * Fits `text` into `budget` chars: head lines, tail lines and, between them, salient lines with
 * a little context, each numbered, with a visible marker for every omission.
 *
 * With `map` (when `text` is a filtered copy of `map.source` whose lines merge runs of source
 * lines, e.g. exact dedup), kept lines are numbered with their source line numbers, and the
 * markers and `omitted` speak of source lines; below {@link MIN_LINE_FIT} the char cut is made
 * on the source, whose char offsets the marker then names. Salient lines are weighed in this
 * text first ({@link weighSalient}: template rarity, failure lists, and `focus`, the terms of the
 * call, raising the lines that hold one), with `weights` (default {@link DEFAULT_SALIENCE_WEIGHTS}).
 */
export function fitText(text: string, budget: number, profile: Profile, scan?: LineScan, map?: LineMap, focus: readonly string[] = [], weights?: Partial<SalienceWeights>): FitResult {
  const sc = scan ?? scanLines(text, profile.salient)
  if (text.length <= budget) return { text, omitted: [], scan: sc }
  const headShare = profile.head + profile.tail > 0 ? profile.head / (profile.head + profile.tail) : 0.5
  const plainCut = (): FitResult =>
    map !== undefined ? { ...charCut(map.source, budget, headShare, map.lines), scan: sc } : { ...charCut(text, budget, headShare, sc.lines), scan: sc }
  if (budget < MIN_LINE_FIT) return plainCut()
  const label = map !== undefined ? (n: number): number => firstLine(map, n) : (n: number): number => n

  const avail = budget - MAIN_MARKER_MAX - GAP_MARKER_MAX
  let headQuota = Math.floor(avail * profile.head)
  let tailQuota = Math.floor(avail * profile.tail)
  let midQuota = avail - headQuota - tailQuota
  let { headEnd, tailStart } = headAndTail(text, headQuota, tailQuota)
  const inMiddle = (s: SalientLine): boolean => s.start >= headEnd && s.end < tailStart
  if (sc.salient.length > 0 && sc.salient[sc.salient.length - 1]!.end < tailStart && sc.salient.some(inMiddle)) {
    // Nothing salient in the tail (a CI job's post-steps after the failing one): keep a short
    // tail and give the rest to the middle, where the failure is.
    const moved = tailQuota - Math.floor(tailQuota * QUIET_TAIL_SHARE)
    tailQuota -= moved
    midQuota += moved
    ;({ headEnd, tailStart } = headAndTail(text, headQuota, tailQuota))
  }
  if (sc.salient.length > 0 && sc.salient[0]!.start >= headEnd && sc.salient.some(inMiddle)) {
    // Nothing salient in the head (a CI job's set-up before the failing step): keep a short
    // head, never less than its first whole line (what ran), and give the rest to the middle.
    const firstNewline = text.slice(0, headQuota).indexOf('\n') // bounded: the head's chars only
    const firstLine = firstNewline === -1 ? headQuota : firstNewline + 1
    const moved = headQuota - Math.min(headQuota, Math.max(Math.floor(headQuota * QUIET_HEAD_SHARE), firstLine))
    headQuota -= moved
    midQuota += moved
    ;({ headEnd, tailStart } = headAndTail(text, headQuota, tailQuota))
  }
  {
    // A runner's summary list right above the tail (pytest's short test summary, Surefire's
    // `Tests in error:`; see summaryAbove) joins the tail, up to SUMMARY_TAIL_SHARE of the
    // budget, from the middle's quota (never more than the middle has: a profile with a large
    // head share, read_file's 0.6, leaves less).
    const cap = Math.min(Math.floor(avail * SUMMARY_TAIL_SHARE), tailQuota + midQuota)
    const from = tailQuota < cap ? summaryAbove(text, sc.salient, tailStart, cap) : tailStart
    if (from < tailStart) {
      const grown = text.length - from
      if (grown > tailQuota) {
        midQuota -= grown - tailQuota
        tailQuota = grown
        ;({ headEnd, tailStart } = headAndTail(text, headQuota, tailQuota))
      }
    }
  }
  {
    // The passing tests printed at the top of the tail (Surefire's last classes before its
    // Results) give their chars to the middle; what the middle does not use comes back below.
    const from = sc.salient.some(inMiddle) ? quietTailTop(text, sc.salient, tailStart) : tailStart
    if (from > tailStart) {
      tailQuota -= from - tailStart
      midQuota += from - tailStart
      tailStart = from
    }
  }
  let candidates = sc.salient.filter(inMiddle)
  if (candidates.length === 0) {
    // Nothing to look for in the middle: give its share to head and tail.
    headQuota += Math.floor(midQuota * headShare)
    tailQuota = avail - headQuota
    midQuota = 0
    ;({ headEnd, tailStart } = headAndTail(text, headQuota, tailQuota))
    candidates = []
  }

  const weighed = candidates.length > 0 ? weighSalient(text, candidates, { from: headEnd, to: tailStart, focus, ...(weights !== undefined ? { weights } : {}) }) : candidates
  const diversity = resolveWeights(weights).diversity
  // (both picks below rank the same lines with the same tail: ranked once)
  let ranked: Ranked | undefined
  /**
   * The middle picked within its quota and `extra` chars more, the budget it left extending the
   * tail, then the head, and the excerpt rendered with its count notes when they fit, else
   * (unless `notes`) without; undefined when it does not fit.
   */
  const pickAndRender = (extra: number, notes: boolean): (Rendered & { h: number; t: number; picked: Line[] }) | undefined => {
    let h = headEnd
    let t = tailStart
    const quota = midQuota + extra
    const picked = pickMiddle(text, weighed, h, t, quota, profile, label, diversity, () => (ranked ??= rankSalient(text, weighed, tailStart)))
    if (picked.cost < quota && text.charCodeAt(t - 1) === 10 && (h === 0 || text.charCodeAt(h - 1) === 10)) {
      // Budget the middle did not use extends the tail, then the head (whole lines only).
      const last = picked.lines[picked.lines.length - 1]
      const tailLimit = last !== undefined ? nextStart(text, last.start) : h
      t = Math.max(tailLimit, takeTail(text, text.length, tailLimit, tailQuota + quota - picked.cost))
      const headLimit = picked.lines[0]?.start ?? t
      h = takeHead(text, 0, headLimit, avail + extra - picked.cost - (text.length - t))
    }
    // Gap markers say how many repeats of a kept line's template they hold, when that still fits.
    const noted = render(text, sc, h, t, picked.lines, profile, map, weighed)
    const shown = noted.text.length <= budget ? noted : notes ? undefined : render(text, sc, h, t, picked.lines, profile, map)
    if (shown === undefined || shown.text.length > budget) return undefined
    return { ...shown, h, t, picked: picked.lines }
  }
  const first = pickAndRender(0, false)
  if (first === undefined) return plainCut()
  // The quotas reserve each marker's longest form (MAIN_MARKER_MAX, GAP_MARKER_MAX a piece), so
  // an excerpt comes out shorter than its budget, by a tenth on the CI logs at 4,000 chars. The
  // middle is picked once more with those chars added to its quota, and that excerpt is taken
  // when it fits, keeps count notes when the first had some (they were not reserved), and shows
  // more salient lines, or as many in more chars: a larger middle may take the line above the
  // tail, which the tail then cannot grow past. (With no middle, the spare chars are a line the
  // head or tail could not take whole.)
  const slack = budget - first.text.length
  const second = slack >= RETRY_SLACK && weighed.length > 0 ? pickAndRender(slack, first.notes > 0) : undefined
  let fitted: Rendered = first
  if (second !== undefined) {
    // (the one that shows more salient lines, in its head, middle and tail; else the longer)
    const salientAt = new Set(sc.salient.map((s) => s.line))
    const kept = (r: typeof first): number => {
      let n = 0
      for (const s of sc.salient) if (s.start < r.h || s.start >= r.t) n++
      for (const l of r.picked) if (salientAt.has(l.n)) n++
      return n
    }
    const a = kept(first)
    const b = kept(second)
    if (b > a || (b === a && second.text.length > first.text.length)) fitted = second
  }
  return { text: fitted.text, omitted: fitted.omitted, scan: sc }
}

/** Head end and tail start offsets: whole lines, or part of a line when not even one fits. */
function headAndTail(text: string, headQuota: number, tailQuota: number): { headEnd: number; tailStart: number } {
  let headEnd = takeHead(text, 0, text.length, headQuota)
  if (headEnd === 0 && headQuota > 0) headEnd = safeEnd(text, headQuota)
  let tailStart = Math.max(headEnd, takeTail(text, text.length, headEnd, tailQuota))
  if (tailStart === text.length && tailQuota > 0) tailStart = Math.max(headEnd, safeStart(text, text.length - tailQuota))
  return { headEnd, tailStart }
}

/**
 * A function giving the count note of the gap `[from, to]` (lines of `text`): among the salient
 * lines in the gap, the most frequent template (`ownTemplate`, as its key) that a kept salient line also
 * has, as `{ count, line }` (count in source lines, line as labelled: the last kept one before the
 * gap, else the first after), or undefined when none repeats there at least twice. Gaps must be
 * asked in ascending order (one pass over `weighed`).
 */
function likeNotes(text: string, weighed: readonly SalientLine[], mid: Line[], map: LineMap | undefined): (from: number, to: number) => LikeNote | undefined {
  const byLine = new Map<number, SalientLine>()
  for (const s of weighed) byLine.set(s.line, s)
  // (the key weighSalient's walk gave, where it did)
  const ownKey = (s: SalientLine): number => s.own ?? ownTemplateKey(text, s.start, s.end)
  const keptAt = new Map<number, number[]>()
  for (const l of mid) {
    if (!byLine.has(l.n)) continue
    const t = ownKey(byLine.get(l.n)!)
    const at = keptAt.get(t)
    if (at !== undefined) at.push(l.n)
    else keptAt.set(t, [l.n])
  }
  const span = (n: number): number => (map !== undefined ? lastLine(map, n) - firstLine(map, n) + 1 : 1)
  const label = (n: number): number => (map !== undefined ? firstLine(map, n) : n)
  let i = 0
  return (from, to) => {
    while (i < weighed.length && weighed[i]!.line < from) i++
    const counts = new Map<number, number>()
    for (; i < weighed.length && weighed[i]!.line <= to; i++) {
      const s = weighed[i]!
      const t = ownKey(s)
      if (keptAt.has(t)) counts.set(t, (counts.get(t) ?? 0) + span(s.line))
    }
    let best: number | undefined
    for (const [t, c] of counts) if (c >= 2 && (best === undefined || c > counts.get(best)!)) best = t
    if (best === undefined) return undefined
    const kept = keptAt.get(best)!
    const before = kept.filter((n) => n < from)
    return { count: counts.get(best)!, line: label(before.length > 0 ? before[before.length - 1]! : kept[0]!) }
  }
}

/** An excerpt rendered: its text, what it left out, and how many of its gap markers carry a count note. */
interface Rendered {
  text: string
  omitted: LineRange[]
  notes: number
}

function render(text: string, sc: LineScan, headEnd: number, tailStart: number, mid: Line[], profile: Profile, map: LineMap | undefined, weighed?: readonly SalientLine[]): Rendered {
  // Ranges are found in the filtered text's lines, then said (and returned) in the source's.
  const toSource = map !== undefined ? rangeMapper(map, text) : (r: LineRange): LineRange => r
  const label = map !== undefined ? (n: number): number => firstLine(map, n) : (n: number): number => n
  const note = weighed !== undefined && weighed.length > 0 && mid.length > 0 ? likeNotes(text, weighed, mid, map) : undefined
  let notes = 0
  const gap = (from: number, to: number, chars: number): string => {
    const r = toSource({ start: from, end: to, chars })
    const like = note?.(from, to)
    if (like !== undefined) notes++
    return gapMarker(r.start, r.end, r.chars, like)
  }
  const head = text.slice(0, headEnd)
  const tail = text.slice(tailStart)
  const headCut = head.length > 0 && !head.endsWith('\n')
  const tailCut = tailStart > 0 && tailStart < text.length && text.charCodeAt(tailStart - 1) !== 10
  // Line numbers of the omitted span's ends, from the (short) head and tail only.
  let headNewlines = 0
  for (let i = head.indexOf('\n'); i !== -1; i = head.indexOf('\n', i + 1)) headNewlines++
  const first = headNewlines + 1
  const last = Math.max(first, sc.lines - countLines(tail) + (tailCut ? 1 : 0))
  const omitted: LineRange[] = []
  const body: string[] = []
  let cursorLine = first
  let cursorOffset = headEnd
  for (const l of mid) {
    if (l.n > cursorLine) {
      const chars = l.start - cursorOffset
      omitted.push({ start: cursorLine, end: l.n - 1, chars })
      if (body.length > 0) body.push(gap(cursorLine, l.n - 1, chars), '\n')
    }
    const line = text.slice(l.start, l.end)
    const clipped = clipLine(line, profile.maxLineChars)
    if (clipped.length < line.length) omitted.push({ start: l.n, end: l.n, chars: line.length - safeEnd(line, clipped.length) })
    body.push(`${label(l.n)}: ${clipped}\n`)
    cursorLine = l.n + 1
    cursorOffset = nextStart(text, l.start)
  }
  if (tailStart > cursorOffset) {
    const chars = tailStart - cursorOffset
    omitted.push({ start: Math.min(cursorLine, last), end: last, chars })
    if (mid.length > 0) body.push(gap(Math.min(cursorLine, last), last, chars), '\n')
  }
  const merged = mergeRanges(omitted).map(toSource)
  const span = toSource({ start: first, end: last, chars: 0 })
  const inSpan = (map !== undefined ? map.salient : sc.salient.map((s) => s.line)).filter((n) => n >= span.start && n <= span.end)
  const marker = mainMarker(
    {
      from: span.start,
      to: span.end,
      lines: map !== undefined ? map.lines : sc.lines,
      chars: merged.reduce((sum, r) => sum + r.chars, 0),
      cutInFirst: headCut ? headEnd - (text.lastIndexOf('\n', headEnd - 1) + 1) + 1 : undefined,
      cutInLast: tailCut ? tailStart - (text.lastIndexOf('\n', tailStart - 1) + 1) : undefined,
    },
    inSpan.length,
    inSpan[0],
    mid.length,
  )
  const text2 = head + (headCut ? '\n' : '') + marker + '\n' + body.join('') + (tailCut ? '' : '') + tail
  return { text: text2, omitted: merged, notes }
}

/** Sorts and joins touching ranges (a clipped kept line next to an omitted run). */
export function mergeRanges(ranges: LineRange[]): LineRange[] {
  const sorted = ranges.slice().sort((a, b) => a.start - b.start)
  const out: LineRange[] = []
  for (const r of sorted) {
    const last = out[out.length - 1]
    if (last !== undefined && r.start <= last.end + 1) {
      last.end = Math.max(last.end, r.end)
      last.chars += r.chars
    } else out.push({ ...r })
  }
  return out
}
