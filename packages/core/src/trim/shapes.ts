/**
 * Test-runner lines that carry no failure keyword, found by their shape at the line start so that
 * the salience scan considers every line, not only the keyword scan's hits. Each shape is written
 * from the runner's documented output format:
 *
 * | runner | line | score |
 * | --- | --- | --- |
 * | pytest | `____ test_name ____` (a failing test's section header) | 3 |
 * | pytest | `E       assert 1 == 2` (the `E   ` explanation lines) | 2 |
 * | Jest | `  ● Suite › test name` (a failing test's header) | 3 |
 * | Jest | `    console.error` (an entry of what the code under test logged; indented) | {@link QUIET_BLOCK}: its block scores 1 |
 * | go test | `--- PASS: TestX (0.01s)`, `--- SKIP: TestX` (a verdict; the test's log) | {@link QUIET_BLOCK} |
 * | gotestsum | `=== SKIP: pkg TestX (0.00s)`, `::group::PASS pkg.TestX (0.00s)` (a skipped or passing test's output) | {@link QUIET_BLOCK} |
 * | gotestsum | `✖  pkg/a (1.2s)` (a failed package) | 3 |
 * | cargo test | `---- tests::name stdout ----` (a failing test's captured output) | 3 |
 * | Gradle | `* What went wrong:` | 3 |
 * | PHPUnit | `1) Ns\ClassTest::testName` | 3 |
 * | Mocha | `  1) suite name`, `  2) "before all" hook` (a numbered failure; its reporter marks a passing test `✓`, a pending one `-`) | 3 |
 * | RSpec | `rspec ./spec/x_spec.rb:12 # description` (a failed example) | 3 |
 * | Rails (minitest) | `rails test test/x_test.rb:12` (a failed test's rerun line) | 3 |
 * | Cucumber | `cucumber features/x.feature:12 # Scenario: y` (a failing scenario) | 3 |
 * | Vitest, Jest, node:test, AVA | `× a.test.ts > suite > test 5ms`, `✕ test`, `✖ test`, `✘ test` (a failed test's mark) | 3 |
 * | Swift Testing | `􀢄  Test "name" recorded an issue at a.swift:3:5: ...` (after its status glyph) | 3 |
 * | go test | `    a_test.go:12: got 1, want 2` (t.Error's message: an indented `_test.go:N:` location; a failure line as a keyword's is, round 16) | 4 |
 * | go test -json | `{"Time":...,"Output":"--- FAIL: ..."}`: the `Output` field judged as a line (above) | as its text |
 * | go test -json | `{"Action":"pass",...,"Test":"TestX"}` (a test passed or was skipped: its output events) | {@link JSON_PASS} |
 * | Dart, Flutter (compact reporter) | `00:01 +3 -1: test name [E]` (a failed test) | 3 |
 * | any tool | a line whose content starts in red (`\x1b[31m`, `\x1b[1;31m`: {@link redStart}; not Docker's bright-red stderr) | {@link RED_SCORE} |
 * | Pest, Collision | `⨯ it parses` (a failed test's mark) | 3 |
 * | kotlinc (Gradle, Maven) | `e: file:///src/A.kt:12:5 Type mismatch: ...` (an error; its message may carry no keyword) | 3 |
 * | compilers, linters | `./a.go:12:5: undefined: x`, `/src/a.c:3:1: ...` (a location with a column at the line start, a path from `.` or `/`; not `note:`/`help:`) | 2 |
 *
 * Cost: a switch on one char code per line (after a line prefix, afterLinePrefix, and at most 8
 * spaces of indentation); only lines starting with one of `_ E e ● - = * # : r c { . /`, an escape, a digit, and
 * indented lines (their first token, for go test's location), read a few more chars, and never
 * past a bounded prefix (a JSON line: {@link JSON_PROBE} chars for its `Output` field). No regex.
 */
import { isDigit, isLetter, isLetterOrDigit, isUpper } from './chars.js'

/** Chars of indentation skipped before the first char is looked at. */
const MAX_INDENT = 8
/** Chars of a line the shapes read at most. */
const PROBE = 200


/** Offset after the ANSI colour codes (SGR: `\x1b[1m`, `\x1b[31;1m`) at `i`, at most 3 of them, each at most 12 chars. */
export function afterSgr(text: string, i: number, end: number): number {
  for (let n = 0; n < 3 && text.charCodeAt(i) === 27 && text.charCodeAt(i + 1) === 91; n++) {
    let k = i + 2
    while (k < end && k - i < 12 && (isDigit(text.charCodeAt(k)) || text.charCodeAt(k) === 59)) k++
    if (text.charCodeAt(k) !== 109) break
    i = k + 1
  }
  return i
}

/** True when `text` holds `n` ASCII digits at `at`. */
function digitsAt(text: string, at: number, n: number): boolean {
  for (let k = 0; k < n; k++) if (!isDigit(text.charCodeAt(at + k))) return false
  return true
}

/** Most digits of a timestamp's fraction of a second read (GitHub Actions prints 7). */
const FRACTION_MAX = 9
/** Longest container name read in a {@link afterService} prefix. */
const SERVICE_MAX = 64
/** Most chars of a timestamp {@link stampEnd} reads (a bracketed ISO stamp with a 9-digit fraction and a zone is 37). */
const STAMP_CHARS = 40
/** Longest job's or step's name {@link afterJobAndStep} reads. */
const GH_NAME_MAX = 100
/**
 * Longest line prefix {@link afterLinePrefix} skips: a label (a job's and a step's names with
 * their tabs and a byte-order mark, the longest), a timestamp and its space, GitLab's stream
 * marker, then a container's or a task's label (or a level's pad).
 */
export const LINE_PREFIX_MAX = 2 * (GH_NAME_MAX + 1) + 1 + STAMP_CHARS + 1 + 4 + SERVICE_MAX + 3

/**
 * Offset right after the timestamp that starts the line at `start` (none past `end`), else -1.
 * The forms CI systems and loggers put before every line:
 *
 * - GitHub Actions / Azure Pipelines: `2024-01-02T03:04:05.1234567Z`;
 * - an ISO or `date time` stamp, with an optional fraction (`.` or `,`) and zone (`Z`, `+01:00`,
 *   `+0100`): `2024-01-02 03:04:05,678` (Python's logging), `2024-01-02T03:04:05.678+01:00`;
 * - a clock alone, `03:04:05` or `03:04:05.678` (Jenkins' Timestamper plugin);
 * - Go's `log` package: `2024/01/02 03:04:05` (a date with slashes);
 * - any of these in brackets or parentheses: `[2024-01-02T03:04:05.678Z]` (Jenkins Pipeline),
 *   `[03:04:05]`, `(03:04:05)` (Bazel's `--show_timestamps`).
 *
 * Reads at most {@link STAMP_CHARS} chars, char codes only.
 */
