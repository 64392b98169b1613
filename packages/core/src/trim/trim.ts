import { detectKind } from '../detect/detect.js'
import { DEFAULT_FILTERS } from '../filters/index.js'
import { terminalOmitted } from '../filters/terminal/terminal.js'
import type { FilterContext, FilterDef } from '../filters/types.js'
import { resolveBudget } from './budget.js'
import { charCut, fitText } from './fit.js'
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

function asString(result: unknown): string {
  if (typeof result === 'string') return result
  if (result === undefined || result === null) return ''
  try {
    return typeof result === 'object' ? (JSON.stringify(result) ?? String(result)) : String(result)
  } catch {
    return Object.prototype.toString.call(result)
  }
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
  const input = asString(result)
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
  const view = safeView(input)
  const lined = view?.text ?? input
  const scan = scanLines(lined, profile.salient && !profile.exempt)
  const original: Size = { chars: input.length, lines: scan.lines, tokens: countTokens(input, tokenizer) }
  const base = { kind, profile: profile.name, maxChars: budget, original, salient: scan.salient.map((s) => s.line), ...(view !== undefined ? { view: [...view.path] } : {}) }
  const unchanged = (): TrimOutcome => ({ ...base, text: input, changed: false, applied: [], kept: original, omitted: [] })
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
    if (profile.disabledFilters.includes(f.name)) return false
    if (f.kinds !== 'any' && !f.kinds.includes(innerKind) && !(f.profiles ?? []).includes(profile.name)) return false
    if (fits) return f.lossless && profile.lossless.includes(f.name)
    return f.optIn !== true || profile.filters.includes(f.name) || profile.lossless.includes(f.name)
  })
  const tooBig = (f: FilterDef): boolean => f.maxInput !== undefined && text.length > f.maxInput
  // Cleanup filters skipped for size run on the excerpt instead (after the fit).
  const afterFit = eligible.filter((f) => f.cleanup === true && tooBig(f))
  const filters = eligible.filter((f) => !tooBig(f))
  for (const f of filters) {
    let out: string | undefined
    try {
      out = f.run(text, ctx)
    } catch {
      continue // fail open: the next filter and the fitter still run
    }
    if (typeof out === 'string' && out !== text) {
      text = out
      applied.push(f.name)
      if (!f.preservesLines) linesKept = false
      // The terminal filter fits the view's text itself: its omitted ranges are view lines.
      if (f.name === 'terminal' && view?.shape === 'terminal') terminalRanges = safeTerminalOmitted(out)
      // Once an over-budget result fits, later filters would only take more away.
      if (!fits && text.length <= budget) break
    }
  }
  if (applied.length === 0 && fits) return unchanged()

  let omitted: TrimOutcome['omitted'] = []
  if (text.length > budget) {
    try {
      const fitted = fitText(text, budget, profile, text === lined && linesKept ? scan : undefined)
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
      if (typeof out === 'string' && out.length <= text.length && out !== text) {
        text = out
        applied.push(f.name) // cleans the excerpt only: which lines were omitted stays true
      }
    } catch {
      // fail open: the excerpt stays as fitted
    }
  }
  // Line numbers in `omitted` refer to the original (or its view) only when no filter moved lines.
  if (!linesKept) omitted = terminalRanges ?? []
  return { ...base, text, changed: text !== input, applied, kept: size(text, countLines(text), tokenizer), omitted }
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

function safeView(text: string): LineView | undefined {
  try {
    return lineView(text)
  } catch {
    return undefined
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
