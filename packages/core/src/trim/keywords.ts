/**
 * The keyword half of the salience scan (`salient.ts`): the words that mark a line about a
 * problem (found by `scan/literals.ts`, or by the regex below where WebAssembly cannot run), and the score of one hit, which tells a verdict
 * (`ERROR:`, `TypeError`, a compiler's `a.c:3:5: error`) from a mention ("the error message")
 * and from noise (`ErrorHandler`, `-Werror`, `0 errors`). Char-code tests only, no regex per hit
 * but one anchored capitals check.
 */
import { isDigit, isLetter } from './chars.js'

/** The keywords, in priority order (at one offset the first that matches wins). */
export const WORDS = [
  'error', 'fail', 'exception', 'traceback', 'panic', 'fatal', 'denied', 'assert', 'exit code', 'exit status', 'exited with',
  'warn', 'not ok', 'err!', 'segmentation fault', 'segfault', 'abort', 'cannot', "can't", 'could not', "couldn't", 'unable to',
  'no such file', 'not found', 'no space left', 'refused', 'timed out', 'killed', 'undefined reference', 'unresolved',
] as const

/**
 * Plain literals only, so irregexp runs it in linear time; grouped by first letter
 * (`e(?:rror|xception|...)`), which matches the same words at the same offsets as the flat
 * alternation (order kept within each group) and scans about 15% faster.
 */
export const KEYWORDS = new RegExp(
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


const STRONG_CAPS = /^(?:ERROR|ERR!|FAIL|FAILED|FAILURE|FAILURES|FATAL|PANIC|EXCEPTION|TRACEBACK|DENIED|ABORT|ABORTED)$/

/**
 * Score of one keyword hit at `at` (`low` is the lower-cased line, `orig` the line as written),
 * 0 when it is noise. A hit weighs more when it reads as a verdict rather than prose: at the start
 * of the line, in capitals, as an exception class (`TypeError`), or followed by a colon.
 */
export function hitScore(low: string, orig: string, at: number, word: string, atStart: boolean): number {
  let end = at + word.length
  const suffixes = SUFFIXES[word]
  if (suffixes !== undefined) {
    let s = end
    while (s < low.length && isLetter(low.charCodeAt(s))) s++
    if (!suffixes.includes(low.slice(end, s))) return 0
    end = s
    if (low.charCodeAt(end) === 95 /* _ */) return 0 // error_prone, fail_fast: identifiers
    if (low.charCodeAt(at - 1) === 95) return 0 // test_wstat_errors, on_error, handle_exception: identifiers too
    if (word === 'fail' && low.startsWith('pipe', at - 4)) return 0 // bash's `-o pipefail` (every GitHub Actions step prints it)
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
  if (zeroCountBefore(low, at)) return 0
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
 * True when a zero count comes right before the hit at `at` of `low`, alone or with one plural
 * noun between: `0 failed`, `0 tests failed`, `[         0 containers failed     ]` (the JUnit
 * Platform launcher's summary table). The `0` stands alone: after the line's start, a space, a tab,
 * `[` or `(` (not `1.0`, `1,0`, `worker0`, `shard-0`). Reads back at most 48 chars.
 */
function zeroCountBefore(low: string, at: number): boolean {
  let i = at - 1
  if (low.charCodeAt(i) !== 32) return false
  while (i >= 0 && at - i < 24 && low.charCodeAt(i) === 32) i--
  if (low.charCodeAt(i) !== 48) {
    // one plural noun: `tests`, `containers`
    if (low.charCodeAt(i) !== 115 /* s */) return false
    const end = i
    while (i >= 0 && end - i < 16 && isLetter(low.charCodeAt(i))) i--
    if (end - i < 3 || low.charCodeAt(i) !== 32) return false
    while (i >= 0 && at - i < 48 && low.charCodeAt(i) === 32) i--
    if (low.charCodeAt(i) !== 48) return false
  }
  const c = low.charCodeAt(i - 1)
  return i === 0 || c === 32 || c === 9 || c === 91 || c === 40
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
