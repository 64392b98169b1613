import safeRegex from 'safe-regex2'

/** How a grep pattern will be searched, or why it is refused. */
export type PatternVerdict =
  | { kind: 'literal'; needle: string; why: 'asked' | 'plain' | 'invalid-regex' }
  | { kind: 'regex'; re: RegExp; window: number }
  | { kind: 'refused'; reason: string }

/** Limits of {@link screenPattern}. */
export interface PatternLimits {
  /** Longest pattern, in chars. */
  maxChars: number
  /** Most unbounded quantifiers (`*`, `+`, `{n,}`, `{n,m}` with m > 20) in one pattern. @default 4 */
  maxUnbounded?: number
}

/**
 * Worst-case backtracking steps allowed for one regex run on one window of text (~1 ns each on
 * V8, so about 50 ms). With q unbounded repeats and b choices from bounded ones, an unanchored
 * search of a window of W chars costs at most about b * W^(q+1) / (q+1)! steps, so W is chosen
 * to keep that under this budget.
 */
export const REGEX_STEP_BUDGET = 5e7

/** Largest window a regex ever runs on, in chars. */
export const REGEX_MAX_WINDOW = 100_000

/** Smallest useful window; a pattern that would need less is refused. */
const MIN_WINDOW = 64

/** Window size, in chars, for a pattern with `q` unbounded repeats and `b` bounded choices. */
export function regexWindow(q: number, b: number): number {
  let fact = 1
  for (let k = 2; k <= q + 1; k++) fact *= k
  return Math.min(REGEX_MAX_WINDOW, Math.floor(((fact * REGEX_STEP_BUDGET) / b) ** (1 / (q + 1))))
}

// A pattern with none of these is plain text; dots alone do not make a regex (see README).
const REGEX_SYNTAX = /[\\^$*+?()[\]{}|]/

interface Shape {
  backref: boolean
  lookaround: boolean
  quantifiedAlternation: boolean
  unbounded: number
  /** Product of the choices of bounded repeats (`?` = 2, `{n,m}` = m - n + 1). */
  choices: number
}

/** Classes two adjacent repeats can be told apart by: a char never in both (`\\w` / `\\s`, `\\d` / `\\D`, ...). */
const DISJOINT_CLASSES = new Set(['w|W', 'd|D', 's|S', 'w|s', 'd|s', 'd|W'])

/** An atom a repeat applies to: a class escape (`w`, `s`, ...), one literal char, or anything else. */
type Atom = { cls: string } | { char: string } | undefined

/** True when no char matches both atoms (unknown atoms never are). */
function disjoint(a: Atom, b: Atom, flags: string): boolean {
  if (a === undefined || b === undefined) return false
  if ('cls' in a && 'cls' in b) return DISJOINT_CLASSES.has(`${a.cls}|${b.cls}`) || DISJOINT_CLASSES.has(`${b.cls}|${a.cls}`)
  const lit = 'char' in a ? a : (b as { char: string })
  const other = lit === a ? b : a
  try {
    const re = 'cls' in other ? new RegExp(`^\\${other.cls}$`, flags) : new RegExp(`^${other.char.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')}$`, flags)
    return !re.test(lit.char)
  } catch {
    return false // half a surrogate pair and the like: assume they overlap
  }
}

/**
 * A quantified group is safe when its alternatives are plain text and none is a prefix of another
 * (`(foo|bar)+`): then at most one alternative matches at any position, as with a single atom.
 */
function prefixFreeLiterals(body: string, ignoreCase: boolean): boolean {
  const inner = body.startsWith('?:') ? body.slice(2) : body
  if (/[\\^$.*+?()[\]{}]/.test(inner)) return false
  const alts = inner.split('|').map((x) => (ignoreCase ? x.toLowerCase() : x))
  return alts.every((x, i) => x !== '' && alts.every((y, j) => i === j || !y.startsWith(x)))
}

/**
 * One pass over the pattern source, skipping escapes and classes, counting what makes backtracking
 * blow up. Adjacent top-level repeats of disjoint atoms that each need one char (`\\w+\\s+\\w+`) are
 * counted as one: where one ends and the next begins is forced, so they cannot trade chars.
 */
