/**
 * The smallest unit a salient line is shown with when the picker cannot give it its full context
 * (a crowded level, a squeezed budget): the lines after it that say what it is about. A
 * diagnostic is read as a unit, not a line:
 *
 * - a **bare verdict header** announces its content on the next lines: `Error:`, `1) Failure:`,
 *   `* What went wrong:` (a few words ending with `:`), or a location followed by nothing but a
 *   verdict word (`foo_test.cc:42: Failure`, `unknown file: Failure`, as GoogleTest prints);
 *   its unit is the next {@link HEADER_LINES} non-blank lines (minitest's `Class#test:` and its
 *   message, gMock's `Mock function called more times than expected`);
 * - a diagnostic header followed by a `--> file:line:col` location line (rustc, clippy, and the
 *   compilers that copied its format): the location is the unit's second line.
 * - a javac diagnostic (`A.java:[15,53] cannot find symbol`, `A.java:15: error: ...`) followed by
 *   its `symbol:` and `location:` lines, within {@link UNIT_PROBE} lines and before the next
 *   diagnostic (plain javac prints the source line and its caret first; Maven's copy after
 *   `Failed to execute goal` tags them `[ERROR]`): those lines.
 * - one JUnit test's failure header, Surefire's `testX  Time elapsed: 0.01 s  <<< FAILURE!`
 *   (`<<< ERROR!`) or Gradle's `XTest > testX FAILED`: its exception, the next non-blank line.
 *
 * Cost: reads a bounded prefix of the line and of the next few lines, char codes only, no regex.
 */
import { isDigit, isLetter } from './chars.js'
import { lineAt, nextStart, type Line } from './lines.js'
import { afterLevel, afterLinePrefix, trimmedEnd } from './shapes.js'

/** Most chars of a bare header's words (`Error:`, `1) Failure:`, `* What went wrong:`). */
export const BARE_HEADER_CHARS = 24
/** Non-blank lines after a bare verdict header that belong to its unit. */
export const HEADER_LINES = 2
/** Lines after a header read at most while looking for its unit (blank ones included). */
const UNIT_PROBE = 4
/** Chars of a line read at most. */
const PROBE = 200

const isBlank = (c: number): boolean => c === 32 || c === 9 || c === 13

/** Words that make a line ending with them a verdict header (lower case). */
const VERDICT_ENDS = ['error', 'errors', 'failure', 'failures', 'failed']

/** Offset of the line's content: after a CI timestamp and indentation (bounded). */
export function contentAt(text: string, start: number, end: number): number {
  let i = afterLinePrefix(text, start, end)
  const from = i
  while (i < end && i - from < 64 && isBlank(text.charCodeAt(i))) i++
  return i
}

/**
 * True when the line `[start, end)` is a bare verdict header (see the module note): what it
 * announces is on the next lines.
 */