function stampEnd(text: string, start: number, end: number): number {
  let i = start
  const open = text.charCodeAt(i)
  const bracket = open === 91 || open === 40
  if (bracket) i++
  if (!isDigit(text.charCodeAt(i)) || end - i < 8) return -1
  // the date, YYYY-MM-DD (or YYYY/MM/DD) then `T` or a space (its separators and ends: every line of a log pays this)
  const dash = text.charCodeAt(i + 4)
  if (dash === 45 || dash === 47) {
    if (text.charCodeAt(i + 7) !== dash || !isDigit(text.charCodeAt(i + 9))) return -1
    const sep = text.charCodeAt(i + 10)
    if (sep !== 84 && sep !== 32) return -1
    i += 11
  }
  // the clock, HH:MM:SS
  if (text.charCodeAt(i + 2) !== 58 || text.charCodeAt(i + 5) !== 58 || !isDigit(text.charCodeAt(i)) || !isDigit(text.charCodeAt(i + 7)) || !digitsAt(text, i + 3, 2)) return -1
  i += 8
  const dot = text.charCodeAt(i)
  if ((dot === 46 || dot === 44) && isDigit(text.charCodeAt(i + 1))) {
    const from = ++i
    while (i - from < FRACTION_MAX && isDigit(text.charCodeAt(i))) i++
  }
  const z = text.charCodeAt(i)
  if (z === 90) i++
  else if ((z === 43 || z === 45) && digitsAt(text, i + 1, 2)) {
    i += 3
    if (text.charCodeAt(i) === 58) i++
    if (digitsAt(text, i, 2)) i += 2
  }
  if (bracket) {
    if (text.charCodeAt(i) !== (open === 91 ? 93 : 41)) return -1
    i++
  }
  return i <= end ? i : -1
}

/**
 * Offset after the prefix a CI system, a logger, a container runner or a task runner put before
 * the line `[start, end)`: a label saying which process printed it ({@link afterLabel}:
 * `web-1  | `, `web:test: `, `build\tRun tests\t`) and a timestamp with the space after it
 * ({@link stampEnd}: `2024-01-02T03:04:05.1234567Z `, `[03:04:05] `), in either order or both
 * around it (`docker compose logs -t` puts the stamp after the name, GitHub Actions its own
 * before it; `gh run view --log` its job and step before the stamp, turbo's label after it);
 * `start` when there is none. A logger's level padded to five chars after a stamp (Spring Boot's
 * `%5p`: `2024-01-02T03:04:05.678+01:00  INFO 4242 --- [main] ...`) loses its pad space: it is
 * not an indentation. Reads at most {@link LINE_PREFIX_MAX} chars.
 */
export function afterLinePrefix(text: string, start: number, end: number): number {
  const service = afterLabel(text, start, end)
  const e = stampEnd(text, service, end)
  if (e === -1 || e >= end || text.charCodeAt(e) !== 32) return service
  return afterStamp(text, e + 1, end)
}

/** Offset after what may follow a timestamp's space at `at`: a container's name, else a level's pad. */
function afterStamp(text: string, at: number, end: number): number {
  const from = afterStream(text, at, end)
  const label = afterService(text, from, end)
  return label === from ? afterLevelPad(text, from, end) : label
}

/** {@link afterStamp} without a label: GitLab's stream marker, then a level's pad. */
function afterStampUnlabelled(text: string, at: number, end: number): number {
  return afterLevelPad(text, afterStream(text, at, end), end)
}

/** `0`-`9`, `a`-`f`. */
const isHexDigit = (c: number): boolean => isDigit(c) || (c >= 97 && c <= 102)

/**
 * `at` past the stream marker a GitLab runner (17.0 and later: `FF_TIMESTAMPS`, on by default
 * since 18.7) puts after each line's timestamp, else `at`: the stream's two hex digits, `O`
 * (stdout) or `E` (stderr), then a space, or `+` when the line goes on from the one before
 * (`2024-01-02T03:04:05.123456Z 01O `, `... 00O+`). Only after a stamp in UTC (its `Z` before the
 * space at `at - 1`): `[03:04:05] 99O output` holds none.
 */
function afterStream(text: string, at: number, end: number): number {
  const sep = text.charCodeAt(at + 3)
  if ((sep !== 32 && sep !== 43) || at + 4 > end || text.charCodeAt(at - 2) !== 90) return at
  const kind = text.charCodeAt(at + 2)
  return (kind === 79 || kind === 69) && isHexDigit(text.charCodeAt(at)) && isHexDigit(text.charCodeAt(at + 1)) ? at + 4 : at
}

/** Longest timestamp (and its space) a {@link LinePrefixReader} remembers. */
const STAMP_MEMO_MAX = 48
/** Longest label a {@link LinePrefixReader} remembers (a job's and a step's names with their tabs). */
const LABEL_MEMO_MAX = 2 * (GH_NAME_MAX + 1)

/**
 * {@link afterLinePrefix} for the lines of one log, in order: a log stamps its lines alike, so
 * the reader remembers the last timestamp it parsed at a line's start (where its chars other
 * than digits are: `-`, `T`, `:`, `.`, `Z`, the space after it) and reads a line that has the
 * same chars at the same places and a digit first without parsing its stamp again: the same
 * offset as `afterLinePrefix` on every line whose stamp holds digits where the last one did
 * (the parse reads no char past that space, and tells its chars apart only as digits or as
 * those chars). It reads the labels of the kinds the log holds ({@link labelKinds}), and
 * remembers the last line's label to read the next one that starts with the same chars. With no
 * kind it reads no label, before a stamp or after it; without {@link JOB_LABELS}, no job's and
 * step's; without {@link SERVICE_LABELS}, no container's or task's (a `gh run view --log`
 * capture's lines read a job's label, a stamp, then their content).
 */
export class LinePrefixReader {
  private readonly at = new Uint8Array(STAMP_MEMO_MAX)
  private readonly chars = new Uint16Array(STAMP_MEMO_MAX)
  private count = 0
  private width = 0
  /** The last line's label (`web:test: `, `build\tRun tests\t`), when it ends with a space or a tab; else of length 0. */
  private readonly labelChars = new Uint16Array(LABEL_MEMO_MAX)
  private labelLength = 0
  /** Whether the remembered stamp is in GitHub Actions' form (`...T03:04:05.1234567Z`). */
  private memoActions = false

  private readonly services: boolean
  private readonly jobs: boolean
  /** Whether a container's or a task's label may follow a stamp ({@link SERVICE_LABELS}). */
  private readonly named: boolean

  /** `kinds`: the {@link labelKinds} of the log (none read without it, no job's label without {@link JOB_LABELS}). */
  constructor(kinds: number) {
    this.services = kinds !== 0
    this.jobs = (kinds & JOB_LABELS) !== 0
    this.named = (kinds & SERVICE_LABELS) !== 0
  }

