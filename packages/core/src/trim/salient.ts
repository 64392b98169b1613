/**
 * Salient lines: the lines a reader of a long tool output looks for first (errors, failures,
 * exceptions, tracebacks, panics, denials, assertions, non-zero exit codes, warnings).
 * Found in one linear pass with a literal alternation (no backtracking risk).
 */

/** A salient line found by {@link scanLines}. `start`/`end` are char offsets (end excludes `\n`). */
export interface SalientLine {
  line: number
  start: number
  end: number
  /** 1 (warning) .. 3 (error, failure, exception, traceback, panic, fatal). */
  score: number
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

// Plain literals only: irregexp runs this in linear time.
const KEYWORDS = /error|fail|exception|traceback|panic|fatal|denied|assert|exit code|exit status|exited with|warn|not ok|err!|segmentation fault|abort/gi

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
  warn: 1,
}

const isLetter = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90)
const isDigit = (c: number): boolean => c >= 48 && c <= 57

/** Score of one keyword hit at `at` (lower-cased line `low`), 0 when it is noise. */
function hitScore(low: string, at: number, word: string): number {
  let end = at + word.length
  const suffixes = SUFFIXES[word]
  if (suffixes !== undefined) {
    let s = end
    while (s < low.length && isLetter(low.charCodeAt(s))) s++
    if (!suffixes.includes(low.slice(end, s))) return 0
    end = s
    const next = low.charCodeAt(end)
    if (next === 95 /* _ */) return 0 // error_prone, fail_fast: identifiers
    if (word === 'error' && low.charCodeAt(at - 1) === 119 /* w */ && low.charCodeAt(at - 2) === 45) return 0 // -Werror
  }
  if (word === 'exit code' || word === 'exit status' || word === 'exited with') {
    // "exit code 0" / "exited with code 0" is success.
    let s = end
    while (s < low.length && !isDigit(low.charCodeAt(s)) && s - end < 8) s++
    if (low.charCodeAt(s) === 48 && !isDigit(low.charCodeAt(s + 1))) return 0
    return WEIGHT[word] ?? 1
  }
  // Zero counts are success too: "0 errors", "Failures: 0", "failed=0".
  let s = end
  while (s < low.length && (low[s] === ':' || low[s] === '=' || low[s] === ' ')) s++
  if (s > end || s === end) {
    if (low.charCodeAt(s) === 48 && !isDigit(low.charCodeAt(s + 1)) && low[s + 1] !== '.') return 0
  }
  if (at >= 2 && low.charCodeAt(at - 1) === 32 && low.charCodeAt(at - 2) === 48 && !isDigit(low.charCodeAt(at - 3))) return 0
  return WEIGHT[word] ?? 1
}

const LINE_PROBE = 600
const LOCAL = new RegExp(KEYWORDS.source, 'g')

/** Salience of one line (0 = not salient). Only the first 600 chars are read. */
export function lineSalience(line: string): number {
  const low = (line.length > LINE_PROBE ? line.slice(0, LINE_PROBE) : line).toLowerCase()
  LOCAL.lastIndex = 0
  let best = 0
  let m: RegExpExecArray | null
  while ((m = LOCAL.exec(low)) !== null) {
    const s = hitScore(low, m.index, m[0])
    if (s > best) best = s
    if (best === 3) break
  }
  return best
}

/**
 * One pass over `text`: counts lines and, when `withSalient`, finds salient lines (keeping the
 * first `limit`). Cost: one keyword search plus one newline count, both linear.
 */
export function scanLines(text: string, withSalient: boolean, limit = 10_000): LineScan {
  const salient: SalientLine[] = []
  let salientTotal = 0
  let line = 1 // line number of offset `pos`
  let pos = 0 // every newline before `pos` is counted in `line`
  if (withSalient) {
    const re = new RegExp(KEYWORDS.source, 'gi')
    let m: RegExpExecArray | null
    while ((m = re.exec(text)) !== null) {
      const at = m.index
      let nl = text.indexOf('\n', pos)
      while (nl !== -1 && nl < at) {
        line++
        pos = nl + 1
        nl = text.indexOf('\n', pos)
      }
      const start = text.lastIndexOf('\n', at - 1) + 1
      let end = nl === -1 ? text.length : nl
      if (end > start && text.charCodeAt(end - 1) === 13) end--
      const probeStart = Math.max(start, at - 200)
      const score = lineSalience(text.slice(probeStart, Math.min(end, probeStart + LINE_PROBE)))
      if (score > 0) {
        salientTotal++
        if (salient.length < limit) salient.push({ line, start, end, score })
      }
      if (nl === -1) break
      // One verdict per line: go on after it.
      re.lastIndex = nl + 1
      line++
      pos = nl + 1
    }
  }
  let nl = pos - 1
  while ((nl = text.indexOf('\n', nl + 1)) !== -1) line++
  const lines = text.length === 0 ? 0 : text.charCodeAt(text.length - 1) === 10 ? line - 1 : line
  return { lines, salient, salientTotal }
}
