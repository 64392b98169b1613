import { RE2JS } from 're2js'
import safeRegex from 'safe-regex2'

/**
 * Searches one line. Regexes run on RE2 (`re2js`, a linear-time automaton engine: no
 * backtracking, so no pattern can hang the host); V8's `RegExp` is used only to search plain text.
 */
export interface LineMatcher {
  /** `literal`: the pattern is searched as plain text; `regex`: as a regular expression (RE2). */
  readonly kind: 'literal' | 'regex'
  /** True when the line holds a match. Linear in the line's length. */
  test(line: string): boolean
  /** 0-based UTF-16 index of the first match in `line`, or -1. Linear in the line's length. */
  indexIn(line: string): number
}

/** How a grep pattern will be searched, or why it is refused. */
export type PatternVerdict =
  | (LineMatcher & { kind: 'literal'; needle: string; why: 'asked' | 'plain' | 'invalid-regex' })
  | (LineMatcher & {
      kind: 'regex'
      /**
       * The matcher for a piece of a line too long to search whole: `^` cannot match where the
       * piece starts inside the line (`startsInside`), nor `$` where it ends inside it (`endsInside`).
       */
      piece(startsInside: boolean, endsInside: boolean): LineMatcher
    })
  | { kind: 'refused'; reason: string }

/** Options of {@link compileMatcher}. */
export interface MatcherOptions {
  /** Longest pattern, in chars (the spillway passes `patternMaxChars`, default 256). */
  maxChars: number
  /** `true`: plain text whatever it contains; `false`: always a regex; unset: decided by the pattern. */
  literal?: boolean
  /** Match regardless of case. @default false */
  ignoreCase?: boolean
}

// A pattern with none of these is plain text; dots alone do not make a regex (see README).
const REGEX_SYNTAX = /[\\^$*+?()[\]{}|]/

const refuse = (why: string): PatternVerdict => ({ kind: 'refused', reason: `Regex refused because ${why}. Use a simpler regex, or literal: true with a plain substring.` })

function escapeRegex(s: string): string {
  return s.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')
}

/** Plain-text search: `String#includes`/`indexOf`, or, ignoring case, V8 on the escaped text (no quantifier, so nothing to backtrack). */
function literalMatcher(needle: string, ignoreCase: boolean, why: 'asked' | 'plain' | 'invalid-regex'): PatternVerdict {
  if (!ignoreCase) return { kind: 'literal', needle, why, test: (line) => line.includes(needle), indexIn: (line) => line.indexOf(needle) }
  const re = new RegExp(escapeRegex(needle), 'i')
  return { kind: 'literal', needle, why, test: (line) => re.test(line), indexIn: (line) => line.search(re) }
}

/**
 * The RE2-unsupported syntax a model may write, named so the refusal can say what to change: one
 * pass over the source, skipping escapes and classes. RE2 itself would reject most of these too,
 * but with a parser message (and `\k<n>` it would silently read as the text `k<n>`).
 */
