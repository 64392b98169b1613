/**
 * Salient lines: the lines a reader of a long tool output looks for first (errors, failures,
 * exceptions, tracebacks, panics, denials, assertions, non-zero exit codes, warnings).
 * Found in one linear pass with a literal alternation (no backtracking risk), plus a runner's
 * shape at the line start for failure lines without a keyword (`shapes.ts`).
 */
import { isCompactProgress, isCrossMark, shapeScore } from './shapes.js'
import { endsWithSuccess, startsWithSuccess } from './verdict.js'

/** A salient line found by {@link scanLines}. `start`/`end` are char offsets (end excludes `\n`). */
export interface SalientLine {
  line: number
  start: number
  end: number
  /**
   * 1 (warning) .. 4: 3 for error, failure, exception, traceback, panic, fatal words, one more when
   * the word reads as a verdict (line start, capitals, `Error:`, `TypeError`).
   */
  score: number
  /**
   * Set by {@link weighSalient}: an id of the line's template (numbers, hex, quoted strings and
   * paths masked) among this text's salient lines; lines with the same id look alike.
   */
  template?: number
  /** Set by `appFrames`: a trace's own project frame added as a candidate (shown alone). */
  frame?: boolean
}

/** Result of one pass over a text. */
export interface LineScan {
  /** Line count, as {@link countLines}. */
  lines: number
  /** Salient lines in order, at most `limit` of them. */
  salient: SalientLine[]
  /** All salient lines, including those past `limit`. */
  salientTotal: number
}

/** The keywords, in priority order (at one offset the first that matches wins). */
const WORDS = [
  'error', 'fail', 'exception', 'traceback', 'panic', 'fatal', 'denied', 'assert', 'exit code', 'exit status', 'exited with',
  'warn', 'not ok', 'err!', 'segmentation fault', 'segfault', 'abort', 'cannot', "can't", 'could not', "couldn't", 'unable to',
  'no such file', 'not found', 'no space left', 'refused', 'timed out', 'killed', 'undefined reference', 'unresolved',
] as const

/**
 * Plain literals only, so irregexp runs it in linear time; grouped by first letter
 * (`e(?:rror|xception|...)`), which matches the same words at the same offsets as the flat
 * alternation (order kept within each group) and scans about 15% faster.
 */
const KEYWORDS = new RegExp(
  [...new Set(WORDS.map((w) => w[0]!))]
    .map((c) => `${c}(?:${WORDS.filter((w) => w[0] === c).map((w) => w.slice(1).replace(/[!.]/g, '\\$&')).join('|')})`)
    .join('|'),
  'gi',
)

// Letters that may follow a keyword and keep it a word about a problem ("errors", "failed");
// any other letter means an identifier such as ErrorHandler or maven-failsafe-plugin.
const SUFFIXES: Record<string, readonly string[]> = {
  error: ['', 's', 'ed'],
  fail: ['', 's', 'ed', 'ure', 'ures', 'ing'],
  exception: ['', 's'],
  traceback: [''],
  panic: ['', 's', 'ked'],
  fatal: ['', 'ly'],
  denied: [''],
  assert: ['', 's', 'ed', 'ion', 'ions', 'ionerror'],
  warn: ['', 's', 'ing', 'ings'],
  abort: ['', 's', 'ed'],
}

const WEIGHT: Record<string, number> = {
  error: 3, fail: 3, exception: 3, traceback: 3, panic: 3, fatal: 3, 'segmentation fault': 3, 'err!': 3,
  denied: 2, assert: 2, 'not ok': 2, abort: 2, 'exit code': 2, 'exit status': 2, 'exited with': 2,
  segfault: 3, cannot: 2, "can't": 2, 'could not': 2, "couldn't": 2, 'unable to': 2, 'no such file': 2,
  'not found': 2, 'no space left': 3, refused: 2, 'timed out': 2, killed: 2, 'undefined reference': 3,
  unresolved: 2,
  warn: 1,
}

const GLUED = new Set(['error', 'exception', 'fail', 'assert'])

const isLetter = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90)
const isDigit = (c: number): boolean => c >= 48 && c <= 57

