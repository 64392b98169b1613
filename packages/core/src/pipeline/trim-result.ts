import { detectKind } from '../detect/detect.js'
import { DEFAULT_FILTERS } from '../filters/index.js'
import type { FilterContext, FilterDef } from '../filters/types.js'
import { asText } from '../trim/as-text.js'
import { REWRITTEN, SOURCE, type Provenance } from '../trim/provenance.js'
import { scanLines } from '../trim/salient.js'
import { countLines } from '../trim/text.js'
import { countTokens, isTokenCount } from '../trim/tokens.js'
import { answerOnce, charsForTokens, fitTokens } from './tokens.js'
import type { ContentKind, Size, TrimOptions, TrimOutcome } from '../trim/types.js'
import { lineView } from '../trim/view.js'
import { callTerms } from '../trim/weigh.js'
import type { SalienceWeights } from '../trim/weights.js'
import { fitStep, omittedLines, withSummaries, type Source } from './fit.js'
import { planFilters, runCleanup, runFilters } from './filters.js'
import { retrim } from './retrim.js'
import { resolveSettings } from './settings.js'

/** Extra knobs for callers that assemble their own pipeline (tests, the benchmark). */
export interface TrimInternals {
  /** Filters to use instead of {@link DEFAULT_FILTERS}. */
  filters?: readonly FilterDef[]
  /** Salience weights instead of {@link DEFAULT_SALIENCE_WEIGHTS} (the benchmark's grid search). */
  salience?: Partial<SalienceWeights>
}

/**
 * Turns a tool result into what the model should see: the result itself when it fits
 * `maxChars`, else a structure-aware excerpt that fits, with a visible marker for every
 * omission. Pure, synchronous and deterministic; never throws.
 *
 * The steps, in order: **detect** the kind; find the **source** whose lines the excerpt numbers
 * (the result, or the text inside its JSON envelope) and scan it once for salient lines;
 * **unwrap** that text when the result is over budget; run the **filters**, each moving the
 * lines' provenance on; **fit** what is still over budget (head, numbered salient lines, tail,
 * a **marker** for every gap; lines holding a term of the call's `args` rank higher); run the
 * cleanup filters on the excerpt; report what was omitted. Spillway's own excerpt or handle
 * block as input is kept, or re-fitted in its original's line numbers (`applied: ['refit']`).
 * With `maxTokens`, the whole is re-fitted until the token budget holds.
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
  const opts: TrimOptions = typeof options === 'object' && options !== null ? options : {}
  const maxTokens = typeof opts.maxTokens === 'number' && opts.maxTokens >= 0 && opts.maxTokens !== Infinity ? Math.floor(opts.maxTokens) : undefined
  if (maxTokens === undefined) return trimChars(result, opts, internals)
  const given = typeof opts.tokenizer === 'function' ? opts.tokenizer : undefined
  const charCap = typeof opts.maxChars === 'number' && !Number.isNaN(opts.maxChars) ? opts.maxChars : Infinity
  const withTokens = (o: TrimOutcome): TrimOutcome => ({ ...o, maxTokens })
  if (given === undefined) return withTokens(trimChars(result, { ...opts, maxChars: Math.min(charCap, charsForTokens(maxTokens)) }, internals))
  // (each round counts the input for the outcome, and each excerpt twice: asked once each)
  const tokenizer = answerOnce(given)
  // Exact: re-fit with a smaller char budget until the tokenizer agrees. A tokenizer that throws
  // or returns nonsense counts as "too many", so the budget still holds (an empty text at worst).
  const count = (text: string): number => {
    try {
      const n = tokenizer(text)
      return isTokenCount(n) ? n : Infinity
    } catch {
      return Infinity
    }
  }
  const start = Math.min(charCap, asText(result).length)
  return withTokens(fitTokens((maxChars) => trimChars(result, { ...opts, maxChars, tokenizer }, internals), (o) => o.text, maxTokens, count, start))
}

/** A re-trim that fails (a bug, never the input's fault) leaves the input to the ordinary pipeline. */
function safeRetrim<T>(run: () => T): T | undefined {
  try {
    return run()
  } catch {
    return undefined
  }
}

