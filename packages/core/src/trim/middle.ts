import { isDigit, isLetterOrDigit } from './chars.js'
import { isBlankLine, lineAt, nextStart, prevStart, type Line } from './lines.js'
import { GAP_MARKER_MAX } from './marker.js'
import { familyMiddles } from './family.js'
import { LINE_PREFIX_MAX, afterLevel, afterLinePrefix, jsonField, outputFieldAt, trimmedEnd } from './shapes.js'
import { lineSalience, type SalientLine } from './salient.js'
import type { Profile } from './types.js'
import { contentAt, isTracebackStart, unitAfter } from './unit.js'
import { endsWithSuccess, startsWithSuccess } from './verdict.js'

/** Lines kept from the middle, ascending, and the chars they cost (with their gap markers). */
export interface Picked {
  lines: Line[]
  cost: number
}

/**
 * Frames a kept trace shows after its header's context, and after each `Caused by:` header,
 * before the rest of that segment is passed over (see {@link pickMiddle}): a JUnit 5 trace under
 * Surefire runs 80-100 frames, and a recursion's 1,000 stop here.
 */
export const MAX_FRAMES = 120
/** Most continuation lines read after a kept piece (kept or passed over) while growing it. */
const MAX_UNIT_LINES = 400

/** True when the line is the header of a chained cause (`Caused by: ...`, `Suppressed: ...`), after indentation. */
function isCauseHeader(text: string, l: Line): boolean {
  let i = l.start
  while (i < l.end && i - l.start < 16 && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++
  return text.startsWith('Caused by', i) || text.startsWith('Suppressed: ', i)
}

/**
 * A line that continues the one above it: indented, a stack frame, `Caused by:`, `... 12 more`
 * (after a CI timestamp; in a JSON event, `go test -json`'s, its `Output` field: a message's
 * indented lines are events of their own, `"Output":"        got: 1\n"`).
 */
function isContinuation(text: string, l: Line): boolean {
  let from = afterLinePrefix(text, l.start, l.end)
  // (a JSON event: its Output field's text, or the event when it has none)
  if (text.charCodeAt(from) === 123) {
    const output = outputFieldAt(text, from, l.end)
    if (output !== -1) from = output
  }
  if (l.end === from) return false
  const c = text.charCodeAt(from)
  if (c === 32 || c === 9) return true
  const head = text.slice(from, Math.min(l.end, from + 12))
  return head.startsWith('at ') || head.startsWith('Caused by') || head.startsWith('...')
}

/**
 * A JVM exception's header line: a qualified class name ending in `Exception`, `Error`,
 * `Failure` or `Throwable`, then `:` or the line's end (`java.lang.AssertionError: `,
 * `org.opentest4j.AssertionFailedError: expected: <1> but was: <2>`), or a `Caused by:` of one,
 * or an uncaught one (`Exception in thread "main" java.lang.IllegalStateException: ...`).
 * Reads at most {@link JVM_HEADER_CHARS} chars of its content.
 */
const JVM_HEADER = /^(?:Caused by: |Exception in thread "[^"\n]{0,80}" )?[A-Za-z_$][\w$]*(?:\.[\w$]+)+(?:Exception|Error|Failure|Throwable)(?::|\s*$)/
const JVM_HEADER_CHARS = 200
const isJvmHeader = (text: string, l: Line): boolean => {
  const from = contentAt(text, l.start, l.end)
  return JVM_HEADER.test(text.slice(from, Math.min(l.end, from + JVM_HEADER_CHARS)))
}
/** A JVM stack frame: `at ` after indentation (and a CI timestamp). */
function isJvmFrame(text: string, l: Line): boolean {
  const from = contentAt(text, l.start, l.end)
  return text.startsWith('at ', from) && from > afterLinePrefix(text, l.start, l.end)
}
/** Lines of a JVM exception's message that may stand between its header and its first frame (AssertJ's `Expecting actual:` block). */
const MESSAGE_LINES = 24

/** A Python traceback's frame: `File "path", line N, in f` after indentation (and a CI timestamp). */
const isPythonFrame = (text: string, l: Line): boolean => text.startsWith('File "', contentAt(text, l.start, l.end))

/** A Rust backtrace's frame: `  10: myapp::db::connect` (an index, `:`, a space, after indentation). */
function isRustFrame(text: string, l: Line): boolean {
  const from = contentAt(text, l.start, l.end)
  let i = from
  while (i < l.end && i - from < 4 && isDigit(text.charCodeAt(i))) i++
  return i > from && from > afterLinePrefix(text, l.start, l.end) && text.charCodeAt(i) === 58 && text.charCodeAt(i + 1) === 32
}

/** A stack frame of a JVM (or JavaScript, .NET) trace, a Python traceback or a Rust backtrace. */
const isFrame = (text: string, l: Line): boolean => isJvmFrame(text, l) || isPythonFrame(text, l) || isRustFrame(text, l)

/**
 * True when the line cannot be a JVM exception's message line: a level-tagged log line, Surefire's
 * `Running a.BTest`, or another exception's header (the first exception printed no trace).
 */
function endsMessage(text: string, l: Line): boolean {
  const from = contentAt(text, l.start, l.end)
  return afterLevel(text, from, l.end) > from || text.startsWith('Running ', from) || isJvmHeader(text, l)
}

/**
 * True when the line starts with a runner's pass verdict (`✓ test`, `PASS`, `[       OK ]`, `ok`)
 * or, not indented under the line above (a message's own detail may end in `ok`), ends with one
 * (Gradle's `ParserTest > testCase() PASSED`, cargo's `test a ... ok`, XCTest's `Test Case '-[A
 * b]' passed (0.001 seconds).`): another test that passed, which ends a failure's context (it is
 * not this failure's detail). Above the failure (`above`), a test that `started` does not: it is
 * most often the failing test's own start line; below it, the next test's start ends it too.
 */
const passed = (text: string, l: Line, above = false): boolean =>
  l.end > l.start && (startsWithSuccess(text, l.start, l.end) || (!isContinuation(text, l) && endsWithSuccess(text, l.start, l.end, above)))

/** Chars of a line's lead (its first two words) compared by {@link sibling}. */
const LEAD_CHARS = 48

/**
 * End of the lead of the line `[start, end)`: a list marker (a first word without letters or
 * digits: `>`, `-`, `*`, `==>`), the word after it and the blanks after that (Gradle's `> Task `),
 * or `start` when the line has no such lead or no third word within {@link LEAD_CHARS}. A first
 * word with letters is most often a prefix every line carries (a job name, a logger's clock).
 */
function leadEnd(text: string, start: number, end: number): number {
  const stop = Math.min(end, start + LEAD_CHARS)
  const blank = (c: number): boolean => c === 32 || c === 9
  let i = start
  for (let word = 0; word < 2; word++) {
    const from = i
    while (i < stop && !blank(text.charCodeAt(i))) {
      if (word === 0 && isLetterOrDigit(text.charCodeAt(i))) return start
      i++
    }
    if (i === from) return start
    while (i < stop && blank(text.charCodeAt(i))) i++
  }
  return i < stop ? i : start
}

/**
 * True when `l` is the next item of the list the salient line `s` is in, not its detail: it
 * starts with the same two words (after a CI timestamp: Gradle's `> Task :a:test FAILED`, then
 * `> Task :a:jar`) and carries no problem word of its own. The failure's context ends there.
 */
function sibling(text: string, s: SalientLine, l: Line): boolean {
  const a = afterLinePrefix(text, s.start, s.end)
  const b = afterLinePrefix(text, l.start, l.end)
  const ae = leadEnd(text, a, s.end)
  if (ae === a) return false
  const n = ae - a
  if (b + n >= l.end || text.charCodeAt(b + n) === 32 || text.charCodeAt(b + n) === 9 || text.slice(a, ae) !== text.slice(b, b + n)) return false
  return quiet(text, l)
}

/** True when the line holds no problem word (judged on its first 600 chars). */
const quiet = (text: string, l: Line): boolean => lineSalience(text.slice(l.start, Math.min(l.end, l.start + 600))) === 0

/**
 * The lines around the salient line `s` inside the middle, nearest first on each side: up to
 * `before` above it, then up to `after` below it, each side ending before a line that `stop`
 * accepts (`below`: the line is under `s`) or one that crosses into the head or the tail.
 */
function around(text: string, s: SalientLine, headEnd: number, tailStart: number, before: number, after: number, stop: (l: Line, below: boolean) => boolean): { above: Line[]; below: Line[] } {
  const above: Line[] = []
  let start = s.start
  for (let i = 1; i <= before && start > headEnd; i++) {
    start = prevStart(text, start)
    if (start < headEnd) break
    const l = lineAt(text, s.line - i, start)
    if (stop(l, false)) break
    above.push(l)
  }
  const below: Line[] = []
  let next = nextStart(text, s.start)
  for (let i = 1; i <= after && next < tailStart; i++) {
    const end = nextStart(text, next)
    if (end > tailStart) break
    const l = lineAt(text, s.line + i, next)
    if (stop(l, true)) break
    below.push(l)
    next = end
  }
  return { above, below }
}

/**
 * A salient line with `contextBefore` lines above and `contextAfter` below, inside the middle,
 * each side ending before another test's pass verdict ({@link passed}).
 */
function contextAround(text: string, s: SalientLine, headEnd: number, tailStart: number, profile: Pick<Profile, 'contextBefore' | 'contextAfter'>): Line[] {
  const test = eventTest(text, s)
  const other = (l: Line): boolean => {
    if (test === undefined) return false
    const t = eventTest(text, l)
    return t !== undefined && t !== test
  }
  const { above, below } = around(text, s, headEnd, tailStart, profile.contextBefore, profile.contextAfter, (l, under) => passed(text, l, !under) || (under && sibling(text, s, l)) || other(l))
  return [...above.reverse(), { n: s.line, start: s.start, end: s.end }, ...below]
}

/** Chars of a JSON event line {@link eventTest} reads. */
const EVENT_PROBE = 400

/**
 * The test a `go test -json` event line belongs to (its `"Test"` field: `{"Action":"output",
 * "Test":"TestX","Output":"..."}`); `null` for an event of no test (a package's: `FAIL\tpkg`);
 * `undefined` for a line that is no event, or whose field comes past {@link EVENT_PROBE} chars
 * (events re-written with sorted keys). Parallel tests interleave their events, so a failure's
 * context ends at another test's event (or a package's): what is beyond it is seldom its own.
 * A subtest (`TestX/sub`) is a test of its own.
 */
function eventTest(text: string, l: { start: number; end: number }): string | null | undefined {
  const from = afterLinePrefix(text, l.start, l.end)
  if (text.charCodeAt(from) !== 123) return undefined
  const test = jsonField(text.slice(from, Math.min(l.end, from + EVENT_PROBE)), 'Test')
  if (test !== undefined) return test
  return l.end - from <= EVENT_PROBE || !text.slice(from, l.end).includes('"Test":"') ? null : undefined
}

/** Chars of a line's start (after a CI timestamp) that {@link inStream} compares. */
const STREAM_PREFIX = 8
/** Lines above and below a line that {@link inStream} reads. */
const STREAM_REACH = 2

/**
 * True when a line within {@link STREAM_REACH} above or below starts like `s` (its first
 * {@link STREAM_PREFIX} chars after a CI timestamp) and carries no problem word: `s` is one entry
 * of a progress stream (pytest-xdist's `[gw0] [ 20%] FAILED a` among `[gw1] [ 21%] PASSED b`),
 * not a failure with its detail under it.
 */
function inStream(text: string, s: SalientLine, headEnd: number, tailStart: number): boolean {
  const a = afterLinePrefix(text, s.start, s.end)
  if (s.end - a < STREAM_PREFIX) return false
  const prefix = text.slice(a, a + STREAM_PREFIX)
  const { above, below } = around(text, s, headEnd, tailStart, STREAM_REACH, STREAM_REACH, () => false)
  return [...above, ...below].some((l) => text.startsWith(prefix, afterLinePrefix(text, l.start, l.end)) && quiet(text, l))
}

/** How many times the lines the budget left could show a crowded level's family search reads. */
const FAMILY_SPAN = 4

/**
 * Share of the budget left at a crowded level's start that its spread-out family members (each
 * with its unit and a gap marker, an upper bound) may take before the level's other lines (see
 * {@link pickMiddle}): the rest keeps room for distinct failures with their context (devextra at
 * 8k: 85.9 -> 86.6%; with no cap 86.9%, but 12 distinct errors after 30 look-alike headers then
 * lost their place: 1 of them shown at 6,000 chars).
 */
const FAMILY_FIRST_SHARE = 0.5

/** Lines of context after a line of a crowded level at the least (see {@link pickMiddle}). */
const CROWDED_MIN_AFTER = 1

/** In a crowded level, every this many lines placed leave the next ones a line less of context before them. */
const CROWDED_BEFORE_EVERY = 3

/** Below this many chars left, no further piece can fit: stop looking (keeps huge inputs fast). */
const MIN_PIECE = GAP_MARKER_MAX + 16

/** Salient lines closer than this (in lines) belong to the same cluster. */
const CLUSTER_GAP = 3

/**
 * Share of the middle's budget the failing tests' own lines (headers, verdicts) may take for
 * {@link diverse} to rank each first: a run with more failed mostly alike, and one example of
 * each kind of line comes first (the one test of 120 that failed differently). Also the most the
 * weaker levels' test lines named before the first level's traces grow may take (see
 * `nameBeforeGrowth` in {@link pickMiddle}).
 */
const NAMED_SHARE = 0.25

/** Most lines of the cluster that runs into the tail that rank as starts (see {@link rankSalient}). */
const VERDICT_LINES = 8

/** True when a salient line at `line` starts a new cluster after one at `prev`. */
const startsCluster = (prev: number, line: number): boolean => line - prev > CLUSTER_GAP

/** Fewest chars of a rule line (`=====`, `-----`) that {@link afterRule} accepts. */
const RULE_MIN = 10
/** Most chars of the line above (after a CI timestamp) that {@link afterRule} reads. */
const RULE_MAX = 200

/**
 * True when the line right above `s` (after a CI timestamp) is a rule: one char of `=-_*~#`
 * repeated, {@link RULE_MIN} or more times, nothing else. A runner prints one between two
 * failures' reports (unittest's `=====` over `ERROR: test_x (mod.Case)`), so the line under it
 * starts a failure of its own, however close the last failure's detail ends above it. Not when
 * the salient line before `s` is two lines up (`prev`), right above the rule: that is the header
 * the rule underlines (unittest's `-----` between `ERROR: test_x` and its `Traceback`). Reads at
 * most {@link RULE_MAX} + {@link LINE_PREFIX_MAX} chars back.
 */
function afterRule(text: string, s: SalientLine, prev: number): boolean {
  if (s.start === 0 || s.line - prev === 2) return false
  const end = s.start - 1
  let start = end
  while (start > 0 && end - start <= RULE_MAX + LINE_PREFIX_MAX && text.charCodeAt(start - 1) !== 10) start--
  if (start > 0 && text.charCodeAt(start - 1) !== 10) return false
  const from = afterLinePrefix(text, start, end)
  const to = trimmedEnd(text, from, end)
  if (to - from < RULE_MIN || to - from > RULE_MAX) return false
  const c = text.charCodeAt(from)
  if (c !== 61 && c !== 45 && c !== 95 && c !== 42 && c !== 126 && c !== 35) return false
  for (let i = from + 1; i < to; i++) if (text.charCodeAt(i) !== c) return false
  return true
}

/** {@link rankSalient}'s answer: the priority order, and the line numbers of the cluster starts. */
export interface Ranked {
  readonly order: readonly SalientLine[]
  readonly starts: ReadonlySet<number>
}

/**
 * Priority order of salient lines: by score; among equals, the first line of each cluster (the
 * start of each distinct error) before the rest. The last {@link VERDICT_LINES} lines of the
 * cluster that runs into the tail (its last line at most {@link CLUSTER_GAP} lines above
 * `tailStart`) rank as starts too: the run the log ends with is its verdict (Maven's `Failed to
 * execute goal` and the error it names, above its footer), not the detail of an earlier line.
 * Also returns the line numbers of the cluster starts (the verdict run's lines not among them).
 */
export function rankSalient(text: string, candidates: SalientLine[], tailStart: number): Ranked {
  const head = new Set<SalientLine>()
  const clusterStarts = new Set<number>()
  let lastLine = -Infinity
  let lastScore = 0
  let lastStart = 0
  for (let k = 0; k < candidates.length; k++) {
    const s = candidates[k]!
    const starts = startsCluster(lastLine, s.line) || afterRule(text, s, lastLine)
    if (starts) {
      lastStart = k
      clusterStarts.add(s.line)
    }
    if (starts || s.score > lastScore) head.add(s)
    if (starts) lastScore = s.score
    else lastScore = Math.max(lastScore, s.score)
    lastLine = s.line
  }
  // The cluster that runs into the tail is the log's verdict: its last lines are starts too, one
  // per template (a burst of one message above the tail is one line of it), each ranked right
  // after the cluster's own start (the sort key below), so that start keeps its place.
  // (Its last line is at most CLUSTER_GAP lines above the tail: as many newline searches.)
  const key = new Map<SalientLine, number>()
  const last = candidates[candidates.length - 1]
  if (last !== undefined) {
    let at = last.end
    for (let n = 0; n < CLUSTER_GAP && at < tailStart; n++) at = nextStart(text, at)
    if (at >= tailStart) {
      const templates = new Set<number>()
      const clusterStart = candidates[lastStart]!
      if (clusterStart.template !== undefined) templates.add(clusterStart.template)
      for (let k = Math.max(lastStart + 1, candidates.length - VERDICT_LINES); k < candidates.length; k++) {
        const s = candidates[k]!
        if (s.template !== undefined && templates.has(s.template)) continue
        if (s.template !== undefined) templates.add(s.template)
        head.add(s)
        key.set(s, clusterStart.line)
      }
    }
  }
  // Cluster starts latest first (the verdict comes late); the rest in reading order, so a
  // cluster's detail follows its start.
  const keyOf = (s: SalientLine): number => key.get(s) ?? s.line
  const order = candidates.slice().sort((a, b) => {
    const d = b.score - a.score || Number(head.has(b)) - Number(head.has(a))
    if (d !== 0) return d
    if (!head.has(a)) return a.line - b.line
    return keyOf(b) - keyOf(a) || a.line - b.line
  })
  return { order, starts: clusterStarts }
}

/**
 * Diversity over repetition: the ranked lines with every second and later copy of a template
 * moved after the first copies of every template of its score level (`acrossLevels`: of every
 * level), each part keeping its order, so that one example of each kind of line is shown before
 * 400 copies of one warning. A failing test's own line (its header or verdict: a negative
 * `instance`) counts as a first copy even where its template was seen, so that every test that
 * failed is named before the detail lines of a few (a logged traceback's lines are each a
 * template of their own), when the first own line of each test takes at most `named` chars
 * together ({@link NAMED_SHARE} of the middle's budget). Among the copies, the first line of each
 * failure (the same exception under another test) comes before the repeats of one.
 */
export function diverse(order: readonly SalientLine[], acrossLevels: boolean, named = Infinity): SalientLine[] {
  const seen = new Set<number>()
  const seenInstance = new Set<number>()
  const out: SalientLine[] = []
  let others: SalientLine[] = []
  let again: SalientLine[] = []
  // (the chars of each failing test's first own line, up to `named`)
  const tests = new Set<number>()
  let chars = 0
  for (let k = 0; k < order.length && chars <= named; k++) {
    const s = order[k]!
    if (s.instance === undefined || s.instance >= 0 || tests.has(s.instance)) continue
    tests.add(s.instance)
    chars += s.end - s.start
  }
  const nameAll = chars <= named
  for (let i = 0; i < order.length; i++) {
    const s = order[i]!
    // (a line without an instance is no failing test's: its failure is its template, seen with it)
    const testLine = nameAll && s.instance !== undefined && s.instance < 0
    if (s.template === undefined || !seen.has(s.template) || (testLine && !seenInstance.has(s.instance!))) {
      if (s.template !== undefined) seen.add(s.template)
      if (s.instance !== undefined) seenInstance.add(s.instance)
      out.push(s)
    } else if (s.instance !== undefined && !seenInstance.has(s.instance)) {
      seenInstance.add(s.instance)
      others.push(s)
    } else again.push(s)
    // Within one score level, copies go to the level's end (keeping their score); across
    // levels, to the very end (then they sort as their own, lowest, groups).
    const levelEnds = i + 1 === order.length || order[i + 1]!.score !== s.score
    if (levelEnds && !acrossLevels) {
      out.push(...others, ...again)
      others = []
      again = []
    }
  }
  return out.concat(others, again)
}

/**
 * Chooses what to keep between head and tail, in two passes over the salient lines ordered by
 * score and, among equals, latest first (a build's verdict comes late): first each line with its
 * context, so that every distinct error gets a place; then, with the budget left, the lines that
 * continue them (stack frames, indented detail), earliest first. A line shown without its full
 * context keeps its smallest unit (`unit.ts`); one whose text and unit are already shown is skipped.
 * In a level too crowded for every line's context, the look-alike failures spread over it (25
 * failing tests' headers, each with its detail) are shown first, each with its smallest unit,
 * with up to half the budget left ({@link FAMILY_FIRST_SHARE}).
 */
export function pickMiddle(text: string, candidates: SalientLine[], headEnd: number, tailStart: number, quota: number, profile: Profile, label: (n: number) => number = (n) => n, diversity = 0, rank: () => Ranked = () => rankSalient(text, candidates, tailStart)): Picked {
  if (candidates.length === 0 || quota <= 0) return { lines: [], cost: 0 }
  const ranked = rank()
  const order = diversity > 0 ? diverse(ranked.order, diversity > 1, quota * NAMED_SHARE) : ranked.order
  // Lines that start a cluster (no salient line within CLUSTER_GAP above them, or right under a rule).
  const clusterStarts = ranked.starts
  // `label` is the number the line is shown with (its source line when a filter merged lines).
  const lineCost = (l: Line): number => String(label(l.n)).length + 3 + Math.min(l.end - l.start, profile.maxLineChars)
  /**
   * The middle members of a spread-out family in `level` (each starts a cluster; not a progress
   * stream's entry, {@link inStream}), in the level's order, while they cost no more than
   * FAMILY_FIRST_SHARE of `left`: each line with its unit and a gap marker, an upper bound.
   */
  const familyFirst = (level: readonly SalientLine[], alone: ReadonlySet<number>, left: number): Set<SalientLine> => {
    const first = new Set<SalientLine>()
    let firstCost = 0
    for (const s of level) {
      if (!alone.has(s.line) || !clusterStarts.has(s.line) || inStream(text, s, headEnd, tailStart)) continue
      const self: Line = { n: s.line, start: s.start, end: s.end }
      for (const l of [self, ...unitAfter(text, self, tailStart)]) firstCost += lineCost(l)
      firstCost += GAP_MARKER_MAX
      if (firstCost > left * FAMILY_FIRST_SHARE) break
      first.add(s)
    }
    return first
  }
  let byLine: Map<number, SalientLine> | undefined
  /** The salient line right above `s` (a blank line between allowed) when it is a weaker failure line (score 3 or more). */
  const headerAbove = (s: SalientLine): Line | undefined => {
    byLine ??= new Map(candidates.map((c) => [c.line, c]))
    let h = byLine.get(s.line - 1)
    if (h === undefined) {
      // two lines up, when the line between is blank
      h = byLine.get(s.line - 2)
      if (h === undefined || !isBlankLine(text, nextStart(text, h.start), s.start)) return undefined
    }
    if (h.score < 3 || h.score >= s.score || h.frame === true) return undefined
    if (text.charCodeAt(trimmedEnd(text, h.start, h.end) - 1) !== 58) return undefined
    return { n: h.line, start: h.start, end: h.end }
  }
  const chosen = new Map<number, Line>()
  const shownText = new Set<string>()
  let cost = GAP_MARKER_MAX // the gap marker after the last piece
  const costOf = (lines: Line[]): number => {
    let c = 0
    for (const l of lines) if (!chosen.has(l.n)) c += lineCost(l)
    const touches = chosen.has(lines[0]!.n - 1) || chosen.has(lines[lines.length - 1]!.n + 1) || lines.some((l) => chosen.has(l.n))
    return touches ? c : c + GAP_MARKER_MAX
  }
  /**
   * Extends the kept piece holding line `n` over its continuation lines (at most
   * {@link MAX_UNIT_LINES}), as one unit: first each `Caused by:` header of the unit (one line
   * each, so the chain is shown even when its frames are not), then the frames of each segment
   * (after the piece, after each header) in order, at most {@link MAX_FRAMES} per segment, while
   * they fit. Returns the cost (a header apart from the kept lines adds a gap marker).
   */
  const grow = (n: number): number => {
    const anchor = n
    while (chosen.has(n + 1)) n++
    const last = chosen.get(n)!
    // (where the line after the piece starts)
    const next = nextStart(text, last.start)
    // The lines it grows over are the detail of the piece's last line that opens a block (not
    // blank, not itself a continuation). When that line is other output (no candidate, not a
    // trace's start: a passing group's name in hspec's or RSpec's list, `SimpleType` under a
    // failing test's context), its indented lines are that output's, not the failure's: the
    // piece grows over no more of them than a context's.
    byLine ??= new Map(candidates.map((c) => [c.line, c]))
    // A JVM exception in the piece with no frame after it yet: its message may run over lines of
    // its own (`Expecting actual:`, `to contain:`, not indented) until its first frame, within
    // MESSAGE_LINES of the header; those lines are the exception's, and the unit reads over them.
    let message = 0
    for (let k = n; k >= anchor && k > n - MESSAGE_LINES; k--) {
      const l = chosen.get(k)!
      if (isJvmFrame(text, l)) break
      if (isJvmHeader(text, l)) {
        let at = next
        for (let m = n + 1; m <= k + MESSAGE_LINES && at < tailStart && !chosen.has(m); m++) {
          const l2 = lineAt(text, m, at)
          if (isJvmFrame(text, l2)) {
            message = m - n - 1
            break
          }
          if (endsMessage(text, l2)) break
          at = nextStart(text, at)
        }
        break
      }
    }
    let opener = n
    for (let k = n; k > anchor; k--) {
      const l = chosen.get(k)!
      if (contentAt(text, l.start, l.end) < trimmedEnd(text, l.start, l.end) && !isContinuation(text, l)) break
      opener = k - 1
    }
    const head = chosen.get(opener)!
    // (not when that line is an exception's header, or when what follows the piece is a trace's
    // frame: a trace's opener need not be salient, Rust's `stack backtrace:`, an exception with
    // no keyword under a test's `<<< ERROR!`, Jenkins' `Also:   ...CallSiteStackTrace:`)
    const foreign = message === 0 && !byLine.has(opener) && !isTracebackStart(text, head.start, head.end) && !isJvmHeader(text, head) && !(next < tailStart && isFrame(text, lineAt(text, n + 1, next)))
    const most = foreign ? profile.contextAfter : MAX_UNIT_LINES
    const unit: Line[] = []
    let at = next
    for (let k = n + 1; unit.length < most && at < tailStart && !chosen.has(k); k++) {
      const after = nextStart(text, at)
      const l = lineAt(text, k, at)
      if (after > tailStart || (k - n > message && !isContinuation(text, l)) || passed(text, l)) break
      unit.push(l)
      at = after
    }
    let added = 0
    const take = (l: Line, extra: number): boolean => {
      const c = lineCost(l) + extra
      if (cost + added + c > quota) return false
      chosen.set(l.n, l)
      added += c
      return true
    }
    // A Python traceback ends with its exception (`IOError: [Errno 2] No such file ...`), the line
    // after its `File "..."` frames: it is taken before any frame.
    if (unit.length > 0 && at < tailStart && !chosen.has(n + unit.length + 1) && unit.some((l) => isPythonFrame(text, l))) {
      const end = lineAt(text, n + unit.length + 1, at)
      // (Not when the unit stopped at its length limit, on another frame, or at a passing test.)
      if (nextStart(text, at) <= tailStart && end.end > afterLinePrefix(text, end.start, end.end) && !isContinuation(text, end) && !passed(text, end)) take(end, GAP_MARKER_MAX)
    }
    const headers = unit.map((l) => isCauseHeader(text, l))
    for (let i = 0; i < unit.length; i++) if (headers[i] && !take(unit[i]!, chosen.has(unit[i]!.n - 1) ? 0 : GAP_MARKER_MAX)) break
    let frames = 0
    for (let i = 0; i < unit.length; i++) {
      const l = unit[i]!
      if (headers[i]) frames = 0
      else if (frames < MAX_FRAMES && chosen.has(l.n - 1) && take(l, 0)) frames++
      else frames = MAX_FRAMES
    }
    return added
  }

  /** Chars the lines `order[i..j)` would cost with their context (overlaps counted twice: an upper bound). */
  const levelCost = (i: number, j: number): number => {
    let c = 0
    for (let k = i; k < j && c <= quota; k++) {
      const s = order[k]!
      if (chosen.has(s.line)) continue
      for (const l of contextAround(text, s, headEnd, tailStart, profile)) c += lineCost(l)
      c += GAP_MARKER_MAX
    }
    return c
  }

  /**
   * Before the first level's traces grow: the own lines (header, verdict: a negative `instance`)
   * of the failing tests the weaker levels hold, alone, in their rank order, one per test, while
   * they take no more than {@link NAMED_SHARE} of the budget nor more than the growing would (a
   * dry run of it: `chosen` and `cost` are put back after). One test's frames (a Spring trace of
   * 60 under Surefire) then no longer take the chars that would say which other tests failed.
   * Each is kept in `named` with its cost: at its own level, if the loop still reads that far and
   * the line is still alone, it is taken out and placed again with its context; a line that
   * another piece took in (a message's header above it) stays, its cost with it.
   */
  const nameBeforeGrowth = (anchors: readonly SalientLine[], from: number): void => {
    const kept = new Map(chosen)
    const before = cost
    for (const s of anchors) cost += grow(s.line)
    const growth = cost - before
    cost = before
    chosen.clear()
    for (const [n, l] of kept) chosen.set(n, l)
    const most = Math.min(quota * NAMED_SHARE, growth)
    const tests = new Set<number>()
    let used = 0
    for (let k = from; k < order.length; k++) {
      const s = order[k]!
      if (s.instance === undefined || s.instance >= 0 || tests.has(s.instance) || chosen.has(s.line)) continue
      tests.add(s.instance)
      const self: Line = { n: s.line, start: s.start, end: s.end }
      const add = costOf([self])
      if (used + add > most || cost + add > quota) break
      chosen.set(self.n, self)
      named.set(self.n, add)
      cost += add
      used += add
    }
  }
  const named = new Map<number, number>()
  let namedFirst = false
  // Score by score, strongest first: each line with its context, then the lines continuing them.
  for (let i = 0; i < order.length; ) {
    let j = i
    while (j < order.length && order[j]!.score === order[i]!.score) j++
    const anchors: SalientLine[] = []
    // A crowded level (its lines with their context would not all fit): the middle members of a
    // family of look-alike lines (25 failing tests' headers) are shown alone, so that each is.
    // (Families are looked for among the level's first lines only: no more than FAMILY_SPAN times
    // what the budget left could show, so a level of 10,000 warnings costs what 60 do.)
    const left = quota - cost
    const alone = left >= MIN_PIECE && ((j - i) * MIN_PIECE > left || levelCost(i, j) > left) ? familyMiddles(text, order.slice(i, Math.min(j, i + FAMILY_SPAN * Math.ceil(left / MIN_PIECE)))) : undefined
    let placed = 0
    // In a crowded level, the middle members of a spread-out family (one failing test's header
    // each, with its detail between them) come first, each with its smallest unit, while they take
    // no more than FAMILY_FIRST_SHARE of the budget left: the list of what failed before any
    // line's context. They count as placed, so the lines after them get the shrunk context of a
    // crowded level. Not the entries of a progress stream ({@link inStream}): their detail is elsewhere.
    let visit: SalientLine[] | undefined
    if (alone !== undefined) {
      const level = order.slice(i, j)
      const first = familyFirst(level, alone, left)
      if (first.size > 0) visit = [...first, ...level.filter((s) => !first.has(s))]
    }
    for (let k = i; k < j && quota - cost >= MIN_PIECE; k++) {
      const s = visit !== undefined ? visit[k - i]! : order[k]!
      // (named alone before the first level's traces grew: placed again now, with its context)
      const alreadyNamed = named.get(s.line)
      if (alreadyNamed !== undefined && !chosen.has(s.line - 1) && !chosen.has(s.line + 1)) {
        chosen.delete(s.line)
        cost -= alreadyNamed
        named.delete(s.line)
      }
      if (chosen.has(s.line)) {
        anchors.push(s)
        continue
      }
      // Without its full context (a crowded level's family member, or no room for it), a line
      // is shown with its smallest unit (`unit.ts`: a bare `Error:` header's next lines, a
      // diagnostic's `--> file:line` location), else alone. A line whose text, with its unit's,
      // is already shown is skipped: the same headline at another location is not.
      const self: Line = { n: s.line, start: s.start, end: s.end }
      // (Nothing fits once the line alone does not: skip it before reading its neighbours.)
      if (cost + lineCost(self) > quota) continue
      const unit = [self, ...unitAfter(text, self, tailStart)]
      let body = ''
      for (const l of unit) body += text.slice(l.start, Math.min(l.end, l.start + profile.maxLineChars)).trim() + '\n'
      if (shownText.has(body)) continue
      // A stack frame (`frames.ts`: a trace's own project frame) is shown alone: its neighbours are more frames.
      const frame = s.frame === true
      // In a crowded level, each line placed leaves the next one line less of context after it
      // (5, 4, 3, ... down to 1), and every third one line less before it (2, 2, 2, 1, 1, 1, 0):
      // the strongest keep their detail, and more distinct lines fit.
      const context = alone === undefined ? profile : { contextBefore: Math.max(0, profile.contextBefore - Math.floor(placed / CROWDED_BEFORE_EVERY)), contextAfter: Math.max(Math.min(CROWDED_MIN_AFTER, profile.contextAfter), profile.contextAfter - placed) }
      let take = alone?.has(s.line) === true || frame ? unit : contextAround(text, s, headEnd, tailStart, context)
      // In a crowded level, a message keeps the failure header right above it (a weaker salient
      // line: Mocha's `3) Suite test:` over its `Error: ...`), whatever context is left.
      if (alone !== undefined && !frame) {
        const h = headerAbove(s)
        if (h !== undefined && !take.some((l) => l.n === h.n)) {
          take = [h, ...take]
          unit.unshift(h)
        }
      }
      let add = costOf(take)
      if (cost + add > quota && take.length > unit.length) {
        take = unit
        add = costOf(take)
      }
      if (cost + add > quota && take.length > 1) {
        take = [self]
        add = costOf(take)
      }
      if (cost + add > quota) continue
      for (const l of take) chosen.set(l.n, l)
      // (a named line this piece took in was paid with its gap marker, which this take then did not pay: it stays)
      for (const l of take) if (l.n !== s.line) named.delete(l.n)
      shownText.add(body)
      placed++
      cost += add
      if (!frame) anchors.push(s)
    }
    // Traces grow earliest first: a build's first failure is most often the cause of the rest.
    anchors.sort((a, b) => a.line - b.line)
    if (!namedFirst && anchors.length > 0) {
      namedFirst = true
      nameBeforeGrowth(anchors, j)
    }
    for (const s of anchors) cost += grow(s.line)
    i = j
  }
  const lines = fillSmallGaps(text, [...chosen.values()].sort((a, b) => a.n - b.n), label)
  return { lines, cost: lines.length > 0 ? cost : 0 }
}

/** Lines between two kept pieces that cost less than the gap marker they replace are shown. */
function fillSmallGaps(text: string, lines: Line[], label: (n: number) => number): Line[] {
  const out: Line[] = []
  for (const l of lines) {
    const prev = out[out.length - 1]
    if (prev !== undefined && l.n - prev.n > 1 && l.n - prev.n <= 4) {
      const from = nextStart(text, prev.start)
      const gap: Line[] = []
      for (let at = from, n = prev.n + 1; n < l.n; n++, at = nextStart(text, at)) gap.push(lineAt(text, n, at))
      const cost = gap.reduce((sum, g) => sum + String(label(g.n)).length + 3 + (g.end - g.start), 0)
      if (cost <= GAP_MARKER_MAX / 2) out.push(...gap)
    }
    out.push(l)
  }
  return out
}