const STRONG_CAPS = /^(?:ERROR|ERR!|FAIL|FAILED|FAILURE|FAILURES|FATAL|PANIC|EXCEPTION|TRACEBACK|DENIED|ABORT|ABORTED)$/

/**
 * Score of one keyword hit at `at` (`low` is the lower-cased line, `orig` the line as written),
 * 0 when it is noise. A hit weighs more when it reads as a verdict rather than prose: at the start
 * of the line, in capitals, as an exception class (`TypeError`), or followed by a colon.
 */
function hitScore(low: string, orig: string, at: number, word: string, atStart: boolean): number {
  let end = at + word.length
  const suffixes = SUFFIXES[word]
  if (suffixes !== undefined) {
    let s = end
    while (s < low.length && isLetter(low.charCodeAt(s))) s++
    if (!suffixes.includes(low.slice(end, s))) return 0
    end = s
    if (low.charCodeAt(end) === 95 /* _ */) return 0 // error_prone, fail_fast: identifiers
    if (word === 'error' && low.charCodeAt(at - 1) === 119 /* w */ && low.charCodeAt(at - 2) === 45) return 0 // -Werror
  }
  // Only error/exception/fail/assert may end a longer word (TypeError, AssertionFailedError).
  if (at > 0 && isLetter(low.charCodeAt(at - 1)) && !GLUED.has(word)) return 0
  // A compiler diagnostic with a location (`src/a.hs:94:10: Warning:`, `a.c:3: warning:`) is
  // about the code being built, not a log level: it weighs as a failure line.
  const located = afterLocation(low, at)
  const base = word === 'warn' && (located || codeFollows(orig, end)) ? 2 : WEIGHT[word] ?? 1
  if (word === 'exit code' || word === 'exit status' || word === 'exited with') {
    // "exit code 0" / "exited with code 0" is success.
    let s = end
    while (s < low.length && !isDigit(low.charCodeAt(s)) && s - end < 8) s++
    // No code nearby ("exited with exit code 0" is judged at its second phrase) or code 0.
    if (!isDigit(low.charCodeAt(s))) return 0
    if (low.charCodeAt(s) === 48 && !isDigit(low.charCodeAt(s + 1))) return 0
    return base
  }
  // Zero counts are success too: "0 errors", "Failures: 0", "failed=0".
  let s = end
  while (s < low.length && (low[s] === ':' || low[s] === '=' || low[s] === ' ')) s++
  if (low.charCodeAt(s) === 48 && !isDigit(low.charCodeAt(s + 1)) && low[s + 1] !== '.') return 0
  if (at >= 2 && low.charCodeAt(at - 1) === 32 && low.charCodeAt(at - 2) === 48 && !isDigit(low.charCodeAt(at - 3))) return 0
  if (base < 2) return base
  const written = orig.slice(at, end)
  const verdict =
    atStart ||
    STRONG_CAPS.test(written) ||
    low.charCodeAt(end) === 58 /* : */ ||
    low.charCodeAt(end) === 93 /* ] */ ||
    low.charCodeAt(end) === 91 /* [ */ ||
    (word !== 'warn' && (located || codeFollows(orig, end))) ||
    (at > 0 && isLetter(low.charCodeAt(at - 1)) && (word === 'error' || word === 'exception') && low.charCodeAt(end) === 58)
  if (verdict) return base + 1
  // A mere mention ("the error message", "Control.Exception") weighs less than a verdict.
  return word === 'error' || word === 'exception' ? base - 1 : base
}

/**
 * True when the hit at `at` of `low` follows a source location, as a compiler's or a linter's
 * diagnostic does: `a.c:3:` or `a.c:3:5:` (gcc, clang, GHC, mypy, javac), `a.ts(12,5):` or
 * `x.c(12):` (tsc, MSBuild, MSVC), `a.ts:12:5 -` (tsc's pretty output), or a `12:5` column pair
 * after a space and before two spaces (ESLint's and stylelint's stylish format). A clock time
 * (`12:00:01 warn`) is none of these. Reads back from `at` only as far as the location goes.
 */