export function isBareHeader(text: string, start: number, end: number): boolean {
  let i = contentAt(text, start, end)
  const stop = Math.min(end, i + PROBE)
  // an optional `12) ` or `* ` before the words
  const d0 = i
  while (i < stop && i - d0 < 4 && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i++
  if (i > d0) {
    if (text.charCodeAt(i) !== 41 || text.charCodeAt(i + 1) !== 32) return false
    i += 2
  } else if (text.charCodeAt(i) === 42 && text.charCodeAt(i + 1) === 32) i += 2
  const e = trimmedEnd(text, i, stop)
  if (e - i < 2 || e === stop && stop < end) return false
  const colon = text.charCodeAt(e - 1) === 58
  if (colon && e - i <= BARE_HEADER_CHARS) {
    let words = true
    for (let k = i; k < e - 1 && words; k++) words = isLetter(text.charCodeAt(k)) || text.charCodeAt(k) === 32
    if (words) return true
  }
  // `<location>: Failure`: the last word is a verdict and a `: ` comes just before it
  const we = colon ? e - 1 : e
  let w = we
  while (w > i && isLetter(text.charCodeAt(w - 1))) w--
  if (w === we || w - i < 3 || text.charCodeAt(w - 1) !== 32 || text.charCodeAt(w - 2) !== 58) return false
  const word = text.slice(w, we).toLowerCase()
  return VERDICT_ENDS.includes(word)
}

/** Endings of a JUnit test's own failure header, whose next line is its exception (Surefire, Gradle). */
const TEST_VERDICTS = ['<<< FAILURE!', '<<< ERROR!']

/**
 * True when the line `[start, end)` is one test's failure header whose exception follows on the
 * next line: Surefire's `testX(a.BTest)  Time elapsed: 0.01 s  <<< FAILURE!` (`<<< ERROR!`) and
 * Gradle's `BTest > testX FAILED`.
 */
export function isTestFailureHeader(text: string, start: number, end: number): boolean {
  const from = Math.max(start, end - PROBE)
  const e = trimmedEnd(text, from, end)
  for (const v of TEST_VERDICTS) if (e - from >= v.length && text.startsWith(v, e - v.length)) return true
  if (e - from < 9 || !text.startsWith(' FAILED', e - 7)) return false
  const i = contentAt(text, start, end)
  const gt = text.indexOf(' > ', i)
  return gt !== -1 && gt < e - 7
}

/** True when the line is a `--> file:line:col` location (after indentation). */
function isArrowLocation(text: string, l: Line): boolean {
  const i = contentAt(text, l.start, l.end)
  return text.startsWith('--> ', i) && i + 4 < l.end
}

/**
 * True when the line `[start, end)` is a javac diagnostic: `A.java:[15,53] ...` (Maven's form) or
 * `A.java:15: error: ...` (javac's own), within its first {@link PROBE} chars.
 */
function isJavacDiagnostic(text: string, start: number, end: number): boolean {
  const probe = text.slice(start, Math.min(end, start + PROBE))
  for (let at = probe.indexOf('.java:'); at !== -1; at = probe.indexOf('.java:', at + 6)) {
    const c = probe.charCodeAt(at + 6)
    if ((c === 91 && isDigit(probe.charCodeAt(at + 7))) || isDigit(c)) return true
  }
  return false
}

/**
 * True when the line is javac's detail of a diagnostic: `symbol:` or `location:` after
 * indentation (and after a Maven level tag, in the copy Maven prints after `Failed to execute goal`).
 */
function isJavacDetail(text: string, l: Line): boolean {
  const from = contentAt(text, l.start, l.end)
  let i = afterLevel(text, from, l.end)
  while (i > from && i < l.end && i - from < PROBE && isBlank(text.charCodeAt(i))) i++
  return text.startsWith('symbol:', i) || text.startsWith('location:', i)
}

/** True when the line is Python's `Traceback (most recent call last):` (after a CI timestamp and indentation): a trace's header, its frames follow. */
export function isTracebackStart(text: string, start: number, end: number): boolean {
  return text.startsWith('Traceback (most recent call last)', contentAt(text, start, end))
}

/**
 * The lines after the salient line `l` that belong to its smallest unit (see the module note),
 * none past `limit` (a char offset: where the middle ends). Empty when the line stands alone.
 */
export function unitAfter(text: string, l: Line, limit: number): Line[] {
  const out: Line[] = []
  const bare = isBareHeader(text, l.start, l.end)
  let at = nextStart(text, l.start)
  if (!bare && isTestFailureHeader(text, l.start, l.end)) {
    // its exception: the next non-blank line (within a few)
    for (let k = 1; k <= UNIT_PROBE && at < limit; k++) {
      const next = lineAt(text, l.n + k, at)
      if (nextStart(text, at) > limit) break
      out.push(next)
      if (contentAt(text, next.start, next.end) < next.end) return out
      at = nextStart(text, at)
    }
    return []
  }
  let shown = 0
  // (javac's detail may come after the source line and its caret: held until a detail line)
  let pending: Line[] = []
  const javac = !bare && isJavacDiagnostic(text, l.start, l.end)
  for (let k = 1; k <= UNIT_PROBE && at < limit; k++) {
    const next = lineAt(text, l.n + k, at)
    if (nextStart(text, at) > limit) break
    if (!bare) {
      if (k === 1 && isArrowLocation(text, next)) {
        out.push(next)
        break
      }
      // (only under a javac diagnostic, and never over the next one)
      if (!javac || isJavacDiagnostic(text, next.start, next.end)) break
      pending.push(next)
      if (isJavacDetail(text, next)) {
        out.push(...pending)
        pending = []
      } else if (out.length > 0) break
      at = nextStart(text, at)
      continue
    }
    out.push(next)
    if (contentAt(text, next.start, next.end) < next.end) shown++
    if (shown >= HEADER_LINES) break
    at = nextStart(text, at)
  }
  return bare && shown === 0 ? [] : out
}