  /** {@link afterLinePrefix}`(text, start, end)`, reading only the log's {@link labelKinds}. */
  after(text: string, start: number, end: number): number {
    if (this.services) {
      const n = this.labelLength
      if (n > 0 && start + n <= end && this.sameLabel(text, start)) {
        const p = start + n
        const q = this.afterStampAt(text, p, end)
        // (a job's and step's label is one only before GitHub's stamp, afterJobAndStep: the stamp
        // just read is the remembered one, unless it was too long to remember)
        if (this.labelChars[n - 1] !== 9 || (q > p && this.memoActions && this.stampLikeLast(text, p, end))) return q
        return afterLinePrefix(text, start, end)
      }
      const p = afterLabel(text, start, end, this.jobs)
      const tail = text.charCodeAt(p - 1)
      this.labelLength = 0
      if (p > start && p - start <= LABEL_MEMO_MAX && (tail === 32 || tail === 9)) {
        for (let k = start; k < p; k++) this.labelChars[k - start] = text.charCodeAt(k)
        this.labelLength = p - start
      }
      return this.afterStampAt(text, p, end)
    }
    const c = text.charCodeAt(start)
    // (a line that starts with neither holds no timestamp first)
    if (c !== 91 && c !== 40 && !isDigit(c)) return start
    // (the common line, inline: a stamp like the last one)
    if (isDigit(text.charCodeAt(c === 91 || c === 40 ? start + 1 : start)) && this.stampLikeLast(text, start, end)) return afterStampUnlabelled(text, start + this.width, end)
    return this.afterStampAt(text, start, end)
  }

  /**
   * {@link after}'s answer for a line of a log read without labels (no {@link labelKinds}) that
   * starts with a digit (the caller checked), when it opens with a stamp like the last one and
   * nothing may follow that stamp's space (no level's pad; after a stamp in UTC, no GitLab stream
   * marker); -1 when the line needs {@link after}. The scan's common line, in one comparison per
   * separator and two or three reads.
   */
  plain(text: string, start: number, end: number): number {
    if (this.services || !this.stampLikeLast(text, start, end)) return -1
    const p = start + this.width
    if (text.charCodeAt(p) === 32) return -1
    // (this line's stamp, not the remembered one: a separator like the last stamp's may stand
    // where that one had a digit, `03:04:05.12Z` after `03:04:05.123`)
    if (text.charCodeAt(p - 2) === 90) {
      const sep = text.charCodeAt(p + 3)
      if (sep === 32 || sep === 43) return -1
    }
    return p
  }

  /** True when a stamp with the remembered one's chars other than digits, at their places, starts at `at`. */
  private stampLikeLast(text: string, at: number, end: number): boolean {
    const { at: where, chars, count, width } = this
    if (width === 0 || at + width > end) return false
    for (let k = 0; k < count; k++) if (text.charCodeAt(at + where[k]!) !== chars[k]) return false
    return true
  }

  /** True when the line at `start` starts with the remembered label (the caller checked it fits). */
  private sameLabel(text: string, start: number): boolean {
    const { labelChars, labelLength } = this
    // (its last char first: a space or a tab, where another label differs soonest)
    for (let k = labelLength - 1; k >= 0; k--) if (text.charCodeAt(start + k) !== labelChars[k]) return false
    return true
  }

  /** Offset after the timestamp at `at` and what may follow it ({@link afterStamp}, or a level's pad without `services`); `at` when there is none. */
  private afterStampAt(text: string, at: number, end: number): number {
    const c = text.charCodeAt(at)
    if (c !== 91 && c !== 40 && !isDigit(c)) return at
    if (isDigit(text.charCodeAt(c === 91 || c === 40 ? at + 1 : at)) && this.stampLikeLast(text, at, end)) {
      const p = at + this.width
      return this.named ? afterStamp(text, p, end) : afterStampUnlabelled(text, p, end)
    }
    const e = stampEnd(text, at, end)
    if (e === -1 || e >= end || text.charCodeAt(e) !== 32) return at
    if (e + 1 - at <= STAMP_MEMO_MAX) {
      this.memoActions = text.charCodeAt(at + 10) === 84 && text.charCodeAt(e - 1) === 90
      this.width = e + 1 - at
      this.count = 0
      for (let k = 0; k < this.width; k++) {
        const x = text.charCodeAt(at + k)
        if (isDigit(x)) continue
        this.at[this.count] = k
        this.chars[this.count++] = x
      }
    }
    return this.named ? afterStamp(text, e + 1, end) : afterStampUnlabelled(text, e + 1, end)
  }
}

/** Lines of a log's start {@link labelKinds} reads. */
const SERVICE_PROBE_LINES = 50
/** Windows past the start {@link labelKinds} reads, spread evenly over the log, and lines in each. */
const SERVICE_PROBE_WINDOWS = 10
const SERVICE_WINDOW_LINES = 5

/** {@link labelKinds}: a container's or a task's label (`web-1  | `, `web:test: `), before or after a stamp. */
export const SERVICE_LABELS = 1
/** {@link labelKinds}: a CI job's and step's names before the stamp (`gh run view --log`'s `build\tRun tests\t`). */
export const JOB_LABELS = 2

/**
 * The kinds of label ({@link SERVICE_LABELS}, {@link JOB_LABELS}, or both: 0 for none) that two
 * lines of `text` hold alike: of its first {@link SERVICE_PROBE_LINES} lines (`docker compose up`
 * prints `Attaching to web-1` and its own progress first) and of {@link SERVICE_PROBE_WINDOWS}
 * windows of {@link SERVICE_WINDOW_LINES} lines spread over the rest (a CI job's set-up steps come
 * before its `turbo run test`). A runner labels every line it relays, so a label seen once (Vite's
 * `[vite]: `, a `psql:` location) does not count. Reads at most 100 lines, each up to its end.
 */
export function labelKinds(text: string): number {
  // (each label seen, behind its kind's digit)
  const seen = new Set<string>()
  let kinds = 0
  const note = (kind: number, label: string): void => {
    const key = `${kind}${label}`
    if (seen.has(key)) kinds |= kind
    else seen.add(key)
  }
  const probe = (from: number, lines: number): void => {
    let start = from
    for (let n = 0; n < lines && start < text.length; n++) {
      let end = text.indexOf('\n', start)
      if (end === -1) end = text.length
      let at = afterService(text, start, end)
      if (at > start) note(SERVICE_LABELS, text.slice(start, at))
      else {
        at = afterJobAndStep(text, start, end)
        if (at > start) note(JOB_LABELS, text.slice(start, at))
      }
      const e = stampEnd(text, at, end)
      if (e !== -1 && e < end && text.charCodeAt(e) === 32) {
        // (after GitLab's stream marker, when there is one)
        const from = afterStream(text, e + 1, end)
        const label = afterService(text, from, end)
        if (label > from) note(SERVICE_LABELS, text.slice(from, label))
      }
      start = end + 1
    }
  }
  probe(0, SERVICE_PROBE_LINES)
  for (let k = 1; k <= SERVICE_PROBE_WINDOWS && kinds !== (SERVICE_LABELS | JOB_LABELS); k++) {
    const nl = text.indexOf('\n', Math.floor((text.length * k) / (SERVICE_PROBE_WINDOWS + 1)))
    if (nl !== -1) probe(nl + 1, SERVICE_WINDOW_LINES)
  }
  return kinds
}