export function afterLocation(low: string, at: number): boolean {
  let i = at - 1
  while (i >= 0 && low.charCodeAt(i) === 32) i--
  const spaces = at - 1 - i
  // tsc --pretty: `a.ts:12:5 - error`
  const dash = spaces > 0 && low.charCodeAt(i) === 45 && low.charCodeAt(i - 1) === 32
  if (dash) {
    i -= 2
    while (i >= 0 && low.charCodeAt(i) === 32) i--
  }
  const colon = !dash && low.charCodeAt(i) === 58
  if (colon) i--
  if (colon && low.charCodeAt(i) === 41 /* ) */) {
    // (12,5): or (12):
    let j = i - 1
    while (j >= 0 && i - j < 16 && (isDigit(low.charCodeAt(j)) || low.charCodeAt(j) === 44)) j--
    return low.charCodeAt(j) === 40 && isDigit(low.charCodeAt(j + 1)) && j > 0 && low.charCodeAt(j - 1) !== 32
  }
  const end = i
  while (i >= 0 && isDigit(low.charCodeAt(i))) i--
  if (i === end || low.charCodeAt(i) !== 58) return false
  if (colon || dash) return i > 0
  // ESLint: `  12:5  error  'x' is not defined  no-undef`
  if (spaces < 2) return false
  const col = i
  i--
  while (i >= 0 && isDigit(low.charCodeAt(i))) i--
  return i < col - 1 && (low.charCodeAt(i) === 32 || low.charCodeAt(i) === 9)
}

/**
 * True when a diagnostic's code follows the word ending at `end` of `orig`: a space, 1-6 capitals,
 * 2-6 digits and a colon (`error TS2322:`, `error CS0103:`, `warning C4996:`, `error LNK2019:`).
 */
function codeFollows(orig: string, end: number): boolean {
  if (orig.charCodeAt(end) !== 32) return false
  let i = end + 1
  while (i < orig.length && i - end <= 6 && orig.charCodeAt(i) >= 65 && orig.charCodeAt(i) <= 90) i++
  const letters = i - end - 1
  if (letters < 1 || letters > 6) return false
  const d = i
  while (i < orig.length && i - d <= 6 && isDigit(orig.charCodeAt(i))) i++
  return i - d >= 2 && i - d <= 6 && orig.charCodeAt(i) === 58
}

/** Offset of the first meaningful char: after indentation, ANSI codes, `[`, `>`, `*`, `-`, `E ` etc. */
function contentStart(line: string): number {
  return contentStartIn(line, 0, line.length)
}

/** {@link contentStart} of `text[from, to)`, as an offset from `from`, reading it in place (no slice). */
function contentStartIn(text: string, from: number, to: number): number {
  let i = from
  while (i < to) {
    const c = text.charCodeAt(i)
    if (c === 27) {
      // ESC [ ... final byte
      let j = i + 1
      if (j < to && text.charCodeAt(j) === 91) {
        j++
        while (j < to && text.charCodeAt(j) < 64) j++
      }
      i = j + 1
      continue
    }
    if (c === 32 || c === 9 || c === 91 || c === 62 || c === 42 || c === 45 || c === 35 || c === 33 || c === 61) {
      i++
      continue
    }
    break
  }
  return Math.min(i, to) - from
}

const LINE_PROBE = 600
const LOCAL = new RegExp(KEYWORDS.source, 'g')

/**
 * Salience of one line (0 = not salient). Only the first 600 chars are read. With
 * `fromLineStart` false, `line` is a window from inside a line and no hit counts as its start.
 */
export function lineSalience(line: string, fromLineStart = true): number {
  const probe = line.length > LINE_PROBE ? line.slice(0, LINE_PROBE) : line
  const low = probe.toLowerCase()
  const lineStart = fromLineStart ? contentStart(probe) : -1
  LOCAL.lastIndex = 0
  let best = 0
  let m: RegExpExecArray | null
  while ((m = LOCAL.exec(low)) !== null) {
    const s = quoted(hitScore(low, probe, m.index, m[0], m.index <= lineStart), probe, m.index, 0)
    if (s > best) best = s
    if (best === 4) break
  }
  if (best > 0 && (endsWithSuccess(probe, 0, probe.length) || startsWithSuccess(probe, 0, probe.length))) best = 0
  if (fromLineStart && best < 3 && line.length > 0 && mayHaveShape(line, 0)) best = Math.max(best, shapeScore(line, 0, line.length))
  return best
}

