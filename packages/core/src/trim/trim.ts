import { detectKind } from '../detect/detect.js'
import { DEFAULT_FILTERS } from '../filters/index.js'
import { terminalOmitted } from '../filters/terminal/terminal.js'
import type { FilterContext, FilterDef, FilterOutput } from '../filters/types.js'
import { asText } from './as-text.js'
import { resolveBudget } from './budget.js'
import { changedSpan } from './coarse.js'
import { charCut, fitText } from './fit.js'
import { composeStarts, validStarts, type LineMap } from './linemap.js'
import { resolveProfile } from './profiles.js'
import { scanLines, type LineScan } from './salient.js'
import { countLines } from './text.js'
import { countTokens } from './tokens.js'
import type { ContentKind, Profile, Size, TrimOptions, TrimOutcome } from './types.js'
import { lineView, type LineView } from './view.js'

/** Extra knobs for callers that assemble their own pipeline (tests, the benchmark). */
export interface TrimInternals {
  /** Filters to use instead of {@link DEFAULT_FILTERS}. */
  filters?: readonly FilterDef[]
}

function size(text: string, lines: number, tokenizer: TrimOptions['tokenizer']): Size {
  return { chars: text.length, lines, tokens: countTokens(text, tokenizer) }
}

/**
 * Turns a tool result into what the model should see: the result itself when it fits
 * `maxChars`, else a structure-aware excerpt that fits, with a visible marker for every
 * omission. Pure, synchronous and deterministic; never throws.
 *
 * @example
 * ```ts
 * import { trimResult } from '@spillway/core'
 *
 * const out = trimResult(buildLog, { tool: 'terminal', maxChars: 8000 })
 * out.text      // head + numbered error lines from the middle + tail, <= 8000 chars
 * out.omitted   // [{ start: 41, end: 9812, chars: 1234567 }, ...]
 * out.salient   // line numbers of the error lines found, kept or not
 * ```
 */
