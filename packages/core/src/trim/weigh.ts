/**
 * Weighing salient lines by what they are in *this* text, after the keyword scan
 * ({@link scanLines}) found them. The rules, each independent of any one build tool:
 *
 * - **Template rarity** (Drain-style): a line's template is its first chars with numbers, hex,
 *   quoted strings and paths masked. When one template repeats, its first and last occurrence
 *   keep their score and the copies in between lose points, so the thousandth `[ERROR]` of a
 *   noisy build ranks below a failure that happens once.
 * - **Failure lists**: a salient line that ends with `:` and is followed by indented or
 *   list-shaped lines (`Failed tests:`, `Tests in error:`, `The following tests FAILED:`,
 *   `Failing tests:`, `failures:`, `There was 1 failure:`, `The following build commands
 *   failed:`) announces the failing items; those lines, which rarely carry a keyword themselves,
 *   become candidates with the header's score, up to the next blank or de-indented line. A
 *   list whose entries have detail under them (JUnit Platform's `Failures (14):`, each failing
 *   test's name, then its source, exception and frames) is read on for its entries, the lines at
 *   its first item's indentation: they name the failures, and gain a point over the detail.
 * - **The project's own frame** (`frames.ts`): under a failure line, the first frame of its
 *   trace outside dependencies and the runtime (the test file and line that failed).
 * - **Call focus**: lines containing a term of the call (a grep pattern, a path, a command's
 *   words, see {@link focusTerms}) gain points.
 * - **Runner shapes, rarity near a failure, edges** (see `runners.ts`, `weights.ts`): a test
 *   runner's summary and first failing test's header, a one-off template near a failure line,
 *   the first and last failure line.
 *
 * How many points each rule gives is a {@link SalienceWeights} (defaults fitted by the
 * benchmark); each line also gets its template's id and, on a failing test's lines, the id of
 * that test's failure (`instance`: its header or verdict, or a template under it), which the
 * picker's diversity rule reads: one line of each template first, then one of each failure.
 *
 * Cost: one template per salient line (never more than the scan's limit) and a bounded look at
 * the lines after each list header; nothing here re-reads the whole text.
 */
import { isDigit, isLetter, isLetterOrDigit } from './chars.js'
import { appFrames } from './frames.js'
import { lineAt, nextStart } from './lines.js'
import { runnerLine } from './runners.js'
import { afterLinePrefix } from './shapes.js'
import { isTracebackStart } from './unit.js'
import type { SalientLine } from './salient.js'
import { RARE_NEAR, resolveWeights, type SalienceWeights } from './weights.js'

/** Chars of a line its template is made from. */
const TEMPLATE_CHARS = 120
/** Chars of a project frame that tell one frame from another (see {@link weighSalient}). */
const FRAME_CHARS = 400
/** Chars of the next line that join a line's template (see {@link weighSalient}). */
const NEXT_CHARS = 60
/** Most lines a failure list adds after its header, and most entries past them (see {@link weighSalient}). */
const MAX_LIST = 40
/** Most lines a failure list is read over, its entries' detail with them (JUnit Platform's `Failures (14):`, a trace under each). */
const MAX_LIST_LINES = 600
/** Points an entry of a failure list with detail under its entries gains over its header's score. */
const LIST_ENTRY = 1
/** Lines read past their first {@link MAX_LIST} in all failure lists of a text at most (each list reads those 40). */
const LIST_WORK = 20_000
/** Deepest indentation of a failure list's header (code in a trace ending with `:`, `    if error:`, is none). */
const LIST_HEADER_INDENT = 2
/** Lines under a failing test's header that are that test's (its trace and exception: see {@link weighSalient}). */
const TEST_SPAN = 40
/** A template seen more often than this is a repeat: copies between its first and last lose a point. */
const REPEAT_FROM = 2

