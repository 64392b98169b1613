/**
 * A line's own verdict at its end: a test runner's progress and success words (`passed`,
 * `started`, `ok`, ...) that make a failure word earlier in the line part of a name
 * (`Test Case '-[A testFailOnError]' passed`), not a failure. Read backwards from the line end,
 * a bounded number of chars, no regex. And at its start: a runner's pass mark or word (`✓`,
 * `PASS`, `[       OK ]`, TAP's `ok 3`) before a test whose name holds a failure word.
 */
import { isDigit, isLetter } from './chars.js'
import { afterLinePrefix, trimmedEnd } from './shapes.js'


/** Last words of a line that report a test's progress or success, not a failure. */
const SUCCESS_ENDS = ['passed', 'started', 'succeeded', 'skipped', 'ok', 'xpass', 'xfail']

/** True when `text[w, e)` is `word` (lower case) in any case. No allocation. */
function sameWord(text: string, w: number, e: number, word: string): boolean {
  if (e - w !== word.length) return false
  for (let k = 0; k < word.length; k++) if ((text.charCodeAt(w + k) | 32) !== word.charCodeAt(k)) return false
  return true
}

/**
 * True when the line `[start, end)` ends with a success or progress verdict (`... passed (0.001
 * seconds).`, `Test "x" started.`, `test x ... ok`), not preceded by a count (`3 passed` is a
 * summary): a keyword earlier in it is part of a name (`testFailOnError`, `"Error diagnostics"`).
 * pytest -v's progress at the end (`PASSED        [ 94%]`) and its padding are skipped first, and
 * a duration after the verdict (Swift Testing's `Test "x" passed after 0.001 seconds.`, CTest's
 * `Passed    0.01 sec`), which then counts only after a test's name (`"` `'` `)` `]` `.` before
 * the verdict word: not `Elasticsearch not started after 60 s`). `passOnly`: a test that passed
 * or was skipped, not one that `started` (the failing test's own start line is its context).
 * Reads at most the last 48 chars (plus a progress bracket and 200 blanks of padding, or a
 * duration's 48 chars), backwards.
 */
export function endsWithSuccess(text: string, start: number, end: number, passOnly = false): boolean {
  let stop = Math.max(start, end - 48)
  let e = end
  while (e > stop && (text.charCodeAt(e - 1) === 32 || text.charCodeAt(e - 1) === 46 || text.charCodeAt(e - 1) === 13)) e--
  if (text.charCodeAt(e - 1) === 93 /* ] */ && text.charCodeAt(e - 2) === 37 /* % */) {
    // pytest -v's progress: `tests/a.py::test_errors PASSED      [ 94%]`
    let open = e - 3
    while (open >= stop && open > e - 10 && (isDigit(text.charCodeAt(open)) || text.charCodeAt(open) === 32)) open--
    if (open < stop || text.charCodeAt(open) !== 91) return false
    // the padding to the terminal's width before it (at most 200 blanks), then 48 chars as usual
    e = open
    while (e > start && open - e < 200 && text.charCodeAt(e - 1) === 32) e--
    stop = Math.max(start, e - 48)
  }
  // A duration after the verdict: Swift Testing's `Test "x" passed after 0.001 seconds.`,
  // CTest's `1/3 Test #1: parser_error ....   Passed    0.01 sec`
  const lead = beforeDuration(text, stop, e)
  const timed = lead !== e
  if (timed) {
    e = lead
    stop = Math.max(start, e - 48)
  }
  if (text.charCodeAt(e - 1) === 41 /* ) */) {
    // a duration in parentheses: `(0.000 seconds)`, `(12 ms)`
    let open = e - 2
    while (open >= stop && text.charCodeAt(open) !== 40) open--
    if (open < stop) return false
    e = open
    while (e > stop && text.charCodeAt(e - 1) === 32) e--
  }
  let w = e
  while (w > stop && isLetter(text.charCodeAt(w - 1))) w--
  if (w === e || (w > start && text.charCodeAt(w - 1) !== 32)) return false
  if (!SUCCESS_ENDS.some((word) => sameWord(text, w, e, word))) return false
  if (passOnly && sameWord(text, w, e, 'started')) return false
  if (e - w === 2 && w - 4 >= start && text.slice(w - 4, w).toLowerCase() === 'not ') return false // TAP's `not ok`
  // `3 passed`: a count before it makes it a summary
  let d = w - 1
  while (d > start && text.charCodeAt(d - 1) === 32) d--
  const before = text.charCodeAt(d - 1)
  // Before a duration, the verdict follows a test's name (`Test "x" passed after ...`,
  // `throwsError() passed after ...`, CTest's `parser ....   Passed    0.01 sec`), not prose
  // (`ERROR: Elasticsearch not started after 60 s`).
  if (timed) return d > start && NAME_ENDS.includes(before)
  return !isDigit(before)
}

/** Chars that end a test's name before a verdict and its duration: `"` `'` `)` `]` `.`. */
const NAME_ENDS = [34, 39, 41, 93, 46]

/** Units of a duration written after a verdict (see {@link beforeDuration}). */
const DURATION_UNITS = [' seconds', ' second', ' secs', ' sec', ' ms', ' s']

/**
 * End of `text[stop, e)` without a trailing duration: ` <number> <unit>` (a unit of
 * {@link DURATION_UNITS}), with the blanks and an ` after` before it; `e` when there is none.
 * Reads at most the 48 chars before `e`.
 */
