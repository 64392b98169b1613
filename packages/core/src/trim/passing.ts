/**
 * Problems logged by a test class that then passed (round 8, issue 16): Maven Surefire prints a
 * class's own output between `Running X` and its verdict `Tests run: N, Failures: 0, Errors: 0,
 * ... - in X`; an exception or an error logged there (a retry, a negative test's expected
 * failure, a mock server's timeout) is not why the build failed. {@link passedBlockStart} tells
 * the scan where such a block starts, so its salient lines can be demoted to the lowest score:
 * still candidates, shown when nothing better fits, never ahead of a failing test's lines.
 * Bounded: each verdict line reads its own chars and the text since the previous verdict once.
 */
import { isDigit } from './chars.js'
import { afterLevel, afterLinePrefix, afterSgr, indentAt, isBarePrefix, jsonField, trimmedEnd } from './shapes.js'
import { lineAt, nextStart } from './lines.js'
import { runnerLine } from './runners.js'

/** Longest lead (timestamp, level) allowed before `Running ` on the block's first line. */
const RUNNING_LEAD = 48

/** Longest logger prefix skipped before a Maven line (a tool that runs Maven and logs its output). */
const LOGGER_LEAD = 160

/**
 * Offset after a logger's prefix at `i` when a Maven `[LEVEL] ` line follows it: Maven run by a
 * tool that logs its output through a logback or log4j pattern (`13:41:51.387 [Thread-8] DEBUG
 * a.b.Handler - [INFO] Tests run: ...`, the message after the last ` - [` of the lead), else `i`.
 * Reads at most {@link LOGGER_LEAD} chars.
 */
function afterLogger(text: string, i: number, end: number): number {
  // the last ` - [` of the lead: a pattern may put one before the thread (`%d - [%t] %p %c - %m`)
  for (let k = Math.min(end, i + LOGGER_LEAD) - 4; k >= i; k--) {
    if (text.charCodeAt(k) === 32 && text.charCodeAt(k + 1) === 45 && text.charCodeAt(k + 2) === 32 && text.charCodeAt(k + 3) === 91) return k + 3
  }
  return i
}

/** Longest line read as a class verdict (real ones are 100-250 chars): no line is read whole. */
const VERDICT_CHARS = 600

/**
 * When the line `[start, end)` is a Surefire test class's verdict: for a passing class
 * (`Tests run: 6, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.037 s - in a.BTest`, or the
 * older form without `- in X`), the class name's span (`[0, 0]` when the line names none); for a
 * failing one (`<<< FAILURE!`, `<<< ERROR!`), null; else undefined (a run's summary has no
 * `Time elapsed`). `lead`: the line's {@link afterLinePrefix}, when the caller has it.
 */
export function surefirePass(text: string, start: number, end: number, lead?: number): [number, number] | null | undefined {
  if (end - start > VERDICT_CHARS) return undefined
  // (a line without the words holds no verdict: a logger's prefix is searched for only in one that has them)
  if (!text.slice(lead ?? start, end).includes('Tests run: ')) return undefined
  let i = mavenMessage(text, start, end, 'Tests run: ', lead)
  if (i === -1) return undefined
  i += 11
  const digits = i
  while (i < end && isDigit(text.charCodeAt(i))) i++
  if (i === digits) return undefined
  const rest = text.slice(i, end)
  if (rest.includes('<<<')) return null
  if (!rest.startsWith(', Failures: 0, Errors: 0,') || !rest.includes('Time elapsed')) return undefined
  const at = rest.indexOf(' - in ')
  if (at === -1) return [0, 0]
  return [i + at + 6, trimmedEnd(text, i + at + 6, end)]
}

/**
 * Offset of `word` in the line `[start, end)` when Maven's message starts with it: after a CI
 * timestamp and a `[LEVEL] ` tag, or behind a logger's prefix ({@link afterLogger}); else -1.
 * `lead`: the line's {@link afterLinePrefix}, when the caller has it.
 */