/** Chars of a generated id: letters, digits, `_` and `-` (nanoid's alphabet). */
const isIdChar = (c: number): boolean => isLetterOrDigit(c) || c === 95 || c === 45
/** Shortest run of id chars that {@link walkTemplate} masks as one generated id. */
const ID_MIN = 12
/** Class of an id char for {@link idRun}: 1 lower case, 2 upper case, 3 digit, 0 `_` or `-`. */
const idClass = (c: number): number => (c >= 97 && c <= 122 ? 1 : c >= 65 && c <= 90 ? 2 : isDigit(c) ? 3 : 0)
/**
 * End of the run of id chars from `at` (before `stop`) when it is a generated id (a request id,
 * a nanoid, a pod's suffix), else 0: at least {@link ID_MIN} chars holding digits and letters
 * (Drain's "a token with digits is a variable", for long tokens only) whose neighbouring
 * letters and digits change class (lower, upper, digit) at two in five places or more, as random
 * chars do (two in three) and names do not: `test_v2_login` (one change in 13) and
 * `shouldReturn404WhenUserNotFound` (11 in 31) keep their words.
 */
function idRun(chars: Uint16Array, at: number, stop: number): number {
  let k = at
  let digits = 0
  let letters = 0
  let changes = 0
  let prev = 0
  for (; k < stop; k++) {
    const c = chars[k]!
    const cls = idClass(c)
    if (cls === 0 && c !== 95 && c !== 45) break
    if (cls === 3) digits++
    else if (cls !== 0) letters++
    if (cls !== 0 && prev !== 0 && cls !== prev) changes++
    prev = cls
  }
  const n = k - at
  return n >= ID_MIN && digits > 0 && letters > 0 && changes * 5 >= n * 2 ? k : 0
}

const isHex = (c: number): boolean => isDigit(c) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70)

/**
 * Template of a line: the first {@link TEMPLATE_CHARS} chars with runs of digits as `0`, hex runs
 * of 6+ as `#`, `"..."` / `'...'` as `"`, and any whitespace-free token holding a `/` or `\` as
 * `/`. One pass, no regex.
 */
export function lineTemplate(line: string): string {
  const n = walkTemplate(line, 0, Math.min(line.length, TEMPLATE_CHARS), false)
  return String.fromCharCode(...templateCodes.subarray(0, n))
}

/**
 * The template of the line `[start, end)` of `text` on its own (without the next line's, unlike
 * the key {@link weighSalient} ranks by): what the fitter's count notes compare ("N of them like
 * line L"). Reads at most {@link TEMPLATE_CHARS} chars after the indentation.
 */