/**
 * The rules that make `line` salient: each keyword with a non-zero score (`error`, `fail`, ...),
 * and `location` when a warning counts as a compiler diagnostic. For the benchmark's per-source
 * report (which rule helps on which logs); not used by the trimmer.
 */
export function salienceRules(line: string): string[] {
  const probe = line.length > LINE_PROBE ? line.slice(0, LINE_PROBE) : line
  const low = probe.toLowerCase()
  const lineStart = contentStart(probe)
  const out = new Set<string>()
  const re = new RegExp(KEYWORDS.source, 'g')
  let m: RegExpExecArray | null
  while ((m = re.exec(low)) !== null) {
    if (quoted(hitScore(low, probe, m.index, m[0], m.index <= lineStart), probe, m.index, 0) > 0) {
      out.add(m[0])
      if (m[0] === 'warn' && afterLocation(low, m.index)) out.add('location')
    }
  }
  if (shapeScore(line, 0, line.length) > 0) out.add('shape')
  return [...out]
}

/** Chars before a hit read (for its location, {@link afterLocation}, and its context). */
const LOCATION_PROBE = 24

/** Score of the hit `word` at offset `at` of `text`, reading only a small window around it. */
function scoreAt(text: string, at: number, word: string, start: number, end: number): number {
  const from = Math.max(start, at - LOCATION_PROBE)
  const orig = text.slice(from, Math.min(end, at + word.length + 24))
  const atStart = at - start <= 64 && contentStartIn(text, start, at + 1) >= at - start
  return quoted(hitScore(orig.toLowerCase(), orig, at - from, word.toLowerCase(), atStart), text, at, start)
}

/** `score` less one when the hit at `at` is inside a code span (see {@link inCodeSpan}): quoted code is a mention. */
function quoted(score: number, text: string, at: number, start: number): number {
  if (score === 0) return 0
  if (inUrl(text, at, start)) return 0
  return inCodeSpan(text, at, start) ? score - 1 : score
}

/** Chars before a hit searched for the `://` of the URL it may sit in. */
const URL_PROBE = 200

/**
 * True when the hit at `at` sits inside a URL (`https://repo/org/fail-fast/1.0/fail-fast-1.0.jar`,
 * `https://host/exception-handler.jar`): the token around it, back to a blank, a quote or a
 * bracket (at most {@link URL_PROBE} chars), holds `://`. A URL's words are an address, not a
 * verdict; a keyword before or after the URL is judged as usual.
 */
export function inUrl(text: string, at: number, start: number): boolean {
  const stop = Math.max(start, at - URL_PROBE)
  for (let i = at - 1; i > stop + 1; i--) {
    const c = text.charCodeAt(i)
    if (c === 32 || c === 9 || c === 34 || c === 39 || c === 40 || c === 60 || c === 91) return false
    if (c === 47 && text.charCodeAt(i - 1) === 47 && text.charCodeAt(i - 2) === 58) return true
  }
  return false
}

/** Chars before a hit searched for the backtick that opens a code span. */
const CODE_SPAN_PROBE = 200

/**
 * True when the hit at `at` sits inside a backtick code span of its line (an odd number of
 * backticks between the line start and it, reading at most {@link CODE_SPAN_PROBE} chars back):
 * `-D warnings`, `#[allow(clippy::unwrap_used)]`, `ErrorKind::NotFound` are code quoted by a
 * compiler or a linter, not a verdict.
 */
export function inCodeSpan(text: string, at: number, start: number): boolean {
  let ticks = 0
  for (let i = Math.max(start, at - CODE_SPAN_PROBE); i < at; i++) if (text.charCodeAt(i) === 96) ticks++
  return (ticks & 1) === 1
}

/** Per first char (< 128): 1 when a line starting with it may have a runner shape, 2 for a digit. */
const SHAPE_FIRST = new Uint8Array(128)
// `.` and `/`: a diagnostic's `./a.go:12:5: ` or `/src/a.c:3:1: ` location (`shapes.ts`); a
// relative path that starts with a letter is not looked for: every line starting with a letter
// would pay for the probe (+6% on 7 MB of CI logs)
for (const ch of '_Ee-*rc \t{./') SHAPE_FIRST[ch.charCodeAt(0)] = 1
for (let d = 48; d <= 57; d++) SHAPE_FIRST[d] = 2