function beforeDuration(text: string, stop: number, e: number): number {
  // (every unit ends with s, d or c: most lines end with none, and no unit is tried)
  const last = text.charCodeAt(e - 1)
  if (last !== 115 && last !== 100 && last !== 99) return e
  const unit = DURATION_UNITS.find((u) => e - u.length > stop && text.endsWith(u, e))
  if (unit === undefined) return e
  let k = e - unit.length
  const digitsEnd = k
  while (k > stop && (isDigit(text.charCodeAt(k - 1)) || text.charCodeAt(k - 1) === 46)) k--
  if (k === digitsEnd || !isDigit(text.charCodeAt(digitsEnd - 1)) || text.charCodeAt(k - 1) !== 32) return e
  while (k > stop && text.charCodeAt(k - 1) === 32) k--
  if (k - 6 >= stop && text.endsWith(' after', k)) k -= 6
  return k
}

/** Chars of indentation skipped before a leading pass verdict. */
const LEAD_INDENT = 16

/**
 * True when the line `[start, end)` starts (after a CI timestamp and indentation) with a test
 * runner's pass verdict: a check mark (`✓ ✔ √`, Mocha, Vitest, Jest, XCTest formatters), `PASS`
 * / `PASSED` in capitals (Jest, cargo nextest, pytest -v), GoogleTest's `[       OK ]` /
 * `[  PASSED  ]`, TAP's and go test's `ok` before a number or a blank, or .NET's `Passed
 * Ns.Class.Test [12 ms]` (its console logger; the line ends with the duration's `]`): a failure
 * word after it names the test (`✓ fails to remove a locked job`, `PASS [0.01s] tests::error_returns_400`).
 * Reads at most a few dozen chars. `from`: the line's {@link afterLinePrefix}, when the caller has it.
 */
export function startsWithSuccess(text: string, start: number, end: number, from = afterLinePrefix(text, start, end)): boolean {
  let i = from
  while (i < end && i - from < LEAD_INDENT && isBlankCode(text.charCodeAt(i))) i++
  if (i + 2 >= end) return false
  const c = text.charCodeAt(i)
  if (c === 0x2713 || c === 0x2714 || c === 0x221a) return isBlankCode(text.charCodeAt(i + 1))
  if (c === 111 /* o */) return text.charCodeAt(i + 1) === 107 /* k */ && isBlankCode(text.charCodeAt(i + 2))
  if (c === 80 /* P */) {
    // .NET's console logger: `  Passed Ns.Class.Test [12 ms]`
    if (text.startsWith('Passed ', i)) return text.charCodeAt(i + 7) !== 32 && endsWithVstestDuration(text, i + 7, end)
    if (!text.startsWith('PASS', i)) return false
    const k = text.startsWith('PASSED', i) ? i + 6 : i + 4
    return k < end && (isBlankCode(text.charCodeAt(k)) || text.charCodeAt(k) === 58)
  }
  if (c === 91 /* [ */) {
    const x = afterXdistPrefix(text, i, end)
    if (x !== -1) return XDIST_PASS.some((w) => text.startsWith(w, x) && x + w.length < end && isBlankCode(text.charCodeAt(x + w.length)))
    let k = i + 1
    while (k < end && k - i < 12 && text.charCodeAt(k) === 32) k++
    const word = text.startsWith('OK', k) ? 2 : text.startsWith('PASSED', k) ? 6 : 0
    if (word === 0) return false
    k += word
    while (k < end && k - i < 14 && text.charCodeAt(k) === 32) k++
    return text.charCodeAt(k) === 93
  }
  return false
}

const isBlankCode = (c: number): boolean => c === 32 || c === 9

/**
 * True when `text[from, end)` ends with a vstest duration in brackets: `[12 ms]`, `[< 1 ms]`,
 * `[1 s]`, `[2 m 3 s]` (digits, `.`, blanks, `<` and the units `ms`, `s`, `m`, `h` only, a
 * unit last). Reads at most the last 24 chars.
 */
function endsWithVstestDuration(text: string, from: number, end: number): boolean {
  const e = trimmedEnd(text, from, end)
  if (text.charCodeAt(e - 1) !== 93 /* ] */) return false
  const unit = text.charCodeAt(e - 2)
  if (unit !== 115 /* s */ && unit !== 109 /* m */ && unit !== 104 /* h */) return false
  let digits = 0
  for (let k = e - 2; k >= from && e - k <= 24; k--) {
    const c = text.charCodeAt(k)
    if (c === 91 /* [ */) return digits > 0 && k > from && text.charCodeAt(k - 1) === 32
    if (isDigit(c)) digits++
    else if (c !== 32 && c !== 46 && c !== 60 && c !== 115 && c !== 109 && c !== 104) return false
  }
  return false
}


/** pytest-xdist's verdicts (after its `[gw0] [ 94%] ` prefix) that are no failure. */
const XDIST_PASS = ['PASSED', 'SKIPPED', 'XFAIL', 'XPASS']

/**
 * The offset after pytest-xdist's verbose prefix at `i` (`[gw3] [ 94%] `, a worker and the
 * progress), or -1. At most a few dozen chars read.
 */
function afterXdistPrefix(text: string, i: number, end: number): number {
  if (!text.startsWith('[gw', i)) return -1
  let k = i + 3
  const d = k
  while (k < end && k - d < 4 && isDigit(text.charCodeAt(k))) k++
  if (k === d || text.charCodeAt(k) !== 93 || text.charCodeAt(k + 1) !== 32 || text.charCodeAt(k + 2) !== 91) return -1
  k += 3
  const p = k
  while (k < end && k - p < 4 && (isDigit(text.charCodeAt(k)) || text.charCodeAt(k) === 32)) k++
  if (text.charCodeAt(k) !== 37 || text.charCodeAt(k + 1) !== 93 || text.charCodeAt(k + 2) !== 32) return -1
  return k + 3
}