function shapeOf(src: string, flags: string): Shape {
  const shape: Shape = { backref: false, lookaround: false, quantifiedAlternation: false, unbounded: 0, choices: 1 }
  const groups: Array<{ alt: boolean; start: number }> = [] // per open group: does it hold a top-level `|`?
  // 0: not a quantifier, 1: bounded, 2: unbounded. `?` right after a quantifier makes it lazy, not a new one.
  const quantAt = (i: number): 0 | 1 | 2 => {
    const c = src[i]
    if (c === '*' || c === '+') return 2
    if (c === '?') return 1
    if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(src.slice(i))
      if (m === null) return 0
      return m[2] !== undefined && (m[3] === '' || Number(m[3]) > 20) ? 2 : 1
    }
    return 0
  }
  /** Length of the quantifier at `i` (with a lazy `?`) and the fewest repeats it allows. */
  const quantSpan = (i: number): { len: number; min: number } => {
    const m = /^\{(\d+)(?:,\d*)?\}/.exec(src.slice(i))
    const len = m !== null ? m[0].length : 1
    const min = m !== null ? Number(m[1]) : src[i] === '+' ? 1 : 0
    return { len: len + (src[i + len] === '?' ? 1 : 0), min }
  }
  const choicesAt = (i: number): number => {
    if (src[i] === '?') return 2
    const m = /^\{(\d+)(?:,(\d+))?\}/.exec(src.slice(i))
    return m === null ? 1 : Number(m[2] ?? m[1]) - Number(m[1]) + 1
  }
  let atom: Atom // the atom ending right before `i`, if known
  let atomStart = 0 // where it starts
  let chain: { atom: Atom; end: number } | undefined // last top-level unbounded repeat that needs a char, and where it ends
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!
    let next: Atom
    const at = i
    const q = quantAt(i)
    if (q !== 0) {
      const { len, min } = quantSpan(i)
      if (q === 2) {
        const chained = groups.length === 0 && min >= 1 && chain !== undefined && chain.end === atomStart && disjoint(chain.atom, atom, flags)
        if (!chained) shape.unbounded++
        chain = groups.length === 0 && min >= 1 && atom !== undefined ? { atom, end: i + len } : undefined
      } else {
        shape.choices = Math.min(1e9, shape.choices * Math.max(1, choicesAt(i)))
        chain = undefined
      }
      atom = undefined
      i += len - 1
      continue
    }
    if (c === '\\') {
      const n = src[i + 1] ?? ''
      if (/[1-9]/.test(n) || n === 'k') shape.backref = true
      next = /[wWdDsS]/.test(n) ? { cls: n } : /[^A-Za-z0-9]/.test(n) && n !== '' ? { char: n } : undefined
      i++
    } else if (c === '[') {
      for (i++; i < src.length && src[i] !== ']'; i++) if (src[i] === '\\') i++
    } else if (c === '(') {
      if (/^\(\?(?:=|!|<=|<!)/.test(src.slice(i))) shape.lookaround = true
      groups.push({ alt: false, start: i })
    } else if (c === '|') {
      const g = groups[groups.length - 1]
      if (g !== undefined) g.alt = true
    } else if (c === ')') {
      const g = groups.pop()
      if (g !== undefined && g.alt && quantAt(i + 1) !== 0 && !prefixFreeLiterals(src.slice(g.start + 1, i), flags.includes('i'))) shape.quantifiedAlternation = true
    } else if (!'.^$'.includes(c)) {
      next = { char: c }
    }
    atom = next
    atomStart = at
  }
  return shape
}

/**
 * Decides how `pattern` is searched. `literal: true` searches it as plain text; unset, a pattern
 * with no regex syntax besides dots (`v1.2.3`, `main.rs`) or one that is not a valid regex is
 * searched as plain text too. A regex is refused when it is longer than `maxChars`, or could
 * backtrack badly: star height > 1 (safe-regex2), a quantified group with alternatives
 * (`(a|aa)*`), back-references, look-arounds, or more than `maxUnbounded` unbounded quantifiers.
 * Whatever passes runs on windows of at most `window` chars (see {@link regexWindow}) so that one
 * run is bounded, and the whole search under a deadline checked between runs (see grep).
 */
export function screenPattern(pattern: string, opts: { literal?: boolean; ignoreCase?: boolean } & PatternLimits): PatternVerdict {
  if (pattern.length === 0) return { kind: 'refused', reason: 'The pattern is empty.' }
  if (pattern.length > opts.maxChars) return { kind: 'refused', reason: `The pattern is ${pattern.length} chars; the limit is ${opts.maxChars}. Use a shorter, more distinctive piece.` }
  if (opts.literal === true) return { kind: 'literal', needle: pattern, why: 'asked' }
  if (opts.literal !== false && !REGEX_SYNTAX.test(pattern)) return { kind: 'literal', needle: pattern, why: 'plain' }
  let re: RegExp
  try {
    re = new RegExp(pattern, opts.ignoreCase === true ? 'iu' : 'u')
  } catch {
    try {
      re = new RegExp(pattern, opts.ignoreCase === true ? 'i' : '')
    } catch {
      if (opts.literal === false) return { kind: 'refused', reason: 'The pattern is not a valid JavaScript regular expression.' }
      return { kind: 'literal', needle: pattern, why: 'invalid-regex' }
    }
  }
  const shape = shapeOf(pattern, re.flags)
  const window = regexWindow(shape.unbounded, shape.choices)
  const why =
    shape.backref ? 'it uses a back-reference'
    : shape.lookaround ? 'it uses a look-around'
    : shape.quantifiedAlternation ? 'it repeats a group of alternatives, like (a|aa)*'
    : shape.unbounded > (opts.maxUnbounded ?? 4) ? `it has ${shape.unbounded} unbounded repeats (limit ${opts.maxUnbounded ?? 4})`
    : window < MIN_WINDOW ? 'it has too many optional or repeated parts'
    : !safeRegex(re) ? 'it nests repeats, like (a+)+'
    : undefined
  if (why !== undefined) return { kind: 'refused', reason: `Regex refused because ${why}, which may be slow on long text. Use a simpler regex, or literal: true with a plain substring.` }
  return { kind: 'regex', re, window }
}
