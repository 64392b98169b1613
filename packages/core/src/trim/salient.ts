/**
 * Salient lines: the lines a reader of a long tool output looks for first (errors, failures,
 * exceptions, tracebacks, panics, denials, assertions, non-zero exit codes, warnings).
 * Found in one linear pass of a literal scanner (`scan/literals.ts`; no backtracking risk), plus
 * a runner's shape at the line start for failure lines without a keyword (`shapes.ts`).
 */
import { afterLocation, hitScore, KEYWORDS, WORDS } from './keywords.js'
import { compileLiterals, literalCursor } from '../scan/literals.js'
import { isDigit, isUpper } from './chars.js'
import { runnerShape } from './runners.js'
import { JSON_FAIL, JSON_PASS, LinePrefixReader, QUIET_BLOCK, RED_SCORE, afterLinePrefix, isBarePrefix, labelKinds, isCompactProgress, isCrossMark, lineShape, shapeScore, trimmedEnd } from './shapes.js'
import { demoteSourceListings } from './listing.js'
import { demoteBeforeReport, demoteRecapped, mayEndOrReport, demoteUncaptured, goJsonTest, isJestSuite, goPassedBlockStart, isJestRecap, passedBlockStart, surefirePass } from './passing.js'
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
  /**
   * Set by {@link weighSalient} on a failing test's lines: an id of the line's failure, finer than
   * {@link template}. A failing test's header or verdict is one of its own (`--- FAIL: TestX`,
   * `test_x_2 FAILED`); a line under it (its trace, its exception) is its template within that
   * test. Unset elsewhere (the template stands for it). Negative on a test's own header or
   * verdict, 0 or more on the lines under one. The picker's diversity rule shows one line of each
   * template and each test's own line first, then one of each failure, then the repeats.
   */
  instance?: number
  /** Set by `appFrames`: a trace's own project frame added as a candidate (shown alone). */
  frame?: boolean
  /**
   * Set by {@link weighSalient} where its template walk gave it: a number standing for the line's
   * own template (`weigh.ts` ownTemplateKey), which the fitter's count notes group by ("N of them
   * like line L"). Unset: the fitter computes it.
   */
  own?: number
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

/**
 * git's advice (`hint: ...`, after a line prefix): what `git init` prints in every checkout of a CI
 * job ("which will suppress this warning"), or how to go on after a rejected push or a stopped
 * rebase, under the `error:` line that says what failed. A warning's word there (a score under 3)
 * is not a failure's; a failure word (another tool's `hint: error: ...`) keeps its score.
 */
const isGitHint = (text: string, from: number): boolean => text.startsWith('hint: ', from)

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
  if (best > 0 && (endsWithSuccess(probe, 0, probe.length) || startsWithSuccess(probe, 0, probe.length) || (fromLineStart && best < 3 && isGitHint(probe, afterLinePrefix(probe, 0, probe.length))))) best = 0
  if (fromLineStart && best < 3 && line.length > 0 && mayHaveShape(line, 0, line.length)) best = Math.max(best, shapeScore(line, 0, line.length))
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
for (const ch of '_Ee-=*#:rc \t{./\x1b') SHAPE_FIRST[ch.charCodeAt(0)] = 1
for (let d = 48; d <= 57; d++) SHAPE_FIRST[d] = 2

/**
 * True when the content at `start` may have a runner shape ({@link shapeScore}): it starts with one
 * of `_ E e ● - = * # : r c { . /`, an escape (a colour code), a cross mark (`× ✕ ✖ ✗ ✘ ❌ ⨯`), a private-use glyph (Swift Testing's),
 * indentation, a compact reporter's `00:01 +` or `1) `. Most lines fail these char-code tests
 * and cost nothing more.
 */