export function ownTemplate(text: string, start: number, end: number): string {
  let i = start
  while (i < end && i - start < 256 && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++
  return lineTemplate(text.slice(i, Math.min(end, i + TEMPLATE_CHARS)))
}

/** JavaScript's `trimStart` whitespace (`\s`), by char code. */
function isSpaceCode(c: number): boolean {
  return (c >= 9 && c <= 13) || c === 32 || c === 160 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
}

/**
 * The char codes of the template the last {@link walkTemplate} call wrote, from 0 to the length
 * it returned (module state, read before the next call: no allocation or call per char).
 */
export let templateCodes = new Uint16Array(256)

/**
 * The window a {@link walkTemplate} call reads, each char read from the string once (typed-array
 * reads cost less than a string's): index 0 holds the char before the window (the id probe
 * reads it; 0 at the text's start), then `text[from, stop)`.
 */
let windowChars = new Uint16Array(257)

/**
 * The one masking walk behind {@link lineTemplate} (which builds the string), {@link templateKey}
 * (which hashes it) and the families' tokens (`family.ts`): writes the template of
 * `text[from, stop)`, leading blanks trimmed as `trimStart` when `trim`, into
 * {@link templateCodes} and returns its length (at most `stop - from`: every code stands for one
 * char or more).
 */
export function walkTemplate(text: string, from: number, stop: number, trim: boolean): number {
  const len = Math.max(0, stop - from)
  if (len > templateCodes.length) templateCodes = new Uint16Array(len)
  if (len + 1 > windowChars.length) windowChars = new Uint16Array(len + 1)
  const out = templateCodes
  const s = windowChars
  s[0] = from > 0 ? text.charCodeAt(from - 1) : 0
  for (let k = 0; k < len; k++) s[k + 1] = text.charCodeAt(from + k)
  // (positions in `s`: the window's chars are 1..len)
  const end = len + 1
  let n = 0
  let i = 1
  while (trim && i < end && isSpaceCode(s[i]!)) i++
  while (i < end) {
    const c = s[i]!
    if (c === 34 || c === 39) {
      // a quoted string closed inside the window: one `"`
      let close = i + 1
      while (close < end && s[close] !== c) close++
      if (close < end) {
        out[n++] = 34
        i = close + 1
        continue
      }
    }
    if (c !== 32 && c !== 9) {
      let j = i
      let slash = false
      let digits = false
      for (; j < end; j++) {
        const d = s[j]!
        if (d === 32 || d === 9) break
        if (d === 47 || d === 92) slash = true
        else if (isDigit(d)) digits = true
      }
      if (slash && j - i > 2) {
        out[n++] = 47
        i = j
        continue
      }
      if (!digits) {
        // (a token without a digit holds no number, hex run or generated id: kept as it is)
        for (; i < j; i++) out[n++] = s[i]!
        continue
      }
      for (; i < j; i++) {
        const d = s[i]!
        // A generated id (a request id, a nanoid, a pod suffix): a long run of id chars holding digits and letters
        if (j - i >= ID_MIN && isLetterOrDigit(d) && !isIdChar(s[i - 1]!)) {
          const r = idRun(s, i, j)
          if (r > 0) {
            out[n++] = 35
            i = r - 1
            continue
          }
        }
        if (!isHex(d)) {
          // (no digit, no hex run or `0x` starts here)
          out[n++] = d
          continue
        }
        // (`0x`: a leading 0 and an x inside the window)
        const x = d === 48 && i + 1 < end && (s[i + 1]! | 32) === 120
        let k = x ? i + 2 : i
        let digit = x
        for (; k < j && isHex(s[k]!); k++) if (isDigit(s[k]!)) digit = true
        if (digit && (k - i >= 6 || (k > i + 2 && x)) && (k === j || !isLetter(s[k]!))) {
          out[n++] = 35
          i = k - 1
          continue
        }
        if (isDigit(d)) {
          out[n++] = 48
          while (i + 1 < j && isDigit(s[i + 1]!)) i++
        } else out[n++] = d
      }
      continue
    }
    out[n++] = 32
    while (i < end && (s[i] === 32 || s[i] === 9)) i++
  }
  return n
}

// The running hash of templateKey (two 32-bit FNV-style lanes; module state, no allocation).
let lane1 = 0
let lane2 = 0
/** Hashes the first `n` codes of {@link templateCodes}, then `sep` when it is not -1, into the lanes. */
function hashCodes(n: number, sep: number): void {
  const codes = templateCodes
  let a = lane1
  let b = lane2
  for (let k = 0; k < n; k++) {
    const c = codes[k]!
    a = Math.imul(a ^ c, 0x01000193)
    b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15)
  }
  if (sep !== -1) {
    a = Math.imul(a ^ sep, 0x01000193)
    b = Math.imul(b ^ sep, 0x5bd1e995) ^ (b >>> 15)
  }
  lane1 = a
  lane2 = b
}

/**
 * The key {@link weighSalient} groups lines by: `${lineTemplate(a)}\n${lineTemplate(b)}` for the
 * windows `a = text[a0, a1)` and `b = text[b0, b1)` (each trimmed at the start), as a number,
 * without building either string. Equal templates give equal keys; different ones collide with
 * odds of about 2^-53 per pair.
 */