function mavenMessage(text: string, start: number, end: number, word: string, lead = afterLinePrefix(text, start, end)): number {
  let i = afterLevel(text, lead, end)
  if (!text.startsWith(word, i)) i = afterLevel(text, afterLogger(text, lead, end), end)
  return text.startsWith(word, i) ? i : -1
}

/**
 * True when the line `[start, end)` is Surefire's progress through classes that pass: a
 * passing class's verdict ({@link surefirePass}) or a `Running a.BTest` line (one dotted class
 * name after it). Reads at most {@link VERDICT_CHARS} chars.
 */
export function surefireProgress(text: string, start: number, end: number): boolean {
  const pass = surefirePass(text, start, end)
  if (pass !== undefined) return pass !== null
  if (end - start > VERDICT_CHARS) return false
  const i = mavenMessage(text, start, end, 'Running ')
  if (i === -1) return false
  const e = trimmedEnd(text, i + 8, end)
  let dot = false
  for (let k = i + 8; k < e; k++) {
    const c = text.charCodeAt(k)
    if (c === 32 || c === 9) return false
    if (c === 46) dot = true
  }
  return dot && text.charCodeAt(e - 1) !== 46
}

/**
 * Start of the block a passing verdict at `verdictStart` closes: the offset of its `Running X`
 * line (X the verdict's class when it names one), searched in `text[from, verdictStart)` only
 * (`from`: the end of the previous verdict), or -1 when that span holds none.
 */
export function passedBlockStart(text: string, from: number, verdictStart: number, name: [number, number]): number {
  const span = text.slice(from, verdictStart)
  const r = span.lastIndexOf('Running ')
  if (r === -1) return -1
  const lineStart = span.lastIndexOf('\n', r) + 1
  if (r - lineStart > RUNNING_LEAD + LOGGER_LEAD) return -1
  if (mavenMessage(span, lineStart, r + 8, 'Running ') !== r) return -1
  if (name[1] > name[0]) {
    const n = name[1] - name[0]
    if (span.slice(r + 8, r + 8 + n) !== text.slice(name[0], name[1])) return -1
    const after = span.charCodeAt(r + 8 + n)
    if (!(Number.isNaN(after) || after === 10 || after === 13 || after === 32)) return -1
  }
  return from + lineStart
}

/** Longest go test name read from a verdict (real ones are far shorter): no line is read whole. */
const GO_NAME_CHARS = 300

/**
 * The name a go test verdict `--- PASS: TestX/sub (0.01s)` at `at` (its `-`) gives, as
 * `[start, end)`, or undefined when the line is not one.
 */
function goVerdictName(text: string, at: number, end: number): [number, number] | undefined {
  const start = at + 10
  const stop = Math.min(end, start + GO_NAME_CHARS)
  let i = start
  while (i < stop && text.charCodeAt(i) !== 32) i++
  return i > start && text.charCodeAt(i) === 32 && text.charCodeAt(i + 1) === 40 ? [start, i] : undefined
}

/** Go's markers of which test a verbose run's next lines belong to (`=== RUN   TestX`, ...). */
const GO_MARKERS = ['=== RUN   ', '=== CONT  ', '=== NAME  ', '=== PAUSE ']

/**
 * Start of the log a passing or skipped go test streamed before its verdict (`go test -v`, Go
 * 1.14 and later): the offset of its `=== RUN   TestX` line, searched in `text[from, at)` only
 * (`at`: the verdict's `-`; `from`: the end of the previous verdict), or -1. Also -1 when a
 * marker in that span names another test (`=== CONT  TestY`, `=== RUN   TestY`, ...: parallel
 * tests interleave, and the lines may be another test's) or a test failed in it, so the span
 * holds this test's and its subtests' lines only.
 */