/**
 * True when the line at `start` may have a runner shape ({@link shapeScore}): it starts with one
 * of `_ E e ● - * r c { . /`, a cross mark (`× ✕ ✖ ✗ ✘ ❌ ⨯`), a private-use glyph (Swift Testing's),
 * indentation, a GitHub Actions timestamp, a compact reporter's `00:01 +` or `1) `. Most lines fail these
 * char-code tests and cost nothing more.
 */
function mayHaveShape(text: string, start: number): boolean {
  const c = text.charCodeAt(start)
  if (c >= 128) return c === 0x25cf || isCrossMark(c) || (c >= 0xdb80 && c <= 0xdbff)
  const k = SHAPE_FIRST[c]
  if (k !== 2) return k === 1
  // a digit: `2024-01-02T...` (a timestamp), `00:01 +3 -1: ` (a compact reporter's progress) or `12) ` (a numbered failure)
  if (text.charCodeAt(start + 4) === 45) return text.charCodeAt(start + 10) === 84
  if (text.charCodeAt(start + 2) === 58) return isCompactProgress(text, start)
  for (let i = start + 1; i < start + 5; i++) if (text.charCodeAt(i) === 41) return true
  return false
}

/**
 * One pass over `text`: counts lines and, when `withSalient`, finds salient lines (keeping the
 * first `limit`). Cost: one keyword search plus one newline scan, both linear; each line is
 * judged on its keyword hits only (the first 600 chars' worth), never re-read whole, and on its
 * first char (a runner's shape, see `shapes.ts`, is read only when that char may start one).
 */
export function scanLines(text: string, withSalient: boolean, limit = 10_000): LineScan {
  const salient: SalientLine[] = []
  let salientTotal = 0
  const n = text.length
  if (!withSalient) {
    let lines = 0
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', nl + 1)) lines++
    return { lines: n > 0 && text.charCodeAt(n - 1) !== 10 ? lines + 1 : lines, salient, salientTotal }
  }
  const re = new RegExp(KEYWORDS.source, 'gi')
  let m: RegExpExecArray | null = re.exec(text)
  let line = 0
  let start = 0
  const add = (start: number, end: number, score: number): void => {
    salientTotal++
    if (salient.length < limit) salient.push({ line, start, end, score })
  }
  /** End of the line `[start, lineEnd)` without its `\r`. */
  const endOf = (start: number, lineEnd: number): number => (lineEnd > start && text.charCodeAt(lineEnd - 1) === 13 ? lineEnd - 1 : lineEnd)
  while (start < n) {
    // Lines before the next keyword hit: a newline search and a first-char test each.
    const hitAt = m === null ? n : m.index
    let nl = text.indexOf('\n', start)
    let lineEnd = nl === -1 ? n : nl
    while (lineEnd < hitAt) {
      line++
      if (mayHaveShape(text, start)) {
        const end = endOf(start, lineEnd)
        const score = end > start ? shapeScore(text, start, end) : 0
        if (score > 0) add(start, end, score)
      }
      start = lineEnd + 1
      if (start >= n) break
      nl = text.indexOf('\n', start)
      lineEnd = nl === -1 ? n : nl
    }
    if (start >= n) break
    // The line holding the hit: every hit of it (up to a 4, the top score), then its shape.
    line++
    const end = endOf(start, lineEnd)
    let score = 0
    if (m !== null && m.index < end) {
      score = scoreAt(text, m.index, m[0], start, end)
      let hits = 1
      while (score < 4 && hits < 16 && (m = re.exec(text)) !== null && m.index < end) {
        score = Math.max(score, scoreAt(text, m.index, m[0], start, end))
        hits++
      }
    }
    if (m !== null && m.index <= lineEnd) {
      re.lastIndex = lineEnd + 1
      m = lineEnd < n ? re.exec(text) : null
    }
    if (score > 0 && (endsWithSuccess(text, start, end) || startsWithSuccess(text, start, end))) score = 0
    if (score < 3 && end > start && mayHaveShape(text, start)) score = Math.max(score, shapeScore(text, start, end))
    if (score > 0) add(start, end, score)
    start = lineEnd + 1
  }
  return { lines: line, salient, salientTotal }
}