export function trimResult(result: string, options: TrimOptions = {}, internals: TrimInternals = {}): TrimOutcome {
  const input = asText(result)
  const opts = typeof options === 'object' && options !== null ? options : {}
  let profile: Profile
  let budget: number
  try {
    profile = resolveProfile(typeof opts.tool === 'string' ? opts.tool : undefined, opts.profiles)
    budget = resolveBudget(opts.maxChars, opts.contextWindow)
  } catch {
    profile = resolveProfile(undefined)
    budget = resolveBudget(undefined, undefined)
  }
  const tokenizer = typeof opts.tokenizer === 'function' ? opts.tokenizer : undefined
  const kind = safeDetect(input)
  // JSON around the real text: salient lines, line counts and omitted ranges are lines of the
  // text inside (what the excerpt numbers and what fetch_result reads), computed once here.
  const view = lineView(input)
  const lined = view?.text ?? input
  const scan = scanLines(lined, profile.salient && !profile.exempt)
  const original: Size = { chars: input.length, lines: scan.lines, tokens: countTokens(input, tokenizer) }
  const base = { kind, profile: profile.name, maxChars: budget, original, salient: scan.salient.map((s) => s.line), ...(view !== undefined ? { view: [...view.path] } : {}) }
  const unchanged = (): TrimOutcome => ({ ...base, text: input, changed: false, applied: [], kept: original, omitted: [], omittedExact: true })
  if (profile.exempt) return unchanged()

  const fits = input.length <= budget
  const applied: string[] = []
  let text = input
  // True while `text` has the lines of `lined` at their numbers (so fitted ranges are theirs).
  let linesKept = text === lined
  let terminalRanges: TrimOutcome['omitted'] | undefined
  let innerKind = kind
  if (!fits && (kind === 'json' || isQuoted(input)) && !profile.disabledFilters.includes('unwrap')) {
    // {"result": "<200 KB text>"} and JSON in a string: trim the text inside (the view, parsed once).
    if (view?.shape === 'envelope') {
      text = view.text
      innerKind = safeDetect(view.text)
      applied.push('unwrap')
      linesKept = true
    }
  }
  const ctx: FilterContext = { budget, kind: innerKind, tool: opts.tool, args: opts.args, profile }
  const done = !fits && text.length <= budget // the unwrapped text already fits
  const eligible = (done ? [] : internals.filters ?? DEFAULT_FILTERS).filter((f) => {
    if (profile.disabledFilters.includes(f.name) || (f.skipProfiles ?? []).includes(profile.name)) return false
    if (f.kinds !== 'any' && !f.kinds.includes(innerKind) && !(f.profiles ?? []).includes(profile.name)) return false
    if (fits) return f.lossless && profile.lossless.includes(f.name)
    return f.optIn !== true || profile.filters.includes(f.name) || profile.lossless.includes(f.name)
  })
  const tooBig = (f: FilterDef): boolean => f.maxInput !== undefined && text.length > f.maxInput
  // Cleanup filters skipped for size run on the excerpt instead (after the fit).
  const afterFit = eligible.filter((f) => f.cleanup === true && tooBig(f))
  const filters = eligible.filter((f) => !tooBig(f))
  // Set while `text`'s lines are runs of `lined`'s lines in order (exact dedup, blank runs).
  let starts: readonly number[] | undefined
  for (const f of filters) {
    let out: FilterOutput | undefined
    try {
      const r = f.run(text, ctx)
      out = typeof r === 'string' ? { text: r } : r !== null && typeof r === 'object' && typeof r.text === 'string' ? r : undefined
    } catch {
      continue // fail open: the next filter and the fitter still run
    }
    if (out !== undefined && out.text !== text) {
      if (!f.preservesLines) {
        const ls: readonly unknown[] | undefined = Array.isArray(out.lineStarts) ? out.lineStarts : undefined
        if (ls !== undefined && (linesKept || starts !== undefined) && validStarts(ls, countLines(out.text), countLines(text))) {
          starts = starts === undefined ? ls : composeStarts(starts, ls)
        } else starts = undefined
        linesKept = false
      }
      text = out.text
      applied.push(f.name)
      // The terminal filter fits the view's text itself: its omitted ranges are view lines.
      if (f.name === 'terminal' && view?.shape === 'terminal') terminalRanges = safeTerminalOmitted(out.text)
      // Once an over-budget result fits, later filters would only take more away.
      if (!fits && text.length <= budget) break
    }
  }
  if (applied.length === 0 && fits) return unchanged()

  let omitted: TrimOutcome['omitted'] = []
  if (text.length > budget) {
    try {
      const map: LineMap | undefined = starts !== undefined ? { starts, source: lined, lines: scan.lines, salient: base.salient } : undefined
      // A structural filter's own output (no line map) has no source line numbers to show:
      // fit it by head and tail only, so no `N: ` line can name the wrong source line.
      const fitProfile = linesKept || map !== undefined ? profile : { ...profile, salient: false }
      const fitted = fitText(text, budget, fitProfile, text === lined && linesKept ? scan : undefined, map)
      if (map !== undefined) linesKept = true // the fitter numbered and reported source lines
      text = fitted.text
      omitted = fitted.omitted
    } catch {
      const cut = charCut(text, budget, 0.5, countLines(text))
      text = cut.text
      omitted = cut.omitted
    }
    applied.push('fit')
    terminalRanges = undefined // the fit cut the filter's output: its ranges no longer hold
  }
  for (const f of afterFit) {
    try {
      const out = f.run(text, ctx)
      const cleaned = typeof out === 'string' ? out : out?.text
      if (typeof cleaned === 'string' && cleaned.length <= text.length && cleaned !== text) {
        text = cleaned
        applied.push(f.name) // cleans the excerpt only: which lines were omitted stays true
      }
    } catch {
      // fail open: the excerpt stays as fitted
    }
  }
  // Line numbers in `omitted` refer to the original (or its view) only when no filter moved
  // lines, or the filters said where their lines came from (merged runs, the terminal filter).
  // Else one coarse range: every line between the excerpt's verbatim first and last lines.
  let omittedExact = true
  if (!linesKept) {
    if (terminalRanges !== undefined) omitted = terminalRanges
    else if (starts !== undefined && !applied.includes('fit')) omitted = [] // runs merged with their counts: nothing left out
    else {
      const span = safeSpan(lined, text, scan.lines)
      omitted = span !== undefined ? [span] : []
      omittedExact = false
    }
  }
  return { ...base, text, changed: text !== input, applied, kept: size(text, countLines(text), tokenizer), omitted, omittedExact }
}

/** A JSON string literal (first and last non-blank chars are `"`): maybe a result encoded twice. */
function isQuoted(text: string): boolean {
  const blank = (c: number): boolean => c === 32 || c === 10 || c === 13 || c === 9
  let i = 0
  let j = text.length - 1
  while (i < j && blank(text.charCodeAt(i))) i++
  while (j > i && blank(text.charCodeAt(j))) j--
  return j > i && text.charCodeAt(i) === 34 && text.charCodeAt(j) === 34
}

function safeSpan(source: string, excerpt: string, lines: number): TrimOutcome['omitted'][number] | undefined {
  try {
    return changedSpan(source, excerpt, lines)
  } catch {
    return { start: 1, end: Math.max(1, lines), chars: Math.max(0, source.length - excerpt.length) }
  }
}

function safeTerminalOmitted(out: string): TrimOutcome['omitted'] | undefined {
  try {
    return terminalOmitted(out)
  } catch {
    return undefined
  }
}

function safeDetect(text: string): ContentKind {
  try {
    return detectKind(text)
  } catch {
    return 'text'
  }
}