/** Longest `[LEVEL] ` tag {@link afterLevel} skips (`[INFO] `, `[WARNING] `). */
const LEVEL_TAG = 10

/** Offset after a Maven `[LEVEL] ` tag at `i` (a bracketed word of at most {@link LEVEL_TAG} chars, then a space), or `i`. */
export function afterLevel(text: string, i: number, end: number): number {
  if (text.charCodeAt(i) !== 91 /* [ */) return i
  let k = i + 1
  while (k < end && k - i <= LEVEL_TAG && text.charCodeAt(k) !== 93) k++
  return text.charCodeAt(k) === 93 && text.charCodeAt(k + 1) === 32 ? k + 2 : i
}

/** `at` past one space that pads a logger's upper-case level word of four letters (` INFO `, ` WARN `), else `at`. */
function afterLevelPad(text: string, at: number, end: number): number {
  if (text.charCodeAt(at) !== 32 || at + 6 > end || text.charCodeAt(at + 5) !== 32) return at
  for (let k = at + 1; k < at + 5; k++) if (!isUpper(text.charCodeAt(k))) return at
  return at + 1
}

/**
 * Offset after the label a runner of several processes puts before each line one of them printed,
 * saying which printed it: a container's ({@link afterContainer}: `web-1  | `) or a monorepo
 * task's ({@link afterTaskLabel}: `web:test: `), else `start`.
 */
function afterService(text: string, start: number, end: number): number {
  const from = afterContainer(text, start, end)
  return from > start ? from : afterTaskLabel(text, start, end)
}

/** {@link afterService}, or (unless not `jobs`) a CI job's step's label ({@link afterJobAndStep}: only at a line's start, before its stamp). */
function afterLabel(text: string, start: number, end: number, jobs = true): number {
  const from = afterService(text, start, end)
  return from > start || !jobs ? from : afterJobAndStep(text, start, end)
}

/**
 * Offset after the `job<TAB>step<TAB>` label `gh run view --log` (and `--log-failed`) puts before
 * each line of a GitHub Actions log (`build (ubuntu-latest)\tRun tests\t2024-01-02T03:04:05.1234567Z ...`),
 * else `start`: two names of 1 to {@link GH_NAME_MAX} chars, each ended by a tab, then the line's
 * own timestamp in GitHub's form (a tab-separated table's third column, a `mysql -B` row's
 * `2024-01-02 03:04:05`, is none; a step log's first line may start with a byte-order mark, skipped).
 */
function afterJobAndStep(text: string, start: number, end: number): number {
  let i = start
  for (let name = 0; name < 2; name++) {
    const from = i
    const stop = Math.min(end, from + GH_NAME_MAX + 1)
    // (the tab by a native search over the bounded slice: most lines hold none, and a loop of
    // char reads over their first 101 chars made this the costliest check of every line prefix)
    const tab = text.slice(from, stop).indexOf('\t')
    if (tab <= 0) return start
    i = from + tab + 1
  }
  if (text.charCodeAt(i) === 0xfeff) i++
  return isActionsStamp(text, i, end) ? i : start
}

/** True when an ISO stamp in UTC, as GitHub Actions writes it (`2024-01-02T03:04:05.1234567Z`), starts at `at`. */
function isActionsStamp(text: string, at: number, end: number): boolean {
  if (text.charCodeAt(at + 10) !== 84) return false
  const e = stampEnd(text, at, end)
  return e !== -1 && text.charCodeAt(e - 1) === 90
}

/**
 * Offset after the `name-1  | ` prefix Docker Compose puts before each line a service's
 * container logged (`web-1  | `, `db_1    | ` before Compose v2, foreman's `web.1  | `: a name from a letter, `-`, `_` or `.`, the
 * replica's number, padding, `| `), else `start`. Reads at most {@link SERVICE_MAX} chars.
 */
function afterContainer(text: string, start: number, end: number): number {
  if (!isLetter(text.charCodeAt(start))) return start
  const stop = Math.min(end, start + SERVICE_MAX)
  let i = start + 1
  while (i < stop) {
    const c = text.charCodeAt(i)
    if (!(isLetterOrDigit(c) || c === 45 || c === 95 || c === 46)) break
    i++
  }
  // the replica: `-1` / `_1` (`.1`: foreman) right before the padding
  let d = i
  while (d > start && isDigit(text.charCodeAt(d - 1))) d--
  const sep = text.charCodeAt(d - 1)
  if (d === i || d - 1 <= start || (sep !== 45 && sep !== 95 && sep !== 46)) return start
  if (text.charCodeAt(i) !== 32) return start
  while (i < stop && text.charCodeAt(i) === 32) i++
  if (text.charCodeAt(i) !== 124) return start
  // `| ` then the line, or a bare `|` (a blank line)
  if (i + 1 === end) return end
  return text.charCodeAt(i + 1) === 32 ? i + 2 : start
}

/** Level words a logger puts in brackets (`[info]: `): not a workspace's name. */
const LEVELS = new Set(['trace', 'debug', 'info', 'notice', 'log', 'warn', 'warning', 'error', 'fatal', 'verbose', 'silly', 'http'])

/** A char of a package's, path's or task's name: a letter, a digit, `@` `.` `_` `/` `-`. */
const isNameChar = (c: number): boolean => isLetterOrDigit(c) || c === 64 || c === 46 || c === 95 || c === 47 || c === 45

/** `a`-`z`. */
const isLower = (c: number): boolean => c >= 97 && c <= 122

/**
 * Offset after a task's name at `at` and the space after it, else -1: `:`-separated segments
 * (`test`, `test:unit`) of letters, digits, `_` `.` `-`, the last ended by `:` and a space. Each
 * segment starts with a letter and has a lower-case one (`init.sql:12: ` is a file and a line,
 * `root:WARNING: ` a logger and a level).
 */
function afterTaskName(text: string, at: number, stop: number): number {
  let k = at
  for (;;) {
    if (!isLetter(text.charCodeAt(k))) return -1
    let lower = false
    while (k < stop) {
      const c = text.charCodeAt(k)
      if (!(isLetterOrDigit(c) || c === 95 || c === 46 || c === 45)) break
      if (isLower(c)) lower = true
      k++
    }
    if (!lower || text.charCodeAt(k) !== 58) return -1
    k++
    if (text.charCodeAt(k) === 32) return k + 1
  }
}

