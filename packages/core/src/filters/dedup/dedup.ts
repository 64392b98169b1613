/**
 * Duplicate and near-duplicate line runs, and blank-line runs: one linear pass each over the
 * lines (split on `\n`; a `\r` before it stays part of the line).
 */

import { afterLinePrefix } from '../../trim/shapes.js'

/** Options of {@link dedupNear}. */
export interface DedupOptions {
  /**
   * Shortest run of near-duplicate lines (same template once numbers, hex ids and timestamps are
   * masked) that is collapsed, 2..1000.
   * @default 4
   */
  minRun: number
}

/** Defaults of {@link DedupOptions}. */
export const DEFAULT_DEDUP: Readonly<DedupOptions> = Object.freeze({ minRun: 4 })

/** The lines of `text` and whether it ended with `\n`. */
function splitLines(text: string): { lines: string[]; trailing: boolean } {
  const trailing = text.endsWith('\n')
  const lines = text.split('\n')
  if (trailing) lines.pop()
  return { lines, trailing }
}

const join = (lines: string[], trailing: boolean): string => lines.join('\n') + (trailing ? '\n' : '')

/** Whether `text[from, to)` holds only blanks (spaces, tabs, a `\r`). */
function isBlankRange(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i)
    if (c !== 32 && c !== 9 && c !== 13) return false
  }
  return true
}

const isBlank = (line: string): boolean => isBlankRange(line, 0, line.length)

/** Appends ` (xN)` to a line, before a trailing `\r`. */
function counted(line: string, n: number): string {
  return line.endsWith('\r') ? `${line.slice(0, -1)} (x${n})\r` : `${line} (x${n})`
}

/** A merged text and, for each of its lines, the 1-based input line it begins at. */
export interface MergedLines {
  /** The merged text. */
  text: string
  /** For each line of `text` (index 0 = line 1), the 1-based input line it begins at; strictly ascending. */
  lineStarts: number[]
}

/**
 * Where each line of `text` starts, and where the text ends: line `i` (0-based) is
 * `text.slice(starts[i], starts[i + 1] - 1)`. A final `\n` ends the last line and opens none,
 * as {@link splitLines} reads it.
 */
function lineOffsets(text: string): readonly number[] {
  // (the merges run one after another on one text when the one before merged nothing: read it once)
  if (lastOffsets !== undefined && lastOffsets.text === text) return lastOffsets.starts
  const starts = [0]
  for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', nl + 1)) starts.push(nl + 1)
  if (starts[starts.length - 1] !== text.length) starts.push(text.length + 1)
  // (kept for the merges that run right after, in the same task: dropped at its end, so a long-lived
  // host holds no tool output here)
  if (lastOffsets === undefined) queueMicrotask(() => (lastOffsets = undefined))
  lastOffsets = { text, starts }
  return starts
}

/** The last text {@link lineOffsets} read in this task, with its offsets. */
let lastOffsets: { text: string; starts: readonly number[] } | undefined

/** The lines of a text as offsets into it, read without copying them (see {@link lineOffsets}). */
interface LineView {
  text: string
  /** `starts[i]` is line `i`'s first char, `starts[i + 1] - 1` its end (exclusive), for `i < count`. */
  starts: readonly number[]
  count: number
}

const lineStart = (v: LineView, i: number): number => v.starts[i]!
const lineEnd = (v: LineView, i: number): number => v.starts[i + 1]! - 1
const lineText = (v: LineView, i: number): string => v.text.slice(lineStart(v, i), lineEnd(v, i))

/**
 * The one loop behind the run-merging filters: `runEnd(view, i)` says where the run starting at
 * line `i` ends (exclusive), `render(line, count)` what a run of 2+ lines becomes (`undefined`:
 * its lines stay as they are). Returns the merged text with the input line each output line
 * begins at, or `undefined` when no run was merged. The lines are read as offsets into `text`
 * and only a merged run's first line is copied, so a text with nothing to merge costs one
 * newline scan and a compare of neighbouring lines.
 */