export function templateKey(text: string, a0: number, a1: number, b0: number, b1: number): number {
  lane1 = 0x811c9dc5
  lane2 = 0x1b873593
  hashCodes(walkTemplate(text, a0, a1, true), -1)
  // (a window that starts with no blank is the line's own: its key so far is the line's ownTemplateKey)
  lastOwnKey = a0 < a1 && !isSpaceCode(text.charCodeAt(a0)) ? laneKey() : -1
  hashCodes(0, 10)
  hashCodes(walkTemplate(text, b0, b1, true), -1)
  return laneKey()
}

/** The key the lanes hold. */
const laneKey = (): number => (lane1 >>> 0) * 2 ** 21 + ((lane2 >>> 0) & 0x1fffff)

/**
 * {@link ownTemplateKey} of the line `[a0, ...)` the last {@link templateKey} call read, when
 * its first window is the line's own window (up to {@link TEMPLATE_CHARS} chars, no leading
 * blank to trim), else -1: the walk the two keys share is done once.
 */
export let lastOwnKey = -1

/** {@link ownTemplate} as a number (see {@link templateKey}): the same grouping, no string built. */
export function ownTemplateKey(text: string, start: number, end: number): number {
  let i = start
  while (i < end && i - start < 256 && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++
  lane1 = 0x811c9dc5
  lane2 = 0x1b873593
  hashCodes(walkTemplate(text, i, Math.min(end, i + TEMPLATE_CHARS), false), -1)
  return laneKey()
}

/** Leading spaces/tabs of the line at `[start, end)`. */
function indentOf(text: string, start: number, end: number): number {
  let i = start
  while (i < end && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++
  return i - start
}

/**
 * True when the line reads as an item of a list: indented deeper than the header, or `1) `, `- `,
 * `* `. `headerMark`: the header's own first char after its prefix; a `- ` or `* ` that the header
 * starts with too is the log's format, not a bullet (Python logging's and log4j's
 * `2024-03-01 12:00:00,001 - app - INFO - ...` read past their stamp).
 */
function isListItem(text: string, l: { start: number; end: number }, headerIndent: number, headerMark: number): boolean {
  if (l.end === l.start) return false
  const from = afterLinePrefix(text, l.start, l.end)
  const ind = indentOf(text, from, l.end)
  if (ind === l.end - from) return false // blank
  if (ind > headerIndent) return true
  const c = text.charCodeAt(from + ind)
  const c2 = text.charCodeAt(from + ind + 1)
  if ((c === 45 || c === 42) && c2 === 32) return c !== headerMark // - item, * item
  if (isDigit(c)) {
    let k = from + ind
    while (k < l.end && isDigit(text.charCodeAt(k))) k++
    const d = text.charCodeAt(k)
    return d === 41 || (d === 46 && text.charCodeAt(k + 1) === 32) // 1) / 1.
  }
  return false
}

/** The header of a failure list: a line whose last non-blank char is `:`. */
function endsWithColon(text: string, s: SalientLine): boolean {
  let e = s.end
  while (e > s.start && (text.charCodeAt(e - 1) === 32 || text.charCodeAt(e - 1) === 9)) e--
  return e > s.start && text.charCodeAt(e - 1) === 58
}

/**
 * Terms of the call that raise matching lines: string values of the call's arguments (a grep
 * pattern, a path, a command) split on spaces and quotes, 4..80 chars, letters or digits in
 * them, flags (`-x`, `--x`) and shell words dropped. At most 16, in order, deterministic.
 */
export function focusTerms(args: unknown): string[] {
  const strings: string[] = []
  const visit = (v: unknown, depth: number): void => {
    if (strings.length > 32 || depth > 3) return
    if (typeof v === 'string') strings.push(v)
    else if (Array.isArray(v)) for (const x of v.slice(0, 16)) visit(x, depth + 1)
    else if (v !== null && typeof v === 'object') for (const x of Object.values(v).slice(0, 16)) visit(x, depth + 1)
  }
  try {
    visit(args, 0)
  } catch {
    return []
  }
  const out: string[] = []
  for (const s of strings) {
    for (const raw of s.slice(0, 2000).split(/[\s"'`|;&<>()=]+/)) {
      const t = raw.replace(/^[./]+/, '')
      if (t.length < 4 || t.length > 80 || t.startsWith('-') || !/[A-Za-z0-9]/.test(t) || SHELL_WORDS.has(t)) continue
      if (!out.includes(t)) out.push(t)
      if (out.length >= 16) return out
    }
  }
  return out
}

/**
 * Distinctive words of a request in prose (the user's last message): 5..80 chars, with a letter,
 * not a common English or build word, in order, at most 8. A prose message is mostly words every
 * log has; only the rare ones (a file, a test, a symbol the user named) should raise lines.
 */
export function requestTerms(text: string | undefined): string[] {
  if (typeof text !== 'string') return []
  const out: string[] = []
  for (const raw of text.slice(0, 4000).split(/[\s"'`|;&<>()=,!?]+/)) {
    const t = raw.replace(/^[./]+/, '').replace(/[.:]+$/, '')
    if (t.length < 5 || t.length > 80 || !/[A-Za-z]/.test(t) || COMMON_WORDS.has(t.toLowerCase()) || SHELL_WORDS.has(t)) continue
    if (!out.includes(t)) out.push(t)
    if (out.length >= 8) break
  }
  return out
}

/** The call's terms: its arguments' ({@link focusTerms}) and its request's ({@link requestTerms}), at most 16. */
export function callTerms(args: unknown, request: string | undefined): string[] {
  const terms = focusTerms(args)
  for (const t of requestTerms(request)) if (terms.length < 16 && !terms.includes(t)) terms.push(t)
  return terms
}

/** Words of prose that name nothing in particular (lower case, 5+ chars). */
const COMMON_WORDS = new Set([
  'about', 'after', 'again', 'could', 'error', 'errors', 'every', 'failed', 'failing', 'fails', 'failure', 'first', 'please', 'there',
  'these', 'thing', 'those', 'where', 'which', 'while', 'would', 'should', 'their', 'output', 'result', 'results', 'what\'s', 'doesn\'t',
  'check', 'build', 'builds', 'tests', 'fix', 'broken', 'working', 'works', 'issue', 'problem', 'because', 'still', 'today', 'help',
  'compile', 'running', 'latest', 'change', 'changes', 'before', 'happened', 'happening', 'going', 'think', 'something', 'anything',
  'since', 'commit', 'commits', 'merge', 'branch', 'green', 'passing', 'passed', 'until', 'never', 'always', 'other',
])

const SHELL_WORDS = new Set(['bash', 'sudo', 'then', 'else', 'echo', 'true', 'false', 'npm run', 'make', 'test', 'tests', 'build', 'run', 'exec'])

/** Options of {@link weighSalient}. */
export interface WeighOptions {
  /** Only lines in `[from, to)` (char offsets) are added as list items. @default whole text */
  from?: number
  to?: number
  /** Terms of the call (see {@link focusTerms}); a line holding one gains a point. @default [] */
  focus?: readonly string[]
  /** Points of each signal (see {@link SalienceWeights}). @default DEFAULT_SALIENCE_WEIGHTS */
  weights?: Partial<SalienceWeights>
}

/**
 * Salient lines re-scored by template rarity, with the items of failure lists added and lines
 * matching the call's terms raised; ascending by line, scores 1..5. Deterministic and linear in
 * the number of salient lines plus the list lines it reads.
 */
export function weighSalient(text: string, salient: readonly SalientLine[], options: WeighOptions = {}): SalientLine[] {
  const from = options.from ?? 0
  const to = options.to ?? text.length
  const focus = options.focus ?? []
  // A line's key is its template and the next line's: a repeated header (`Error:`) followed by
  // a different test each time is not a repeat.
  // (As a number: the same grouping as the two templates' strings, without building them.)
  // Each line's failure (`SalientLine.instance`), finer than its template: a failing test's header
  // or verdict (`runners.ts` runnerLine) is keyed by its own text, so two tests that failed are two
  // failures (pytest's `test_negotiation_1 FAILED` and `test_negotiation_2 FAILED` share a
  // template); a line within TEST_SPAN lines under it (its trace, its exception), before the next
  // one or the run's summary, by its template and that test, so ten tests' `IOError: [Errno 2] No
  // such file` lines are ten failures' causes. The picker shows one line of each template first
  // (the one test that failed differently among 119 alike), then one of each failure.
  const runners = salient.map((s) => runnerLine(text.slice(s.start, Math.min(s.end, s.start + 400))))
  const tests = new Map<string, number>()
  let test: number | undefined
  let testLine = 0
  const templates: number[] = []
  // Each line's ownTemplateKey when its key's walk gave it (-1: the fitter's count notes walk it)
  const owns: number[] = []
  const instances = salient.map((s, i): number | string => {
    const next = lineAt(text, s.line + 1, nextStart(text, s.start))
    const key = templateKey(text, s.start, Math.min(s.end, s.start + TEMPLATE_CHARS), next.start, Math.min(next.end, next.start + NEXT_CHARS))
    templates.push(key)
    owns.push(lastOwnKey)
    const { shape, test: name } = runners[i]!
    if (name !== undefined) {
      let id = tests.get(name)
      // (negative: no template key is)
      if (id === undefined) tests.set(name, (id = -1 - tests.size))
      test = id
      testLine = s.line
      return id
    }
    if (shape === 'summary') test = undefined
    return test !== undefined && s.line - testLine <= TEST_SPAN ? `${test} ${key}` : key
  })
  const ids = new Map<number, number>()
  for (const t of templates) if (!ids.has(t)) ids.set(t, ids.size)
  const instanceIds = new Map<number | string, number>()
  for (const t of instances) if (!instanceIds.has(t)) instanceIds.set(t, instanceIds.size)
  const count = new Map<number, number>()
  const last = new Map<number, number>()
  templates.forEach((t, i) => {
    count.set(t, (count.get(t) ?? 0) + 1)
    last.set(t, i)
  })
  const w = resolveWeights(options.weights)
  // Failure lines (keyword score >= 3), for rarity's "near a failure" and the first/last edge.
  const strong = salient.filter((s) => s.score >= 3).map((s) => s.line)
  const firstStrong = strong[0]
  const lastStrong = strong[strong.length - 1]
  let k = 0
  const nearStrong = (line: number): boolean => {
    while (k < strong.length && strong[k]! < line - RARE_NEAR) k++
    return k < strong.length && strong[k]! <= line + RARE_NEAR
  }
  const seen = new Set<number>()
  const byLine = new Map<number, SalientLine>()
  let firstFailureShape = true
  salient.forEach((s, i) => {
    const t = templates[i]!
    const first = !seen.has(t)
    seen.add(t)
    const n = count.get(t) ?? 0
    const repeat = n > REPEAT_FROM && !first && last.get(t) !== i
    let score = repeat ? Math.max(1, s.score - w.repeat) : s.score
    if (w.rare !== 0 && n === 1 && nearStrong(s.line)) score += w.rare
    if (w.edge !== 0 && (s.line === firstStrong || s.line === lastStrong)) score += w.edge
    if (w.runner !== 0) {
      // A failure's shape on a line that reads as a warning (`[WARNING] A.java:[12,5] unchecked`) is not a failure.
      const found = runners[i]!.shape
      const shape = found === 'failure' && s.score < 2 ? undefined : found
      if (shape === 'summary' || (shape === 'failure' && firstFailureShape)) score += w.runner
      if (shape === 'failure') firstFailureShape = false
    }
    const instance = instances[i]!
    // (built field by field: a spread with a conditional spread inside cost a tenth of a dense log's trim)
    const weighed: SalientLine = { line: s.line, start: s.start, end: s.end, score: Math.max(1, score), template: ids.get(t)! }
    // (a failing test's own line keeps its negative id: the picker names every such test first)
    if (instance !== t) weighed.instance = typeof instance === 'number' && instance < 0 ? instance : instanceIds.get(instance)!
    else if (s.instance !== undefined) weighed.instance = s.instance
    if ('frame' in s) weighed.frame = s.frame
    const own = owns[i]!
    if (own !== -1) weighed.own = own
    byLine.set(s.line, weighed)
  })
  // Failure lists: items after a salient header ending with ':'.
  // (Python's `Traceback (most recent call last):` is a trace's header, not a list of failures)
  let listWork = LIST_WORK
  for (const s of salient) {
    if (s.score < 2 || !endsWithColon(text, s) || isTracebackStart(text, s.start, s.end)) continue
    const headerFrom = afterLinePrefix(text, s.start, s.end)
    const headerIndent = indentOf(text, headerFrom, s.end)
    if (headerIndent > LIST_HEADER_INDENT) continue
    const headerMark = text.charCodeAt(headerFrom + headerIndent)
    let at = nextStart(text, s.start)
    // (the list's entries: its items at the first item's indentation; past MAX_LIST lines only
    // they are read, each failure's detail under it passed over, up to MAX_LIST of them)
    let entryIndent = -1
    let entries = 0
    // (entries with a deeper line under them)
    let detailed = 0
    let under = false
    // (the entries this list added: a line already a candidate keeps its score)
    const added: number[] = []
    for (let k = 1; k <= MAX_LIST_LINES && at < to; k++) {
      // (past the first MAX_LIST lines, only while entries are still to come, within LIST_WORK over all lists)
      if (k > MAX_LIST && (entries >= MAX_LIST || listWork-- <= 0)) break
      const l = lineAt(text, s.line + k, at)
      if (l.end >= to || !isListItem(text, l, headerIndent, headerMark)) break
      const indent = indentOf(text, afterLinePrefix(text, l.start, l.end), l.end)
      if (entryIndent === -1) entryIndent = indent
      const entry = indent <= entryIndent
      if (entry) {
        entries++
        under = false
      } else if (!under) {
        under = true
        detailed++
      }
      if ((k <= MAX_LIST || entry) && l.start >= from && !byLine.has(l.n)) {
        byLine.set(l.n, { line: l.n, start: l.start, end: l.end, score: s.score })
        if (entry) added.push(l.n)
      }
      at = nextStart(text, at)
    }
    // (a list whose entries have detail under them, two at least: the entries name the failures)
    const detail = detailed >= 2
    if (detail) for (const n of added) byLine.get(n)!.score += LIST_ENTRY

  }
  // The project's own frame of each trace (`frames.ts`).
  // A frame's kind is its exact text (after a CI timestamp): the same frame under 15 failures is
  // one, the test file's frame at another line another.
  const frameKinds = new Map<string, number>()
  for (const f of appFrames(text, salient, from, to)) {
    if (byLine.has(f.line)) continue
    const at = afterLinePrefix(text, f.start, f.end)
    const body = text.slice(at, Math.min(f.end, at + FRAME_CHARS)).trim()
    if (!frameKinds.has(body)) frameKinds.set(body, ids.size + frameKinds.size)
    byLine.set(f.line, { ...f, template: frameKinds.get(body)! })
  }
  const out = [...byLine.values()].sort((a, b) => a.line - b.line)
  if (focus.length > 0) {
    for (const s of out) {
      const body = text.slice(s.start, Math.min(s.end, s.start + 600))
      if (focus.some((f) => body.includes(f))) s.score = Math.max(1, s.score + w.focus)
    }
  }
  return out
}