function contentMayHaveShape(text: string, start: number): boolean {
  const c = text.charCodeAt(start)
  if (c >= 128) return c === 0x25cf || isCrossMark(c) || (c >= 0xdb80 && c <= 0xdbff)
  const k = SHAPE_FIRST[c]
  if (k !== 2) return k === 1
  // a digit: `00:01 +3 -1: ` (a compact reporter's progress) or `12) ` (a numbered failure)
  if (text.charCodeAt(start + 2) === 58) return isCompactProgress(text, start)
  for (let i = start + 1; i < start + 5; i++) if (text.charCodeAt(i) === 41) return true
  return false
}

/**
 * {@link contentMayHaveShape} of the line `[start, end)`, after its prefix (`shapes.ts`
 * afterLinePrefix: a timestamp, a container's or a task's label). The scan reads its lines'
 * prefixes through a `LinePrefixReader` instead.
 */
function mayHaveShape(text: string, start: number, end: number): boolean {
  const from = afterLinePrefix(text, start, end)
  return from > start ? from < end && contentMayHaveShape(text, from) : contentMayHaveShape(text, start)
}

/** Trailing blanks {@link warningHeader} skips before the line's last char. */
const HEADER_TRAIL = 64

/**
 * True when the line `[start, end)` is a Maven-style warning that announces its text on the next
 * line: `[WARNING] ` (after a CI timestamp) and a last char `:` (`[WARNING] Cannot get the branch
 * information from the git repository:`). Reads the line's first chars and its last
 * {@link HEADER_TRAIL}. `from`: the line's {@link afterLinePrefix}.
 */
function warningHeader(text: string, start: number, end: number, from: number): boolean {
  return text.startsWith('[WARNING] ', from) && text.charCodeAt(trimmedEnd(text, Math.max(from, end - HEADER_TRAIL), end) - 1) === 58
}

/**
 * True when the line `[start, end)` (after a warning header) reads as that warning's text: no
 * `[LEVEL]` tag of its own, its first keyword hit (`hit`, or -1) not at its content's start
 * (`Exception in thread "main" ...`, `FAILED a.py::t`), not in capitals (`npm ERR!`) nor after a
 * source location (`a.py:12: error:`), and no test runner's shape (`--- FAIL:`). Reads at most
 * 400 chars of it. `lead`: the line's {@link afterLinePrefix}.
 */
function warningText(text: string, start: number, end: number, hit: number, lead: number): boolean {
  let from = lead
  while (from < end && from - start < 40 && (text.charCodeAt(from) === 32 || text.charCodeAt(from) === 9)) from++
  if (text.charCodeAt(from) === 91 || hit === from) return false
  // a failure word in capitals (`npm ERR!`) or after a location (`a.py:12: error:`) is a verdict
  if (hit !== -1 && isUpper(text.charCodeAt(hit)) && isUpper(text.charCodeAt(hit + 1))) return false
  if (hit !== -1 && hit - from < 400 && afterLocation(text.slice(from, hit + 1).toLowerCase(), hit - from)) return false
  return runnerShape(text.slice(start, Math.min(end, start + 400))) === undefined
}

/** The keywords as a literal set (ASCII letters folded, as `KEYWORDS`' `i` flag does). */
const KEYWORD_SET = compileLiterals(WORDS, { ignoreCase: true })

/**
 * One pass over `text`: counts lines and, when `withSalient`, finds salient lines (keeping the
 * first `limit`). Cost: one keyword search (`scan/literals.ts`) plus one newline scan, both
 * linear; each line is judged on its keyword hits only (the first 600 chars' worth), never
 * re-read whole, and on its first char (a runner's shape, see `shapes.ts`, is read only when that
 * char may start one). `red`: the lines (1-based, ascending) a tool printed in red in a source whose
 * colour codes a filter stripped from `text` (`colour.ts` redLines), scored as a red line the scan
 * sees is, by the same rules (1 inside a quiet block, demoted with a passing test's output).
 */