export function goPassedBlockStart(text: string, from: number, at: number, end: number): number {
  const name = goVerdictName(text, at, end)
  if (name === undefined) return -1
  const test = text.slice(name[0], name[1])
  const span = text.slice(from, at)
  let run = span.lastIndexOf(`=== RUN   ${test}\n`)
  if (run === -1) run = span.lastIndexOf(`=== RUN   ${test}\r`)
  if (run === -1) return -1
  const lineStart = span.lastIndexOf('\n', run) + 1
  if (run - lineStart > RUNNING_LEAD) return -1
  for (let m = span.indexOf('=== ', run + 10); m !== -1; m = span.indexOf('=== ', m + 4)) {
    const marker = GO_MARKERS.find((g) => span.startsWith(g, m))
    if (marker === undefined) continue
    const other = span.slice(m + 10, m + 10 + test.length + 1)
    if (!(other === `${test}\n` || other === `${test}\r` || other === `${test}/`)) return -1
  }
  if (span.includes('--- FAIL: ', run)) return -1
  return from + lineStart
}

/** Chars of a `go test -json` event read for its `Package` and `Test` fields (they come before `Output`). */
const JSON_EVENT_PROBE = 400

/**
 * Which test a `go test -json` event at `at` (its `{`, or the start of its line: the fields are
 * searched in the first 400 chars) belongs to, as one key (package, then
 * test), or undefined for a package-level event or a line that is not one (with `outputOnly`,
 * also for an event that is not the test's output: its `pass`/`fail` verdict is not its log). The events carry
 * their test's name, so a passing test's output is known exactly even where parallel tests
 * interleave (the text format needs `=== CONT` markers for that: {@link goPassedBlockStart}).
 */
export function goJsonTest(text: string, at: number, end: number, outputOnly = false): string | undefined {
  const head = text.slice(at, Math.min(end, at + JSON_EVENT_PROBE))
  if (outputOnly && jsonField(head, 'Action') !== 'output') return undefined
  const test = jsonField(head, 'Test')
  return test === undefined ? undefined : `${jsonField(head, 'Package') ?? ''}\u0000${test}`
}

/** Jest's heading over its re-print of every failing test file (`SummaryReporter`). */
const JEST_RECAP = 'Summary of all failing tests'
/** Chars of a salient line compared between a first report and its re-print. */
const RECAP_KEY_CHARS = 200

/**
 * True when the line `[start, end)` is Jest's `Summary of all failing tests` heading (after a line
 * prefix; bold when coloured). Jest prints it when a run of more test files than its summary
 * threshold (20) has failures, and then prints each failing file's report again: the same `FAIL
 * file` header, `●` test headers, messages and code frames it printed while the run went on.
 * `from`: the line's {@link afterLinePrefix}, when the caller has it.
 */
export function isJestRecap(text: string, start: number, end: number, from = afterLinePrefix(text, start, end)): boolean {
  const i = afterSgr(text, from, end)
  if (end - i > 60 || !text.startsWith(JEST_RECAP, i)) return false
  const rest = afterSgr(text, i + JEST_RECAP.length, end)
  return trimmedEnd(text, rest, end) === rest
}

/** Offset of a salient line's text: after a line prefix and Jest's colour codes. */
const recapFrom = (text: string, s: { start: number; end: number }): number => afterSgr(text, afterLinePrefix(text, s.start, s.end), s.end)

/** A salient line's text for comparing a report with its re-print: after a line prefix, trimmed, its first 200 chars (colour codes kept). */
function recapKey(text: string, s: { start: number; end: number }): string {
  const from = afterLinePrefix(text, s.start, s.end)
  return text.slice(from, Math.min(s.end, from + RECAP_KEY_CHARS)).trim()
}

/** True when the salient line `s` is a Jest run's `Test Suites:` count (its last line but two: the run's end), coloured or not. */
const isRunEnd = (text: string, s: { start: number; end: number }): boolean => text.startsWith('Test Suites:', recapFrom(text, s))