function unsupportedSyntax(src: string): string | undefined {
  for (let i = 0; i < src.length; i++) {
    const c = src[i]
    if (c === '\\') {
      const n = src[i + 1] ?? ''
      if (/[1-9]/.test(n) || n === 'k') return 'it uses a back-reference (\\1, \\k<name>), which the linear-time regex engine (RE2) does not support'
      i++
    } else if (c === '[') {
      for (i++; i < src.length && src[i] !== ']'; i++) if (src[i] === '\\') i++
    } else if (c === '(' && /^\(\?(?:=|!|<=|<!)/.test(src.slice(i, i + 4))) {
      return 'it uses a look-ahead or look-behind ((?=, (?!, (?<=, (?<!), which the linear-time regex engine (RE2) does not support'
    }
  }
  return undefined
}

/**
 * Decides how `pattern` is searched and compiles it. `literal: true` searches it as plain text;
 * unset, a pattern with no regex syntax besides dots (`v1.2.3`, `main.rs`), or one that is not a
 * valid JavaScript regex (`foo(bar`), is searched as plain text too. A regex runs on RE2 (linear
 * time in the text, whatever the pattern); before that it is refused, with the reason in words,
 * when it is over `maxChars`, uses syntax RE2 lacks (back-references, look-arounds), nests
 * repeats like `(a+)+` (safe-regex2: a cheap first refusal, kept so such patterns get a clear
 * answer rather than an engine-specific one), or RE2 cannot compile it.
 *
 * @example
 * const m = compileMatcher('FAILED.*test_\\w+', { maxChars: 256 })
 * if (m.kind !== 'refused') m.test('FAILED tests/a.py::test_x') // true
 */
export function compileMatcher(pattern: string, opts: MatcherOptions): PatternVerdict {
  if (pattern.length === 0) return { kind: 'refused', reason: 'The pattern is empty.' }
  if (pattern.length > opts.maxChars) return { kind: 'refused', reason: `The pattern is ${pattern.length} chars; the limit is ${opts.maxChars}. Use a shorter, more distinctive piece.` }
  const ignoreCase = opts.ignoreCase === true
  if (opts.literal === true) return literalMatcher(pattern, ignoreCase, 'asked')
  if (opts.literal !== false && !REGEX_SYNTAX.test(pattern)) return literalMatcher(pattern, ignoreCase, 'plain')
  // Whether it is a regex at all is JavaScript's call (the tool promises JavaScript syntax); V8
  // only parses it here, it never runs it on the text.
  let js: RegExp
  try {
    js = new RegExp(pattern, ignoreCase ? 'iu' : 'u')
  } catch {
    try {
      js = new RegExp(pattern, ignoreCase ? 'i' : '')
    } catch {
      if (opts.literal === false) return { kind: 'refused', reason: 'The pattern is not a valid JavaScript regular expression.' }
      return literalMatcher(pattern, ignoreCase, 'invalid-regex')
    }
  }
  const unsupported = unsupportedSyntax(pattern)
  if (unsupported !== undefined) return refuse(unsupported)
  if (!safeRegex(js)) return refuse('it nests repeats, like (a+)+')
  let re: RE2JS
  try {
    re = RE2JS.compile(RE2JS.translateRegExp(pattern), ignoreCase ? RE2JS.CASE_INSENSITIVE : 0)
  } catch (err) {
    const msg = err instanceof Error ? err.message.replace(/^error parsing regexp: /, '') : String(err)
    return refuse(`the linear-time regex engine (RE2) cannot compile it (${msg.slice(0, 120)})`)
  }
  const flags = ignoreCase ? RE2JS.CASE_INSENSITIVE : 0
  const pieces = new Map<number, LineMatcher>()
  const whole = re2Matcher(re)
  return {
    ...whole,
    kind: 'regex',
    piece(startsInside, endsInside) {
      const key = (startsInside ? 1 : 0) + (endsInside ? 2 : 0)
      if (key === 0) return whole
      let m = pieces.get(key)
      if (m === undefined) {
        pieces.set(key, (m = re2Matcher(RE2JS.compile(RE2JS.translateRegExp(withoutAnchors(pattern, startsInside, endsInside)), flags))))
      }
      return m
    },
  }
}

/** A compiled RE2 pattern as a {@link LineMatcher}. */
const re2Matcher = (r: RE2JS): LineMatcher => ({ kind: 'regex', test: (line) => r.test(line), indexIn: (line) => (r.exec(line) as RegExpExecArray | null)?.index ?? -1 })

/** A class no char is in: what an anchor becomes where it cannot match. */
const NOTHING = '[^\\s\\S]'

/**
 * `pattern` with its `^` (when `start`) and `$` (when `end`) anchors made unmatchable: escaped
 * chars and character classes (`[^a]`, `[$]`) are left as they are.
 */
function withoutAnchors(pattern: string, start: boolean, end: boolean): string {
  let out = ''
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!
    if (c === '\\') {
      out += pattern.slice(i, i + 2)
      i++
    } else if (c === '[') {
      let j = i + 1
      for (; j < pattern.length && pattern[j] !== ']'; j++) if (pattern[j] === '\\') j++
      out += pattern.slice(i, j + 1)
      i = j
    } else if ((c === '^' && start) || (c === '$' && end)) out += NOTHING
    else out += c
  }
  return out
}

/** Former name of {@link compileMatcher}. */
export const screenPattern = compileMatcher