function mergeRuns(text: string, runEnd: (v: LineView, i: number) => number, render: (line: string, count: number) => string | undefined): MergedLines | undefined {
  if (text.length === 0) return undefined
  const starts = lineOffsets(text)
  const v: LineView = { text, starts, count: starts.length - 1 }
  // the runs merged: first line, end (exclusive), what they became
  const merges: { i: number; j: number; line: string }[] = []
  for (let i = 0; i < v.count; ) {
    const j = Math.max(i + 1, runEnd(v, i))
    const merged = j - i > 1 ? render(lineText(v, i), j - i) : undefined
    if (merged !== undefined) merges.push({ i, j, line: merged })
    i = j
  }
  if (merges.length === 0) return undefined
  // the lines between two runs are one slice of the text, joined to the runs' lines with `\n`
  const parts: string[] = []
  const lineStarts: number[] = []
  let next = 0
  const keep = (to: number): void => {
    if (to > next) parts.push(text.slice(lineStart(v, next), lineEnd(v, to - 1)))
    for (let k = next; k < to; k++) lineStarts.push(k + 1)
  }
  for (const m of merges) {
    keep(m.i)
    parts.push(m.line)
    lineStarts.push(m.i + 1)
    next = m.j
  }
  keep(v.count)
  return { text: parts.join('\n') + (text.endsWith('\n') ? '\n' : ''), lineStarts }
}

/**
 * Whether lines `i` and `j` are equal, compared in place: lengths first, then chars from the
 * end (two log lines of one length mostly share their timestamp's start and differ in the
 * counts and ids near their end).
 */
function equalLines(v: LineView, i: number, j: number): boolean {
  const a = lineStart(v, i)
  const b = lineStart(v, j)
  const len = lineEnd(v, i) - a
  if (lineEnd(v, j) - b !== len) return false
  for (let k = len - 1; k >= 0; k--) if (v.text.charCodeAt(a + k) !== v.text.charCodeAt(b + k)) return false
  return true
}

/** End of the run of lines equal to line `i`. */
function sameLines(v: LineView, i: number): number {
  let j = i + 1
  while (j < v.count && equalLines(v, i, j)) j++
  return j
}

/** End of the run of blank lines starting at line `i` (`i` itself when it is not blank). */
function blankLines(v: LineView, i: number): number {
  let j = i
  while (j < v.count && isBlankRange(v.text, lineStart(v, j), lineEnd(v, j))) j++
  return j
}

/**
 * Exact consecutive duplicate lines collapsed to one line followed by ` (xN)`, with the input
 * line each output line begins at. Blank lines are left to {@link collapseBlankRunsMapped}.
 * Returns `undefined` when nothing repeats.
 */
export function dedupExactMapped(text: string): MergedLines | undefined {
  return mergeRuns(text, sameLines, (line, n) => (isBlank(line) ? undefined : counted(line, n)))
}

/**
 * Exact consecutive duplicate lines collapsed to one line followed by ` (xN)`. Blank lines are
 * left to {@link collapseBlankRuns}. Returns `undefined` when nothing repeats.
 */
export function dedupExact(text: string): string | undefined {
  return dedupExactMapped(text)?.text
}

/** Runs of two or more blank lines collapsed to one empty line, with the input line each output line begins at. */
export function collapseBlankRunsMapped(text: string): MergedLines | undefined {
  return mergeRuns(text, blankLines, () => '')
}

/**
 * Runs of `minRun`+ (3 by default) blank lines replaced by one line that counts them,
 * `[12 blank lines]`, with the input line each output line begins at. Unlike
 * {@link collapseBlankRuns} the excerpt still says how many lines there were, so line numbers
 * read from it stay true. Returns `undefined` when there is no such run.
 */
export function countBlankRuns(text: string, minRun = 3): MergedLines | undefined {
  const min = Math.max(2, Math.floor(minRun))
  return mergeRuns(text, blankLines, (_, n) => (n >= min ? `[${n} blank lines]` : undefined))
}

/** Runs of two or more blank lines collapsed to one empty line. */
export function collapseBlankRuns(text: string): string | undefined {
  return collapseBlankRunsMapped(text)?.text
}

/** Longest block of lines {@link collapseCycles} looks for (a recursion's frames: visitor, accept, scan, ...). */
export const MAX_CYCLE_PERIOD = 32

/** Fewest repeated lines {@link collapseCycles} merges into one. */
const MIN_CYCLE_LINES = 4

/** Chars compared per input char at most while looking for cycles: bounded work on any input. */
const CYCLE_WORK = 8