/**
 * Jest's recap holds every failure of its run a second time: each salient line printed while
 * the run went on whose text the recap prints again scores 1, so the budget goes to the recap
 * (all failures, together) and not to two copies. `recaps`: for each recap heading, in order,
 * the index in `salient` of the first salient line from the heading on. A recap runs from there
 * to its `Test Suites:` line (or the next heading, or the end); the lines compared with it are
 * those of its own run: after the last `Test Suites:` line above it (an earlier run's end, whose
 * failures this recap does not hold) or the previous recap. Reads each salient line of those
 * spans at most twice, its first 200 chars.
 */
export function demoteRecapped(text: string, salient: { start: number; end: number; score: number }[], recaps: readonly number[]): void {
  let from = 0
  recaps.forEach((r, j) => {
    const stop = j + 1 < recaps.length ? recaps[j + 1]! : salient.length
    const again = new Set<string>()
    let k = r
    for (; k < stop; k++) {
      if (isRunEnd(text, salient[k]!)) break
      again.add(recapKey(text, salient[k]!))
    }
    let runStart = r
    while (runStart > from && !isRunEnd(text, salient[runStart - 1]!)) runStart--
    for (let i = runStart; i < r; i++) if (again.has(recapKey(text, salient[i]!))) salient[i]!.score = 1
    from = k
  })
}

/** A Jest suite's header, read after the line's prefix: `FAIL test/a.test.js`, `FAIL  src/b.spec.ts (7.3 s)`. */
const JEST_SUITE = /^ ?(?:PASS|FAIL) {1,2}\S+\.[cm]?[jt]sx?(?: \(\d+(?:\.\d+)? m?s\))? *\r?$/
/** Chars of a line read for a Jest suite's header. */
const SUITE_CHARS = 300
/** Most lines walked up from a suite's header over what the code under test printed (see {@link demoteUncaptured}). */
const UNCAPTURED_MAX = 2000

/** True when the line `[start, end)`, whose {@link afterLinePrefix} is `from`, is a Jest suite's header (at most {@link SUITE_CHARS} chars). */
export function isJestSuite(text: string, from: number, end: number): boolean {
  const c = text.charCodeAt(from) === 32 ? text.charCodeAt(from + 1) : text.charCodeAt(from)
  return (c === 70 || c === 80) && end - from <= SUITE_CHARS && JEST_SUITE.test(text.slice(from, end))
}

/**
 * True when the line after the one ending at `end` opens a Jest suite's report: indented by two
 * blanks or more, then a char (a `describe` name, `  ● Suite › test`, `    ✕ test`). A script
 * that prints `FAIL test/a.js` itself goes on at the line's start.
 */
function opensReport(text: string, end: number): boolean {
  const next = nextStart(text, end)
  if (next >= text.length) return false
  const line = lineAt(text, 0, next)
  const from = afterLinePrefix(text, line.start, line.end)
  const indent = indentAt(text, from, line.end)
  return indent >= 2 && trimmedEnd(text, from + indent, line.end) > from + indent
}

/**
 * What the code under test wrote straight to stdout in a Jest run (a logger that bypasses
 * `console`: Nest's `[Nest] ... ERROR [Ctx] ...` and the error's stack) lands right above the
 * suite's `FAIL` header, before Jest prints the suite's report; what it wrote through `console`
 * is a quiet block already (`shapes.ts` QUIET_BLOCK). The salient lines of the unbroken run of
 * lines right above a failing suite's header (up to a blank line, a CI timestamp alone, another
 * suite's header, a run's `Tests:` / `Test Suites:` count or a crashed worker's `FATAL ERROR:`
 * line, which keeps its score; at most {@link UNCAPTURED_MAX} lines)
 * score 1, as a quiet block's do: the runner's report of what failed comes first. `suites`: the
 * indexes in `salient` of the failing suites' headers (`FAIL path` is a runner's failure shape;
 * a passing suite's header is no salient line, and a search of the whole text for it would cost
 * the scan a tenth more), ascending. Each run is walked once.
 */