/** {@link trimResult} with a char budget only. */
function trimChars(result: string, options: TrimOptions, internals: TrimInternals): TrimOutcome {
  const input = asText(result)
  const { profile, budget, tokenizer, tool, args, focus } = resolveSettings(options)
  const kind = safeDetect(input)
  // JSON around the real text: salient lines, line counts and omitted ranges are lines of the
  // text inside (what the excerpt numbers and what fetch_result reads), computed once here.
  const view = lineView(input)
  const lined = view?.text ?? input
  const outcomeBase = (lines: number, salient: number[]) => {
    const original: Size = { chars: input.length, lines, tokens: countTokens(input, tokenizer) }
    const base = { kind, profile: profile.name, maxChars: budget, original, salient, ...(view !== undefined ? { view: [...view.path] } : {}) }
    const unchanged = (): TrimOutcome => ({ ...base, text: input, changed: false, applied: [], kept: original, omitted: [], omittedExact: true })
    return { original, base, unchanged }
  }
  if (profile.exempt) return outcomeBase(countLines(lined), []).unchanged()
  // Our own excerpt or handle block coming back: kept, or re-fitted in the original's numbers.
  // Checked before the salience scan: the text above a handle is scanned by its own trim
  // (`inner`, whose line numbers are the input's), so a large one is not scanned twice.
  let inner: TrimOutcome | undefined
  const again = safeRetrim(() => retrim(input, budget, profile, (body, maxChars) => (inner = trimChars(body, { ...options, maxChars }, internals))))
  if (again !== undefined) {
    const own = inner !== undefined && inner.view === undefined && view === undefined ? inner : undefined
    const scan = own === undefined ? scanLines(lined, profile.salient) : undefined
    const { base, unchanged } = outcomeBase(scan?.lines ?? countLines(lined), scan?.salient.map((s) => s.line) ?? own!.salient)
    if (again.text === input) return unchanged()
    const { text, applied, omitted, omittedExact } = again
    return { ...base, text, changed: true, applied, kept: { chars: text.length, lines: countLines(text), tokens: countTokens(text, tokenizer) }, omitted, omittedExact }
  }
  const source: Source = { text: lined, scan: scanLines(lined, profile.salient) }
  const { original, base, unchanged } = outcomeBase(source.scan.lines, source.scan.salient.map((s) => s.line))

  const fits = input.length <= budget
  const applied: string[] = []
  let text = input
  let provenance: Provenance = input === source.text ? SOURCE : REWRITTEN
  let innerKind = kind
  // Unwrap: {"result": "<200 KB text>"} and JSON in a string: trim the text inside.
  if (!fits && (kind === 'json' || isQuoted(input)) && !profile.disabledFilters.includes('unwrap') && view?.shape === 'envelope') {
    text = view.text
    innerKind = safeDetect(view.text)
    provenance = SOURCE
    applied.push('unwrap')
  }
  const ctx: FilterContext = { budget, kind: innerKind, tool, args, profile }
  const done = !fits && text.length <= budget // the unwrapped text already fits
  const plan = planFilters(done ? [] : internals.filters ?? DEFAULT_FILTERS, text, innerKind, profile, fits)
  const filtered = runFilters(text, provenance, plan.before, ctx, fits, view?.shape === 'terminal')
  text = filtered.text
  provenance = filtered.provenance
  applied.push(...filtered.applied)
  if (applied.length === 0 && fits) return unchanged()

  let fittedOmitted: TrimOutcome['omitted'] | undefined
  const merged = provenance
  if (text.length > budget) {
    const fitted = fitStep(text, budget, profile, provenance, source, callTerms(args, focus), internals.salience)
    text = fitted.text
    provenance = fitted.provenance
    fittedOmitted = fitted.omitted
    applied.push('fit')
  }
  const cleaned = runCleanup(text, plan.after, ctx)
  text = cleaned.text
  applied.push(...cleaned.applied)
  const lines = omittedLines(provenance, fittedOmitted, source, text)
  const omitted = lines.omittedExact ? withSummaries(lines.omitted, merged, source, text) : lines.omitted
  const omittedExact = lines.omittedExact
  return { ...base, text, changed: text !== input, applied, kept: { chars: text.length, lines: countLines(text), tokens: countTokens(text, tokenizer) }, omitted, omittedExact }
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

function safeDetect(text: string): ContentKind {
  try {
    return detectKind(text)
  } catch {
    return 'text'
  }
}