/** Class compares per line at most while looking for cycles (near misses on every line: the search stops there). */
const CYCLE_STEPS = 64

/**
 * Whether `text[from, end)` is a merged run's line from `dedupExactMapped`, `x (x3)` (` (x` and 1 to
 * 12 digits and `)` at its end, a `\r` after them allowed): a block holding one is not merged again.
 * Read from the end, char by char (called on every line ending in `)`).
 */
function isCountedLine(text: string, from: number, end: number): boolean {
  let e = end
  if (e > from && text.charCodeAt(e - 1) === 13) e--
  if (e - from < 5 || text.charCodeAt(e - 1) !== 41) return false
  let d = e - 2
  for (const stop = Math.max(from, e - 13); d >= stop && isDigit(text.charCodeAt(d)); ) d--
  return d < e - 2 && d - 2 >= from && text.charCodeAt(d) === 120 && text.charCodeAt(d - 1) === 40 && text.charCodeAt(d - 2) === 32
}

/** FNV-1a over `text[from, to)`'s UTF-16 units. */
function lineHash(text: string, from: number, to: number): number {
  let h = 0x811c9dc5
  for (let i = from; i < to; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  return h
}

/**
 * Blocks of 2 to {@link MAX_CYCLE_PERIOD} lines repeated right after themselves (a recursion in
 * a stack trace: the same six frames 40 times; a retry loop's same two lines) kept once, their
 * repeats merged into one line that counts them: `[18 lines: the 6 lines above, 3 more times]`.
 * Exact repeats only, so nothing is lost: the count is there and every line stays one
 * `fetch_result` away. The smallest period is taken; a block of one line repeated is
 * {@link dedupExactMapped}'s, and a block holding its `x (x2)` line is left as it is (its count
 * would be of merged lines). A block is read from a line with text only. One pass over the lines:
 * a line that shares a signature with a line within a period of it gets a class (the first line
 * read with its text, found by a hash and one full compare), and the periods tried at a line are
 * its distances to the lines above with its class, up to {@link MAX_CYCLE_PERIOD}; blocks are
 * compared class by class. Caps, each stopping the search (a merge missed, never a wrong one):
 * full compares and hash-bucket steps at {@link CYCLE_WORK} times the input's chars (hashes made
 * to collide), class compares at {@link CYCLE_STEPS} a line. `undefined` when nothing repeats.
 */
export function collapseCycles(text: string, maxPeriod = MAX_CYCLE_PERIOD): MergedLines | undefined {
  return collapseCyclesHashed(text, maxPeriod, lineHash)
}

/** {@link collapseCycles} with the line hash given (tests: a hash every line shares, to reach the work cap). */
export function collapseCyclesHashed(text: string, maxPeriod: number, hash: (text: string, from: number, to: number) => number): MergedLines | undefined {
  if (text.length === 0) return undefined
  const most = Math.min(MAX_CYCLE_PERIOD, Math.max(2, Math.floor(maxPeriod)))
  let work = CYCLE_WORK * text.length
  let period = 0
  // lines before this one were merged: a block above a line never reaches into a merged run
  let free = 0
  // Lines are compared by class: each line's class is the first line read with its text (1 + its
  // index), found through a hash of the line and one full compare per line. (A line whose compare
  // the work cap stopped gets a class of its own: a merge missed, never a wrong one.)
  const classify = (v: LineView): Int32Array | undefined => {
    const n = v.count
    const t = v.text
    // A line can be in a block only if a line within a period above or below it has its text:
    // first told by a signature (its length, its last 12 chars and 4 others), compared over the
    // lines up to a period above; only lines that share one with such a line are read whole.
    const sig = new Int32Array(n)
    for (let i = 0; i < n; i++) {
      const a = lineStart(v, i)
      const len = lineEnd(v, i) - a
      const e = a + len
      let h = len
      // (its last 12 chars, where a log line's counts and a frame's line number are, and 4 spread over it)
      for (let j = len > 12 ? e - 12 : a; j < e; j++) h = Math.imul(h ^ t.charCodeAt(j), 0x01000193)
      if (len > 12) for (let k = 1; k <= 4; k++) h = Math.imul(h ^ t.charCodeAt(a + ((len * k) >> 3)), 0x01000193)
      sig[i] = h
    }
    // The nearest line above with a line's signature, within a period: lines chained by their
    // signature's low 8 bits, newest first (a line's chain holds the lines of a period above it that
    // share those bits: few, where comparing with each of the 32 lines above cost 32 reads a line).
    const read = new Uint8Array(n)
    const head = new Int32Array(256).fill(-1)
    const chain = new Int32Array(n)
    for (let i = 0; i < n; i++) {
      const s = sig[i]!
      const b = s & 255
      for (let d = head[b]!, end = i - most; d >= 0 && d >= end; d = chain[d]!) {
        if (sig[d] === s) {
          read[i] = 1
          read[d] = 1
          break
        }
      }
      chain[i] = head[b]!
      head[b] = i
    }
    // (a merge is a block of k >= 2 lines and at least MIN_CYCLE_LINES more, whole repeats of it:
    // 6 lines or more in a row, each with its text a period away; without such a row nothing
    // repeats, and no line is read whole)
    let row = 0
    for (let i = 0; i < n && row < MIN_CYCLE_LINES + 2; i++) row = read[i] === 1 ? row + 1 : 0
    if (row < MIN_CYCLE_LINES + 2) return undefined
    const classes = new Int32Array(n)
    const byHash = new Map<number, number | number[]>()
    for (let i = 0; i < n; i++) {
      if (read[i] === 0) {
        classes[i] = i + 1
        continue
      }
      const from = lineStart(v, i)
      const len = lineEnd(v, i) - from
      const h = hash(t, from, from + len)
      const firsts = byHash.get(h)
      let c = i + 1
      for (const f of firsts === undefined ? [] : typeof firsts === 'number' ? [firsts] : firsts) {
        if (work <= 0) break
        work--
        if (lineEnd(v, f) - lineStart(v, f) !== len) continue
        work -= len + 1
        if (equalLines(v, f, i)) {
          c = f + 1
          break
        }
      }
      if (c === i + 1) byHash.set(h, firsts === undefined ? i : typeof firsts === 'number' ? [firsts, i] : (firsts.push(i), firsts))
      classes[i] = c
    }
    return classes
  }
  // Each line's class (none, and nothing to merge, without such a row), and whether it is
  // blank or a merged run's `x (xN)` line.
  const starts = lineOffsets(text)
  const view: LineView = { text, starts, count: starts.length - 1 }
  const cls = classify(view)
  if (cls === undefined) return undefined
  const skip = new Uint8Array(view.count)
  for (let t = 0; t < view.count; t++) {
    const from = lineStart(view, t)
    const end = lineEnd(view, t)
    if (isBlankRange(text, from, end)) skip[t] = 1
    else if (isCountedLine(text, from, end)) skip[t] = 2
  }
  // the line above each with its class (-1: none), and each class's last line read so far
  const above = new Int32Array(view.count)
  const lastOf = new Int32Array(view.count + 1).fill(-1)
  // Class compares left: a text made of near-blocks (every candidate a near miss) costs at most
  // CYCLE_STEPS per line, then the search stops (a merge missed, never a wrong one).
  let steps = CYCLE_STEPS * view.count
  const runEnd = (v: LineView, i: number): number => {
    period = 0
    const c = cls[i]!
    above[i] = lastOf[c]!
    lastOf[c] = i
    // (a block is read from a line with text: a block of text and blank lines is found from its
    // first line with text, and a run of blank lines costs nothing here)
    if (skip[i] !== 0) return i + 1
    // The periods tried: the distances to the lines above with this line's text, nearest first.
    for (let p = above[i]!; p >= free && i - p <= most && steps > 0; p = above[p]!) {
      const k = i - p
      // (a line repeated is dedupExactMapped's)
      if (k < 2 || i + k > v.count) continue
      // the k lines above line i, repeated from it, none a merged run's line (its count would not be the original's)
      let m = 1
      while (m < k && cls[p + m] === cls[i + m] && skip[p + m] !== 2) m++
      steps -= m
      if (m < k) continue
      // (not a block of one line repeated)
      let varied = false
      for (let t = 1; t < k && !varied; t++) varied = cls[p + t] !== c
      steps -= k
      if (!varied) continue
      let j = i + k
      for (; j + k <= v.count; j += k) {
        let b = 0
        while (b < k && cls[p + b] === cls[j + b]) b++
        if (b < k) break
      }
      if (j - i < MIN_CYCLE_LINES) continue
      period = k
      free = j
      return j
    }
    return i + 1
  }
  return mergeRuns(
    text,
    (v, i) => runEnd(v, i),
    (line, count) => {
      const times = count / period
      // (after the repeated line's own prefix, a CI timestamp and indentation: inside a trace it reads as one of its lines)
      let at = afterLinePrefix(line, 0, line.length)
      for (const from = at; at < line.length && at - from < 64 && (line.charCodeAt(at) === 32 || line.charCodeAt(at) === 9); ) at++
      return `${line.slice(0, at)}[${count} lines: the ${period} lines above, ${times} more time${times === 1 ? '' : 's'}]${line.endsWith('\r') ? '\r' : ''}`
    },
  )
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57
const isHexLetter = (c: number): boolean => (c >= 97 && c <= 102) || (c >= 65 && c <= 70)
const isWordChar = (c: number): boolean => isDigit(c) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95

/**
 * A line with its variable parts masked: every run of digits (and the hex letters, `.`, `:` and
 * `-` glued to them: timestamps, versions, ids) becomes `#`, and a word of 8+ hex chars holding a
 * digit (commit and object ids) becomes `#`. Linear, no regex.
 */
export function maskLine(line: string): string {
  let out = ''
  let i = 0
  while (i < line.length) {
    const c = line.charCodeAt(i)
    if (isWordChar(c) && (i === 0 || !isWordChar(line.charCodeAt(i - 1)))) {
      // a whole word: masked when it is numeric or a hex id
      let j = i
      let digits = 0
      let hex = true
      while (j < line.length && isWordChar(line.charCodeAt(j))) {
        const d = line.charCodeAt(j)
        if (isDigit(d)) digits++
        else if (!isHexLetter(d)) hex = false
        j++
      }
      if (digits > 0 && (digits === j - i || (hex && j - i >= 8))) {
        // swallow `.`/`:`/`-`/`T` joined numeric parts: 2024-01-02T10:11:12.123
        while (j < line.length) {
          const sep = line.charCodeAt(j)
          if ((sep === 46 || sep === 58 || sep === 45 || sep === 84) && isDigit(line.charCodeAt(j + 1))) {
            j++
            while (j < line.length && (isDigit(line.charCodeAt(j)) || isHexLetter(line.charCodeAt(j)))) j++
          } else break
        }
        out += '#'
      } else if (digits > 0) {
        // a word with digits inside (worker12, e4f): digits masked, letters kept
        for (let k = i; k < j; k++) {
          const d = line.charCodeAt(k)
          if (isDigit(d)) {
            if (!isDigit(line.charCodeAt(k - 1)) || k === i) out += '#'
          } else out += line[k]
        }
      } else out += line.slice(i, j)
      i = j
      continue
    }
    out += line[i]
    i++
  }
  return out
}

/**
 * Runs of `minRun`+ consecutive lines that differ only in numbers, ids or timestamps collapsed
 * to their first line, a count with the template, and their last line. Exact repeats are
 * counted the same way. Returns `undefined` when there is no such run.
 */
export function dedupNear(text: string, options: Partial<DedupOptions> = {}): string | undefined {
  const minRun = Math.min(1000, Math.max(2, Math.floor(options.minRun ?? DEFAULT_DEDUP.minRun)))
  if (text.length === 0) return undefined
  const { lines, trailing } = splitLines(text)
  const out: string[] = []
  let changed = false
  let i = 0
  let template = lines.length > 0 ? maskLine(lines[0]!) : ''
  while (i < lines.length) {
    let j = i + 1
    let next = ''
    while (j < lines.length) {
      next = maskLine(lines[j]!)
      if (next !== template) break
      j++
    }
    const run = j - i
    if (run >= minRun && !isBlank(lines[i]!)) {
      out.push(lines[i]!, `[... ${run - 2} similar lines: ${template.endsWith('\r') ? template.slice(0, -1) : template} ...]`, lines[j - 1]!)
      changed = true
    } else for (let k = i; k < j; k++) out.push(lines[k]!)
    i = j
    template = next
  }
  return changed ? join(out, trailing) : undefined
}