export function demoteUncaptured(text: string, salient: { start: number; end: number; score: number }[], suites: readonly number[]): void {
  // (each walk stops at the header above it, read or not: the runs are apart and ascending, the work linear)
  let floor = 0
  let k = 0
  for (const h of suites) {
    const header = salient[h]!
    const stop = floor
    floor = nextStart(text, header.end)
    if (!opensReport(text, header.end)) continue
    let top = header.start
    for (let n = 0; n < UNCAPTURED_MAX && top > stop; n++) {
      const above = top >= 2 ? text.lastIndexOf('\n', top - 2) + 1 : 0
      const lineEnd = text.charCodeAt(top - 2) === 13 ? top - 2 : top - 1
      const end = trimmedEnd(text, above, lineEnd)
      // (a prefix alone is read with the blanks after it: a task's `web:test: ` label)
      if (end === above || isBarePrefix(text, above, lineEnd)) break
      const from = afterLinePrefix(text, above, end)
      if (isJestSuite(text, from, end) || text.startsWith('Tests:', from) || text.startsWith('Test Suites:', from)) break
      // a worker that crashed (V8's `FATAL ERROR: ... heap out of memory`, `# Fatal error in ...`, `# Fatal JavaScript ...`): what follows it is the crash's, not a logger's
      if (text.startsWith('FATAL ERROR: ', from) || text.startsWith('# Fatal ', from)) break
      top = above
    }
    while (k < h && salient[k]!.start < top) k++
    for (; k < h; k++) salient[k]!.score = 1
    k = h + 1
  }
}

/** pytest's report of what failed: `=== FAILURES ===`, `=== ERRORS ===` (the rule's length varies). */
const PYTEST_REPORT = /^=+ (?:FAILURES|ERRORS) =+ *\r?$/
/** unittest's report of one test, after a rule of `=`: `ERROR: test_x (mod.Case)`, `FAIL: test_y (mod.Case)`, `ERROR: tests.test_a (unittest.loader._FailedTest)`. */
const UNITTEST_REPORT = /^(?:FAIL|ERROR): [\w.]+ \([\w.]+\)/
/** Chars of a line read for a failed test's line (see {@link isPythonTestLine}). */
const TEST_LINE_CHARS = 400

/** End of `line` before pytest's progress (` [ 12%]`), read back by hand (a pattern unanchored at its start would restart at every blank). */
function beforeProgress(line: string): number {
  let i = line.length
  if (!line.endsWith('%]')) return i
  i -= 2
  while (i > 0 && isDigit(line.charCodeAt(i - 1))) i--
  while (i > 0 && line.charCodeAt(i - 1) === 32) i--
  if (i === 0 || line.charCodeAt(i - 1) !== 91) return line.length
  i--
  while (i > 0 && line.charCodeAt(i - 1) === 32) i--
  return i
}

/** Offset in `line` after pytest-xdist's worker and progress (`[gw1] [ 25%] `), 0 when none. */
function afterWorker(line: string): number {
  if (!line.startsWith('[gw')) return 0
  let i = line.indexOf('] ')
  if (i === -1) return 0
  i += 2
  if (line.charCodeAt(i) !== 91) return i
  const close = line.indexOf('%] ', i)
  return close === -1 || close - i > 6 ? i : close + 3
}

/**
 * True when the salient line `s` is a failed test's line of a Python run: pytest's
 * `tests/a.py::test_b[x, 1] FAILED [ 12%]` or `FAILED tests/a.py::test_b - ...` (its first token
 * names a test: `::` in it), pytest-xdist's `[gw1] [ 25%] FAILED tests/a.py::test_b`, `pytest -s`'s
 * verdict alone on its line (`FAILED [ 50%]`), unittest's verbose `... FAIL` / `... ERROR` (after
 * a test's name, its docstring or a subtest's parameters). Char tests and `indexOf`: linear in the
 * line's first {@link TEST_LINE_CHARS} chars.
 */