/**
 * Offset after the label a monorepo's task runner or `kubectl logs --prefix` puts before each
 * line, else `start`:
 *
 * - Turborepo: `web:test: `, `@acme/web:test:unit: ` (a package's name, `:`, the task's);
 * - pnpm (`pnpm -r run`): `packages/web test: ` (the package's directory, a space, the script's name);
 * - yarn (`yarn workspaces foreach -v`): `[@acme/web]: ` (not a level: `[info]: `);
 * - lerna (`lerna run --stream`): `@acme/web: ` (a scoped name only: `web: ` reads as prose);
 * - kubectl: `[pod/web-7d9f8c6b5-x2x4q/app] `;
 * - Apache Ant: `    [junit] `, `[junitlauncher] ` ({@link afterAntTask}).
 *
 * A package's name is lower-case, as npm's are, with a `/` only after an `@scope` (`ERROR:root: `,
 * `[Screenshot]: `, `config/app.yml:db: ` are no label); a task's segments start with a letter and
 * hold a lower-case one (`src/a.ts:12: ` is a location, `root:WARNING: ` a logger's level); a pnpm
 * directory holds a `/` and no `.`. A label is followed by its space: `x:y:` at a line's end is
 * none. One such look-alike in a log costs little: the scan reads labels on every line only where
 * one repeats ({@link labelKinds}), and elsewhere a look-alike moves where a line's content starts.
 * Reads at most {@link SERVICE_MAX} + 3 chars.
 */
function afterTaskLabel(text: string, start: number, end: number): number {
  const c = text.charCodeAt(start)
  const stop = Math.min(end, start + SERVICE_MAX)
  if (c === 32) return afterAntTask(text, start, stop)
  if (c === 91) {
    // (Ant's long task names start their line: `[junitlauncher] `)
    const ant = afterAntTask(text, start, stop)
    if (ant > start) return ant
    let i = start + 1
    while (i < stop && isNameChar(text.charCodeAt(i))) i++
    if (i === start + 1 || text.charCodeAt(i) !== 93) return start
    const next = text.charCodeAt(i + 1)
    if (next === 32) return text.startsWith('pod/', start + 1) ? i + 2 : start
    if (next !== 58 || text.charCodeAt(i + 2) !== 32) return start
    const name = text.slice(start + 1, i)
    if (LEVELS.has(name) || !/^[a-z0-9@][a-z0-9@._/-]*$/.test(name)) return start
    return i + 3
  }
  if (!isLower(c) && c !== 64) return start
  let i = start + 1
  let slashes = 0
  let upper = false
  let dot = false
  while (i < stop && isNameChar(text.charCodeAt(i))) {
    const x = text.charCodeAt(i)
    if (x === 47) slashes++
    else if (x === 46) dot = true
    else if (isUpper(x)) upper = true
    i++
  }
  const next = text.charCodeAt(i)
  if (next === 58) {
    // an npm package's name: lower-case, `@scope/` the only `/` (`user:Alice: `, `config/app.yml:db: ` are none)
    if (upper || slashes > (c === 64 ? 1 : 0) || (c === 64 && slashes === 0)) return start
    // lerna: `@acme/web: `
    if (text.charCodeAt(i + 1) === 32) return c === 64 ? i + 2 : start
    // Turborepo: `web:test: `
    const e = afterTaskName(text, i + 1, stop)
    return e === -1 ? start : e
  }
  // pnpm: `packages/web test: ` (a directory: a `/`, no `.`: `github.com/a/b test: ` is none)
  if (next !== 32 || slashes === 0 || dot) return start
  const e = afterTaskName(text, i + 1, stop)
  return e === -1 ? start : e
}

/** Columns Apache Ant's logger gives a task's label (`DefaultLogger.LEFT_COLUMN_SIZE`). */
const ANT_COLUMNS = 12

/** A char of an Ant task's name: `a`-`z`, a digit, `-`, `_`, `.`, or `:` (an antlib's prefix, `ivy:retrieve`). */
const isAntNameChar = (c: number): boolean => isLower(c) || isDigit(c) || c === 45 || c === 95 || c === 46 || c === 58

/**
 * Offset after the label Apache Ant's logger puts before each line a task printed, else `start`:
 * the task's name in brackets and a space, right-aligned in {@link ANT_COLUMNS} columns
 * (`    [junit] `, `     [echo] `, `    [javac] `), or at the line's start when it is that long
 * or longer (`[available] `, `[junitlauncher] `, `[ivy:retrieve] `). The name starts with a
 * lower-case letter; a label of spaces and a short name must end at column 12 exactly, and one
 * at the line's start must be 12 columns or more: sbt's and Maven's levels (`[info] `,
 * `[success] `, `[ERROR] `) are none. Reads `[start, stop)` only.
 */
function afterAntTask(text: string, start: number, stop: number): number {
  let i = start
  while (i < stop && text.charCodeAt(i) === 32) i++
  const open = i
  if (i + 1 >= stop || text.charCodeAt(i) !== 91 || !isLower(text.charCodeAt(i + 1))) return start
  i += 2
  while (i < stop && isAntNameChar(text.charCodeAt(i))) i++
  if (i + 2 > stop || text.charCodeAt(i) !== 93 || text.charCodeAt(i + 1) !== 32) return start
  const width = i + 2 - start
  return width === ANT_COLUMNS || (open === start && width > ANT_COLUMNS) ? i + 2 : start
}

/** True when the line `[start, end)` is a line prefix alone (a timestamp, a container's name: how such logs write a blank line). */
export function isBarePrefix(text: string, start: number, end: number): boolean {
  const from = afterLinePrefix(text, start, end)
  if (from > start) return trimmedEnd(text, from, end) === from || stampEnd(text, from, end) === trimmedEnd(text, from, end)
  return stampEnd(text, start, end) === end
}

/**
 * True when the line `[start, end)` is blank: spaces only, or nothing after its line prefix, or a
 * CI timestamp alone with no space after it ({@link isBarePrefix}).
 */
export function isBlankOrBarePrefix(text: string, start: number, end: number): boolean {
  const e = trimmedEnd(text, start, end)
  return e === start || isBarePrefix(text, start, e)
}

/** `go test`'s verdict of a test that passed or was skipped at `at`: `--- PASS: TestX (0.01s)`, `--- SKIP: ...`. */
export const isGoPassVerdict = (text: string, at: number, stop: number): boolean => has(text, at, stop, '--- PASS: ') || has(text, at, stop, '--- SKIP: ')