export function scanLines(text: string, withSalient: boolean, limit = 10_000, red: readonly number[] = []): LineScan {
  const salient: SalientLine[] = []
  let salientTotal = 0
  const n = text.length
  if (!withSalient) {
    let lines = 0
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', nl + 1)) lines++
    return { lines: n > 0 && text.charCodeAt(n - 1) !== 10 ? lines + 1 : lines, salient, salientTotal }
  }
  // The keyword hits, leftmost first, as the regex `KEYWORDS` finds them (`scan/literals.ts`).
  const hits = literalCursor(text, KEYWORD_SET)
  let at = hits.next(0)
  let word = at === -1 ? '' : WORDS[hits.id]!
  /** The next hit at or after `from`. */
  const nextHit = (from: number): void => {
    at = hits.next(from)
    if (at !== -1) word = WORDS[hits.id]!
  }
  let line = 0
  let start = 0
  // A log of several processes (a container's `web-1  | `, a monorepo task's `web:test: `, a CI
  // job's step's `build\tRun tests\t` on lines of it: `shapes.ts` labelKinds): every line may have a
  // runner shape after its label.
  const kinds = labelKinds(text)
  const services = kinds !== 0
  // Each line's prefix read by one reader: it remembers the last timestamp and label (`shapes.ts`).
  const prefixes = new LinePrefixReader(kinds)
  /**
   * {@link contentMayHaveShape} of the line `[start, end)` after its prefix: a timestamp (one like
   * the last is not parsed again), and in a labelled log its label.
   */
  const shapeAt = (start: number, end: number): boolean => {
    const c = text.charCodeAt(start)
    // (in a labelled log every line: a job's name may start with any char, `🧪 Test`)
    if (!services && c !== 91 && c !== 40 && !isDigit(c)) return contentMayHaveShape(text, start)
    const from = prefixes.after(text, start, end)
    return from > start ? from < end && contentMayHaveShape(text, from) : contentMayHaveShape(text, start)
  }
  // Start of the line after a `[WARNING] ...:` header (see warningHeader), -1 when none.
  let warnNext = -1
  // `go test -json`: the salient output events of each test not yet over (package and test as one
  // key, `goJsonTest`), demoted when an event says that test passed or was skipped.
  let jsonTests: Map<string, number[]> | undefined
  // Failing Jest suites' headers: the index of each in `salient` (`passing.ts` demoteUncaptured).
  let suites: number[] | undefined
  // Lines that may open a Python runner's report or end its run (`passing.ts` demoteBeforeReport).
  let reports: number[] | undefined
  // Jest's `Summary of all failing tests` headings: the index of the next salient line at each (`passing.ts` demoteRecapped).
  let recaps: number[] | undefined
  // The lines a tool printed in red whose colour a filter took away (`colour.ts`), ascending: scored
  // as the scan scores a red line it sees (`shapes.ts` RED_SCORE), inside a quiet block 1.
  let redAt = 0
  const isRed = (n: number): boolean => {
    while (redAt < red.length && red[redAt]! < n) redAt++
    return redAt < red.length && red[redAt] === n
  }
  /** Records the line `[start, end)` (`from`: its {@link afterLinePrefix}, when read) as salient. */
  const add = (start: number, end: number, score: number, from = afterLinePrefix(text, start, end)): void => {
    salientTotal++
    if (salient.length >= limit) return
    // a failing Jest suite's header (`FAIL test/a.test.js`, read where its prefix ends, as `demoteUncaptured` reads it): what the code printed right above it is demoted after the pass
    const c = text.charCodeAt(from) === 32 ? text.charCodeAt(from + 1) : text.charCodeAt(from)
    if (c === 70 && isJestSuite(text, from, end)) (suites ??= []).push(salient.length)
    // (a line that may open a Python runner's report or end its run: `passing.ts` demoteBeforeReport)
    if (c === 61 || ((c === 69 || c === 70) && mayEndOrReport(text, from))) (reports ??= []).push(salient.length)
    for (let k = 0; k < 8 && text.charCodeAt(from) === 32; k++) from++
    if (text.charCodeAt(from) === 123) {
      const key = goJsonTest(text, from, end, true)
      if (key !== undefined) {
        jsonTests ??= new Map()
        const list = jsonTests.get(key)
        if (list === undefined) jsonTests.set(key, [salient.length])
        else list.push(salient.length)
      }
    }
    salient.push({ line, start, end, score })
  }
  /** End of the line `[start, lineEnd)` without its `\r`. */
  const endOf = (start: number, lineEnd: number): number => (lineEnd > start && text.charCodeAt(lineEnd - 1) === 13 ? lineEnd - 1 : lineEnd)
  // End of the last passing class verdict (`passing.ts`): the next one's block is searched after it.
  let passedTo = 0
  // End of the last passing or skipped go test verdict (its own cursor: a Surefire verdict and a go one never shorten each other's span).
  let goPassedTo = 0
  /** Salient lines inside a class that passed sink to the lowest score (`passing.ts`). */
  const demotePassed = (start: number, end: number, lineEnd: number, lead: number): void => {
    const name = surefirePass(text, start, end, lead)
    if (name === undefined) return
    const searchFrom = passedTo
    passedTo = lineEnd
    if (name === null) return // a failing class's verdict: the next block starts after it
    const from = passedBlockStart(text, searchFrom, start, name)
    if (from === -1) return
    for (let i = salient.length - 1; i >= 0 && salient[i]!.start > from; i--) salient[i]!.score = 1
  }
  // A quiet block (`shapes.ts`, QUIET_BLOCK: Jest's console output, a passing or skipped go test's
  // log, gotestsum's skipped and passing tests): the indentation of the line that opened it, -1
  // when none is open. It runs over the blank lines (a bare CI timestamp included), those
  // indented deeper and a code frame's `> 12 |` marker line; what the code that did not fail
  // logged there, and the opening line itself, score 1, as a passing class's lines do.
  let quietIndent = -1
  /** Whether the line `[start, end)` (without its `\r`) is inside the open quiet block (closing it when not). */
  const inQuiet = (start: number, end: number, from?: number): boolean => {
    if (quietIndent < 0) return false
    from ??= afterLinePrefix(text, start, end)
    let i = from
    while (i < end && i - from <= quietIndent && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++
    if (i >= end || i - from > quietIndent) return true
    // A code frame's marked line (`    > 141 |`), at the entry's own indentation.
    if (i - from === quietIndent && text.charCodeAt(i) === 62 && text.charCodeAt(i + 1) === 32) return true
    // A blank line that is only a line prefix (a GitHub Actions timestamp `2024-01-02T03:04:05.1234567Z`).
    if (from === start && isBarePrefix(text, start, end)) return true
    quietIndent = -1
    return false
  }
  /** Whether the last {@link shapeOf} call met a line that opens a quiet block (its line then scores 1). */
  let opener = false
  /** The line's shape score; a line that opens a quiet block scores 0 (and a go verdict demotes the log streamed before it). */
  const shapeOf = (start: number, end: number, from: number): number => {
    const shape = lineShape(text, start, end, false, from)
    if (shape === JSON_PASS) {
      // a test passed or was skipped: its salient output events sink to 1 (and the event line too)
      opener = true
      const key = jsonTests === undefined ? undefined : goJsonTest(text, start, end)
      const list = key === undefined ? undefined : jsonTests!.get(key)
      if (list !== undefined) for (const k of list) salient[k]!.score = 1
      if (list !== undefined) jsonTests!.delete(key!)
      return 0
    }
    if (shape === JSON_FAIL) {
      // a test failed: its output events stay as they are, and a rerun of it (`-count`, gotestsum's `--rerun-fails`) starts afresh
      const key = jsonTests === undefined ? undefined : goJsonTest(text, start, end)
      if (key !== undefined) jsonTests!.delete(key)
      return 0
    }
    if (shape !== QUIET_BLOCK) return shape
    let i = from
    while (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9) i++
    quietIndent = i - from
    opener = true
    if (text.charCodeAt(i) === 45) {
      // `--- PASS: TestX (0.01s)`: what the test streamed since its `=== RUN   TestX` line
      const block = goPassedBlockStart(text, goPassedTo, i, end)
      goPassedTo = end
      if (block !== -1) for (let k = salient.length - 1; k >= 0 && salient[k]!.start >= block; k--) salient[k]!.score = 1
    }
    return 0
  }
  while (start < n) {
    // Lines before the next keyword hit: a newline search and a first-char test each (and, while a
    // quiet block is open, its indentation).
    const hitAt = at === -1 ? n : at
    let nl = text.indexOf('\n', start)
    let lineEnd = nl === -1 ? n : nl
    while (lineEnd < hitAt) {
      line++
      const quiet = quietIndent >= 0 && inQuiet(start, endOf(start, lineEnd))
      // (inline for the common lines: a first char that has no shape and starts no prefix, one
      // table read; in a log without labels, a stamp like the last one's, `plain`)
      const c = text.charCodeAt(start)
      let may: boolean
      if (services) may = shapeAt(start, lineEnd)
      else if (c < 128 && c !== 91 && c !== 40 && !isDigit(c)) may = SHAPE_FIRST[c] === 1
      else {
        const p = isDigit(c) ? prefixes.plain(text, start, lineEnd) : -1
        may = p !== -1 ? p < lineEnd && contentMayHaveShape(text, p) : shapeAt(start, lineEnd)
      }
      if (may) {
        const end = endOf(start, lineEnd)
        const from = afterLinePrefix(text, start, end)
        opener = false
        let score = end > start ? shapeOf(start, end, from) : 0
        if (red.length > 0 && isRed(line) && !opener && end > start) score = Math.max(score, RED_SCORE)
        if (score > 0) add(start, end, quiet ? 1 : score, from)
      } else if (red.length > 0 && isRed(line)) {
        const end = endOf(start, lineEnd)
        if (end > start) add(start, end, quiet ? 1 : RED_SCORE)
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
    // (the line's prefix, read once for every rule below)
    const from = afterLinePrefix(text, start, end)
    const quiet = quietIndent >= 0 && inQuiet(start, end, from)
    let score = 0
    const firstHit = at !== -1 && at < end ? at : -1
    if (at !== -1 && at < end) {
      score = scoreAt(text, at, word, start, end)
      let count = 1
      while (score < 4 && count < 16 && (nextHit(at + word.length), at !== -1) && at < end) {
        score = Math.max(score, scoreAt(text, at, word, start, end))
        count++
      }
    }
    if (at !== -1 && at <= lineEnd) {
      if (lineEnd < n) nextHit(lineEnd + 1)
      else at = -1
    }
    if (score > 0 && (endsWithSuccess(text, start, end) || startsWithSuccess(text, start, end, from) || (score < 3 && isGitHint(text, from)))) score = 0
    // The line after a plain `[WARNING] ...:` header (no failure word of its own), with no level
    // of its own, is that warning's text: 1, unless a failure word or a runner's shape starts it.
    if (score > 1 && start === warnNext && warningText(text, start, end, firstHit, from)) score = 1
    warnNext = score <= 2 && warningHeader(text, start, end, from) ? lineEnd + 1 : -1
    opener = false
    // (read whatever the keyword score: a passing verdict's test name may hold one, `--- PASS: TestCreateFails`)
    if (end > start && shapeAt(start, end)) {
      const shape = shapeOf(start, end, from)
      if (!opener) score = Math.max(score, shape)
    }
    if (red.length > 0 && isRed(line) && !opener && end > start) score = Math.max(score, RED_SCORE)
    if (firstHit !== -1 && isJestRecap(text, start, end, from)) (recaps ??= []).push(salient.length)
    // (`console.error` holds a keyword: the opening line scores 1 too.)
    if (score > 0) add(start, end, quiet || opener ? 1 : score, from)
    demotePassed(start, end, lineEnd, from)
    start = lineEnd + 1
  }
  if (recaps !== undefined) demoteRecapped(text, salient, recaps)
  if (suites !== undefined) demoteUncaptured(text, salient, suites)
  if (reports !== undefined) demoteBeforeReport(text, salient, reports)
  demoteSourceListings(text, salient)
  return { lines: line, salient, salientTotal }
}