function isPythonTestLine(text: string, s: { start: number; end: number }): boolean {
  const from = afterSgr(text, afterLinePrefix(text, s.start, s.end), s.end)
  const whole = text.slice(from, trimmedEnd(text, from, Math.min(s.end, from + TEST_LINE_CHARS)))
  const line = whole.slice(afterWorker(whole))
  const named = (at: number): boolean => {
    const space = line.indexOf(' ', at)
    const colons = line.indexOf('::', at)
    return colons > at && (space === -1 || colons < space)
  }
  const verdict = line.slice(0, beforeProgress(line))
  if (verdict === 'FAILED' || verdict === 'ERROR') return true
  if (line.startsWith('FAILED ')) return named(7)
  if (line.startsWith('ERROR ')) return named(6)
  if (verdict.endsWith(' ... FAIL') || verdict.endsWith(' ... ERROR')) return true
  return (verdict.endsWith(' FAILED') || verdict.endsWith(' ERROR')) && named(0)
}

/**
 * True when the salient line `s` opens a Python runner's report of its failures: pytest's
 * `=== FAILURES ===` / `=== ERRORS ===`, or unittest's first `ERROR: test (mod.Case)` right
 * under its rule of `=`.
 */
function opensPythonReport(text: string, s: { start: number; end: number }): boolean {
  const from = afterLinePrefix(text, s.start, s.end)
  const c = text.charCodeAt(from)
  if (c === 61) return s.end - from <= 200 && PYTEST_REPORT.test(text.slice(from, s.end))
  if ((c !== 69 && c !== 70) || !UNITTEST_REPORT.test(text.slice(from, Math.min(s.end, from + 300)))) return false
  if (s.start < 2) return false
  const above = lineAt(text, 0, text.lastIndexOf('\n', s.start - 2) + 1)
  const aboveFrom = afterLinePrefix(text, above.start, above.end)
  const rule = trimmedEnd(text, aboveFrom, above.end)
  if (rule - aboveFrom < 20) return false
  for (let i = aboveFrom; i < rule; i++) if (text.charCodeAt(i) !== 61) return false
  return true
}

/**
 * True when the salient line whose text starts at `from` (after its prefix; it starts with `E` or
 * `F`) may open unittest's report or end its run: `ERROR: `, `FAIL: `, `FAILED (`. A line that
 * starts with `=` is a candidate too (pytest's report and summary). See {@link demoteBeforeReport}.
 */
export function mayEndOrReport(text: string, from: number): boolean {
  return text.startsWith('ERROR: ', from) || text.startsWith('FAIL: ', from) || text.startsWith('FAILED (', from)
}

/** A compiler's or a type checker's diagnostic without a column: mypy's `src/a.py:3: error: ...`. */
const LINE_DIAGNOSTIC = /^\S+:\d+: (?:error|fatal error): /

/** True when the salient line `s` is a build tool's diagnostic of {@link LINE_DIAGNOSTIC}'s shape (read in its first {@link TEST_LINE_CHARS} chars). */
function isDiagnostic(text: string, s: { start: number; end: number }): boolean {
  const from = afterLinePrefix(text, s.start, s.end)
  return LINE_DIAGNOSTIC.test(text.slice(from, Math.min(s.end, from + TEST_LINE_CHARS)))
}

/** What starts a command's output: a GitHub Actions step's `##[group]Run `, tox's `commands[0] | `, a shell's echoed `$ ` (Travis CI after its `travis_time` mark, GitLab). */
const COMMAND_MARKS = ['##[group]Run ', '] | ', '\n$ ', '\r$ ', '\x1b[0K$ ']

/**
 * Offset of the last command's start (see {@link COMMAND_MARKS}) in `text[from, to)`, `from` when
 * none. Reads the span once per mark, and a line holding `] | ` once more (tox's needs
 * ` commands[` before it on its line).
 */