/** The marks test reporters put before a failed test: `×` `✕` `✖` `✗` `✘` `❌`, `⨯` (Pest, Collision). */
export function isCrossMark(c: number): boolean {
  return c === 0xd7 || (c >= 0x2715 && c <= 0x2718) || c === 0x274c || c === 0x2a2f
}

/** True when `text` at `at` starts with `s` and `at + s.length <= end`. */
const has = (text: string, at: number, end: number, s: string): boolean => at + s.length <= end && text.startsWith(s, at)

/** Most blanks {@link indentAt} counts: an indentation deeper than that reads as that deep. */
const INDENT_MAX = 16

/** Leading blanks (spaces, tabs) of `text[from, end)`, at most {@link INDENT_MAX}: a line's indentation after its prefix. */
export function indentAt(text: string, from: number, end: number): number {
  let i = from
  while (i < end && i - from < INDENT_MAX && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++
  return i - from
}

/** `end` moved back over trailing spaces, tabs and `\r` of `text[at, end)`. */
export function trimmedEnd(text: string, at: number, end: number): number {
  let e = end
  for (let c = text.charCodeAt(e - 1); e > at && (c === 32 || c === 9 || c === 13); c = text.charCodeAt(e - 1)) e--
  return e
}

/**
 * Salience of the line `[start, end)` of `text` by its runner shape alone: 0 (no shape), 2, 3 or 4
 * (see the module's table). Reads at most {@link PROBE} chars of it.
 */
export function shapeScore(text: string, start: number, end: number, inJson = false): number {
  const s = lineShape(text, start, end, inJson)
  return s < 0 ? 0 : s
}

/**
 * What {@link lineShape} answers for a line that opens a *quiet block*: output of code that did
 * not fail, indented under the line, whose warnings and errors the scan scores 1 (candidates
 * still, never ahead of a failure):
 * - an entry of Jest's console output (`    console.warn`, then the message and its location);
 * - a passing or skipped go test's verdict (`--- PASS: TestX (0.01s)`, `--- SKIP: ...`): Go before
 *   1.14 printed the test's log indented under it (since 1.14 the log streams before it, between
 *   `=== RUN   TestX` and the verdict, which the scan demotes too: `passing.ts`);
 * - gotestsum's summary entry of a skipped test (`=== SKIP: pkg TestX (0.00s)`) and its GitHub
 *   Actions group of a passing or skipped one (`::group::PASS pkg.TestX (0.00s)`, shown in the
 *   job log as `##[group]PASS ...`), the test's output indented under them.
 */
export const QUIET_BLOCK = -1

/**
 * What {@link lineShape} answers for a `go test -json` event that says a test passed or was
 * skipped (`{"Action":"pass","Package":"p","Test":"TestX","Elapsed":0.01}`): the scan then
 * demotes the salient output events of that test (`passing.ts`, `goJsonTest`).
 */
export const JSON_PASS = -2

/** What {@link lineShape} answers for a `go test -json` event that says a test failed (the scan forgets its output events: a rerun starts afresh). */
export const JSON_FAIL = -3

/** gotestsum's GitHub Actions groups of a passing or skipped test, as printed and as the job log shows them. */
const QUIET_GROUPS = ['::group::PASS ', '::group::SKIP ', '##[group]PASS ', '##[group]SKIP ']

/** Console methods whose entries Jest prints as `console.<method>` on a line of its own. */
const CONSOLE_METHODS = ['log', 'error', 'warn', 'info', 'debug', 'trace']

/**
 * {@link shapeScore}, {@link QUIET_BLOCK} for a line that opens a quiet block, or {@link JSON_PASS}.
 * `from`: the line's {@link afterLinePrefix}, when the caller has it.
 */
export function lineShape(text: string, start: number, end: number, inJson = false, from = afterLinePrefix(text, start, end)): number {
  let i = from
  const lineStart = i
  const stop = Math.min(end, i + PROBE)
  while (i < stop && i - lineStart < MAX_INDENT && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++
  if (i >= stop) return 0
  if (text.charCodeAt(i) !== 27) return contentShape(text, i, lineStart, stop, end, inJson)
  // Colour codes first: the shape of what they colour (Jest prints its `console.error` entries in
  // red: a quiet block still), and a line a tool coloured red (SGR 31, bold or not; not Docker's
  // bright-red stderr) scores as a failure word does: how most tools print an error.
  const red = redStart(text, i, stop)
  const after = afterSgr(text, i, stop)
  const shape = after > i && after < stop ? contentShape(text, after, lineStart, stop, end, inJson) : 0
  return shape < 0 ? shape : Math.max(shape, red ? RED_SCORE : 0)
}

/** {@link lineShape} of the content at `i` (after the line's prefix at `lineStart`, its indentation and colour codes). */
function contentShape(text: string, i: number, lineStart: number, stop: number, end: number, inJson: boolean): number {
  const c = text.charCodeAt(i)
  // go test: `    a_test.go:12: got 1, want 2` (t.Error's message, indented under its test): as
  // strong as its test's `--- FAIL:` line, whose keyword gives it 4 (since Go 1.14 the message
  // comes first: at 3, 119 look-alike verdicts took the budget before one different message)
  if (i > lineStart && isLetterOrDigit(c) && goTestMessage(text, i, stop)) return 4
  // a compiler's or linter's diagnostic: `./a.go:12:5: undefined: x`, `a.py:3:1: E302 ...`
  // (a path that starts with `.` or `/` only: the scan would pay for a probe of every line starting with a letter)
  if ((c === 46 || c === 47) && diagnosticLead(text, i, stop)) return 2
  switch (c) {
    case 123:
      // A JSON event per line (`go test -json`): the shape of its `Output` field
      return inJson ? 0 : jsonOutputShape(text, i, end)
    case 95: {
      // pytest: ____ name ____ (at least 3 underscores each side, a name between)
      if (!has(text, i, stop, '___')) return 0
      let j = i
      while (j < stop && text.charCodeAt(j) === 95) j++
      if (text.charCodeAt(j) !== 32) return 0
      const e = trimmedEnd(text, j, end)
      if (e - j >= PROBE) return 0
      let k = e
      while (k > j && text.charCodeAt(k - 1) === 95) k--
      return e - k >= 3 && k - j > 2 && text.charCodeAt(k - 1) === 32 ? 3 : 0
    }
    case 101:
      // kotlinc: `e: file:///src/A.kt:12:5 Type mismatch: ...` (its error's severity letter, then the file)
      return i === lineStart && kotlinError(text, i, stop) ? 3 : 0
    case 69:
      // pytest: `E   ` at the line's start, then the explanation
      return i === lineStart && has(text, i, stop, 'E   ') && i + 4 < end ? 2 : 0
    case 0x25cf:
      // Jest: ● Suite › test (not its `● Console` blocks)
      return text.charCodeAt(i + 1) === 32 && !has(text, i + 2, stop, 'Console') && i + 3 < end ? 3 : 0
    case 45: {
      // go test: `--- PASS: TestX (0.01s)`, `--- SKIP: ...` (a verdict that opens a quiet block)
      if (isGoPassVerdict(text, i, stop)) return QUIET_BLOCK
      // cargo test: ---- path::to::test stdout ----
      if (!has(text, i, stop, '---- ')) return 0
      const e = trimmedEnd(text, i, end)
      return e - i < PROBE && (text.endsWith(' stdout ----', e) || text.endsWith(' stderr ----', e)) ? 3 : 0
    }
    case 61:
      // gotestsum: `=== SKIP: pkg TestX (0.00s)` (a skipped test's summary entry)
      return has(text, i, stop, '=== SKIP: ') ? QUIET_BLOCK : 0
    case 35:
    case 58:
      // gotestsum's GitHub Actions group of a passing or skipped test
      return QUIET_GROUPS.some((g) => has(text, i, stop, g)) ? QUIET_BLOCK : 0
    case 42:
      // Gradle: * What went wrong:
      return has(text, i, stop, '* What went wrong:') ? 3 : 0
    case 114:
      // RSpec: rspec ./spec/a_spec.rb:12 # ...; Rails (minitest): rails test test/a_test.rb:12
      if (has(text, i, stop, 'rspec ./')) return hasLocation(text, i + 8, stop) ? 3 : 0
      return has(text, i, stop, 'rails test ') && hasLocation(text, i + 11, stop) ? 3 : 0
    case 99:
      // Jest's console output: `    console.warn` alone on its line, indented
      if (i > lineStart && has(text, i, stop, 'console.')) {
        const e = trimmedEnd(text, i, end)
        // (alone on its line, a colour's reset after it: Jest colours the entry)
        return CONSOLE_METHODS.some((m) => text.startsWith(m, i + 8) && afterSgr(text, i + 8 + m.length, e) === e) ? QUIET_BLOCK : 0
      }
      // Cucumber: cucumber features/a.feature:12 # Scenario: ...
      return has(text, i, stop, 'cucumber ') && hasLocation(text, i + 9, stop) ? 3 : 0
    default:
      if (isDigit(c)) return i === lineStart && isCompactProgress(text, i) ? compactFailure(text, i, end) : numbered(text, i, stop, i > lineStart)
      // Vitest `× file > test`, Jest `✕ test`, node:test `✖ test`, AVA `✘ test`: a failed test's
      // mark; gotestsum's `✖  pkg/a (1.2s)` (a failed package; two spaces). 4 since round 17, as
      // strong as `--- FAIL:`: at 3 an app's logger's `ERROR [ctx] ...` lines outranked them.
      if (isCrossMark(c)) {
        const j = text.charCodeAt(i + 2) === 32 ? i + 3 : i + 2
        return text.charCodeAt(i + 1) === 32 && j < end && text.charCodeAt(j) !== 32 ? 4 : 0
      }
      if (c >= 0xdb80 && c <= 0xdbff) return issueRecorded(text, i + 2, stop)
      return 0
  }
}

/** The score of a line a tool printed in red (see `colour.ts`): a failure word's. */
export const RED_SCORE = 3

/**
 * True when the colour codes at `at` (at most {@link SGR_CODES}) leave a red foreground
 * (`\x1b[31m`, `\x1b[1;31m`, `\x1b[31;1m`, `\x1b[1m\x1b[31m`; a 256-colour or RGB colour's
 * numbers are not read as one) and text follows before `stop`. Not bright red (`\x1b[91m`): Docker's classic builder prints a build
 * step's whole stderr in it (`debconf: delaying package configuration`), warnings and progress alike.
 */
export function redStart(text: string, at: number, stop: number): boolean {
  let i = at
  // the foreground the codes leave: 31 for red, -1 for another colour or none
  let fg = -1
  for (let n = 0; n < SGR_CODES && text.charCodeAt(i) === 27 && text.charCodeAt(i + 1) === 91; n++) {
    let k = i + 2
    let param = 0
    // params still to skip: a 256-colour or RGB colour's (`38;5;31`, `38;2;r;g;b`)
    let skip = 0
    let extended = false
    for (; k < stop && k - i < SGR_MAX; k++) {
      const c = text.charCodeAt(k)
      if (isDigit(c)) {
        param = param * 10 + c - 48
        continue
      }
      if (c !== 59 && c !== 109) return false
      if (skip > 0) {
        if (extended) skip = param === 5 ? 2 : param === 2 ? 4 : 0
        extended = false
        skip--
      } else if (param === 38) {
        fg = -1
        skip = 1
        extended = true
      } else if (param === 48) {
        skip = 1
        extended = true
      } else if (param === 0 || param === 39 || (param >= 30 && param <= 37) || (param >= 90 && param <= 97)) fg = param === 31 ? 31 : -1
      param = 0
      if (c === 109) break
    }
    if (text.charCodeAt(k) !== 109) return false
    i = k + 1
  }
  if (fg !== 31) return false
  // (and some text in red: not a colour set for the lines below, nor one reset at once)
  while (i < stop && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++
  return i < stop && text.charCodeAt(i) !== 27 && text.charCodeAt(i) !== 13
}

/** Longest SGR code {@link redStart} reads. */
const SGR_MAX = 24
/**
 * Colour codes at a line's content start {@link redStart} reads. An erase or cursor code before
 * them (Travis' `\r\x1b[0K\x1b[31;1mThe command "x" exited with 1.`) is not read past: tried,
 * it made Travis' verdict lines outrank the failure above them (the shared corpus's git-extras
 * 100 -> 66.7% at 8k, shellcheck 0 -> 100% at 2k: 8k 97.6 -> 97.1%).
 */
const SGR_CODES = 3

/** True when the token at `at` is a Go test file's location: `name_test.go:<digits>:` then a space. */
function goTestMessage(text: string, at: number, stop: number): boolean {
  let j = at
  while (j < stop && text.charCodeAt(j) !== 32 && text.charCodeAt(j) !== 58) j++
  if (j - at < 9 || text.charCodeAt(j) !== 58 || !text.startsWith('_test.go', j - 8)) return false
  let k = j + 1
  while (k < stop && isDigit(text.charCodeAt(k))) k++
  return k > j + 1 && text.charCodeAt(k) === 58 && text.charCodeAt(k + 1) === 32
}

/** Messages after a location that are a diagnostic's comment, not a finding (with their colon, lower case and capitalised). */
const ASIDES = ['note:', 'info:', 'hint:', 'help:'].flatMap((w) => [w, w[0]!.toUpperCase() + w.slice(1)])

/**
 * True when the token at `at` is a source file's location with a column, `path.ext:<line>:<col>:`,
 * then a space and a message that is not an aside (`note:`, `info:`, `hint:`, `help:`): the first
 * line of a compiler's or a linter's diagnostic in the format most of them share (gcc, clang, Go,
 * flake8, pylint, RuboCop, golangci-lint, Swift), whatever words the message uses (Go's
 * `undefined: x` carries no failure keyword). The path's last segment needs an extension.
 */
function diagnosticLead(text: string, at: number, stop: number): boolean {
  let j = at
  let dot = -1
  let slash = -1
  for (let c = text.charCodeAt(j); j < stop && c !== 32 && c !== 58 && c !== 9; c = text.charCodeAt(++j)) {
    if (c === 46) dot = j
    else if (c === 47 || c === 92) slash = j
  }
  if (text.charCodeAt(j) !== 58 || dot <= slash + 1 || dot >= j - 1) return false
  for (let part = 0; part < 2; part++) {
    const d = ++j
    while (j < stop && j - d < 7 && isDigit(text.charCodeAt(j))) j++
    if (j === d || text.charCodeAt(j) !== 58) return false
  }
  if (text.charCodeAt(j + 1) !== 32) return false
  const m = j + 2
  return !ASIDES.some((w) => text.startsWith(w, m))
}

/** Chars of a JSON line searched for its `"Output":"` field (go test -json puts it after Time, Action, Package, Test). */
const JSON_PROBE = 400
const OUTPUT_FIELD = '"Output":"'

/**
 * Offset of the text of the `Output` field of the JSON event line at `at` (after its prefix:
 * `go test -json`'s `{"Time":...,"Test":"TestX","Output":"        got: 3\n"}`), or -1 when the
 * field is not among its first {@link JSON_PROBE} chars. What {@link jsonOutputShape} judges and
 * what tells whether the event continues the line above it (`middle.ts`).
 */
export function outputFieldAt(text: string, at: number, end: number): number {
  const field = text.slice(at, Math.min(end, at + JSON_PROBE)).indexOf(OUTPUT_FIELD)
  return field === -1 ? -1 : at + field + OUTPUT_FIELD.length
}

/** The JSON string value of `"<field>":"` in `head`, or undefined (no such field, or it runs past `head`). */
export function jsonField(head: string, field: string): string | undefined {
  const at = head.indexOf(`"${field}":"`)
  if (at === -1) return undefined
  const from = at + field.length + 4
  for (let i = from; i < head.length; i++) {
    const c = head.charCodeAt(i)
    if (c === 92) i++
    else if (c === 34) return head.slice(from, i)
  }
  return undefined
}

/**
 * The shape of a JSON event line's `Output` field (`go test -json`, `{"Time":...,"Output":"--- FAIL: TestX\n"}`):
 * the field's text judged as a line of its own, up to its escaped newline. Reads at most
 * {@link JSON_PROBE} + {@link PROBE} chars.
 */
function jsonOutputShape(text: string, at: number, end: number): number {
  const from = outputFieldAt(text, at, end)
  if (from === -1) {
    // no output: the event may end a test (`"Action":"pass"`, `"skip"`, `"fail"`)
    const action = jsonField(text.slice(at, Math.min(end, at + JSON_PROBE)), 'Action')
    return action === 'pass' || action === 'skip' ? JSON_PASS : action === 'fail' ? JSON_FAIL : 0
  }
  const newline = text.slice(from, Math.min(end, from + PROBE)).indexOf('\\n')
  return shapeScore(text, from, newline === -1 ? Math.min(end, from + PROBE) : from + newline, true)
}

/**
 * Swift Testing: after its status glyph (a private-use symbol), `Test "name" recorded an issue`
 * (3): a failed expectation, which carries no failure keyword of its own. Reads at most `stop`.
 */
function issueRecorded(text: string, at: number, stop: number): number {
  let i = at
  while (i < stop && i - at < 4 && text.charCodeAt(i) === 32) i++
  if (!has(text, i, stop, 'Test "')) return 0
  return text.slice(i + 6, stop).includes('" recorded an issue') ? 3 : 0
}

/** kotlinc's error line at `at`: `e: ` then a path (`/src/A.kt`, `file:///src/A.kt`, `C:\\src\\A.kt`). */
function kotlinError(text: string, at: number, stop: number): boolean {
  if (text.charCodeAt(at + 1) !== 58 || text.charCodeAt(at + 2) !== 32) return false
  const p = at + 3
  const c = text.charCodeAt(p)
  if (c === 47) return p + 1 < stop
  if (has(text, p, stop, 'file:/')) return true
  return isLetter(c) && text.charCodeAt(p + 1) === 58 && text.charCodeAt(p + 2) === 92
}

/** True when `text` at `at` starts like the compact test reporter's progress line (Dart, Flutter): `00:01 +`. */
export function isCompactProgress(text: string, at: number): boolean {
  return text.charCodeAt(at + 2) === 58 && text.charCodeAt(at + 5) === 32 && text.charCodeAt(at + 6) === 43 && isDigit(text.charCodeAt(at + 1)) && isDigit(text.charCodeAt(at + 3)) && isDigit(text.charCodeAt(at + 4))
}

/**
 * The compact reporter's line for a test that failed (`package:test`, `flutter test`): the progress
 * counts, then the test's name and ` [E]` at the end: `00:01 +3 ~1 -1: test/a_test.dart: adds [E]` (3).
 */
function compactFailure(text: string, at: number, end: number): number {
  const e = trimmedEnd(text, at, end)
  return e - at > 12 && text.endsWith(' [E]', e) ? 3 : 0
}

/** True when the token at `at` ends with `:<digits>` (a file:line location). */
function hasLocation(text: string, at: number, stop: number): boolean {
  let j = at
  while (j < stop && text.charCodeAt(j) !== 32 && text.charCodeAt(j) !== 58) j++
  if (text.charCodeAt(j) !== 58 || j === at) return false
  return isDigit(text.charCodeAt(j + 1))
}

/** PHPUnit `1) Class::test` or, indented, Mocha `  1) title` / `  2) "before all" hook` (a failing test or hook in its spec list): 3; else 0. */
function numbered(text: string, i: number, stop: number, indented: boolean): number {
  let j = i
  while (j < stop && j - i < 4 && isDigit(text.charCodeAt(j))) j++
  if (text.charCodeAt(j) !== 41 || text.charCodeAt(j + 1) !== 32) return 0
  const from = j + 2
  const c = text.charCodeAt(from)
  // Mocha names a failing hook by its quoted kind: `  3) "before all" hook`
  if (c === 34 && indented) return 3
  if (!(isLetter(c) || c === 92)) return 0
  // Ns\FooTest::testBar: a `::` inside the first token
  let k = from
  while (k < stop && text.charCodeAt(k) !== 32) {
    if (text.charCodeAt(k) === 58 && text.charCodeAt(k + 1) === 58) return 3
    k++
  }
  return indented ? 3 : 0
}