function lastCommand(text: string, from: number, to: number): number {
  const span = text.slice(from, to)
  let best = 0
  for (const mark of COMMAND_MARKS) {
    let at = span.lastIndexOf(mark)
    if (mark === '] | ') {
      while (at > best) {
        const lineStart = span.lastIndexOf('\n', at) + 1
        if (span.slice(lineStart, at).includes(' commands[')) break
        at = lineStart > 0 ? span.lastIndexOf(mark, lineStart - 1) : -1
      }
    }
    if (at > best) best = at
  }
  return from + best
}

/**
 * A Python test run that reports its failures at its end (pytest's `=== FAILURES ===`, unittest's
 * `ERROR: test (mod.Case)` blocks) holds each failure's traceback and message there: what was
 * printed with an error word while the run went on (a package that could not be imported and was
 * skipped, a library's logged retries) is not the verdict. The salient lines between the run's
 * start and its report score 1, except a failed test's line ({@link isPythonTestLine}) and a
 * crash's `Fatal Python error:`. The run starts after the previous run's summary (pytest's `===
 * 1 failed ... ===`, unittest's `FAILED (errors=1)`) or the log's start, at the last command
 * above its report ({@link COMMAND_MARKS}), and after the last line above its report with
 * another runner's or a build tool's shape (`runners.ts` runnerLine: go's `--- FAIL: TestX`,
 * Gradle's `> Task :a:test FAILED`, a compiler's `a.c:3:1: error:`; mypy's `a.py:3: error:`),
 * whose lines are another step's; a pytest run starts at its `test session starts` line, and
 * without one (`pytest -q`, a report pasted after other output) nothing is demoted.
 * `candidates`: indexes in `salient` of the lines that may open a report or end a run,
 * ascending. The spans read are apart: linear.
 */
export function demoteBeforeReport(text: string, salient: { start: number; end: number; score: number }[], candidates: readonly number[]): void {
  let runStart = 0
  let reported = false
  const shapeOf = (s: { start: number; end: number }) => runnerLine(text.slice(s.start, Math.min(s.end, s.start + TEST_LINE_CHARS))).shape
  for (const r of candidates) {
    const s = salient[r]!
    const at = afterLinePrefix(text, s.start, s.end)
    if (text.charCodeAt(at) === 61 ? shapeOf(s) === 'summary' : text.startsWith('FAILED (', at)) {
      runStart = r + 1
      reported = false
      continue
    }
    if (reported || !opensPythonReport(text, s)) continue
    reported = true
    // (pytest's run starts at its `=== test session starts ===` line: what ran before it is another
    // step's; without that line, `pytest -q` or a report pasted after other output, nothing is)
    const from = runStart > 0 ? salient[runStart - 1]!.end : 0
    let first = from
    if (text.charCodeAt(at) === 61) {
      const session = text.slice(from, s.start).lastIndexOf(' test session starts ')
      if (session === -1) continue
      first = from + session
    }
    // (the step that ran the tests starts at its command: a CI step's, a tox command's)
    const step = lastCommand(text, first, s.start)
    if (step > first) first = step
    // (another runner's failure or summary, a build tool's diagnostic, ends what is demoted: the
    // lines above it are that step's, `--- FAIL: TestX` under its messages, Gradle's `> Task ...
    // FAILED`, mypy's `a.py:3: error:`; and a crash's report is kept: `Fatal Python error:`)
    const keep: boolean[] = []
    let top = r
    for (; top > runStart && salient[top - 1]!.start >= first; top--) {
      const line = salient[top - 1]!
      const test = isPythonTestLine(text, line)
      if (!test && (shapeOf(line) !== undefined || isDiagnostic(text, line))) break
      keep.push(test || text.startsWith('Fatal Python error: ', afterLinePrefix(text, line.start, line.end)))
    }
    for (let k = top; k < r; k++) {
      const line = salient[k]!
      if (line.score > 1 && !keep[r - 1 - k]!) line.score = 1
    }
    runStart = r
  }
}
