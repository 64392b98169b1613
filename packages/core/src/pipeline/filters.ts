import { terminalOmitted } from '../filters/terminal/terminal.js'
import type { FilterContext, FilterDef, FilterOutput } from '../filters/types.js'
import { excerptNumbers } from '../trim/excerpt.js'
import { afterFilter, type Provenance } from '../trim/provenance.js'
import type { LineRange, Profile } from '../trim/types.js'

/** The filters a call runs: before the fit, and (cleanup filters too big for the input) after it. */
export interface FilterPlan {
  before: FilterDef[]
  after: FilterDef[]
}

/**
 * Which filters run: not disabled by the profile, for this kind (or listed for this profile);
 * under budget only the lossless ones the profile asks for; opt-in ones only when listed.
 * Cleanup filters whose `maxInput` the text exceeds run on the excerpt instead.
 */
export function planFilters(all: readonly FilterDef[], text: string, kind: string, profile: Profile, fits: boolean): FilterPlan {
  const eligible = all.filter((f) => {
    if (profile.disabledFilters.includes(f.name) || (f.skipProfiles ?? []).includes(profile.name)) return false
    if (f.kinds !== 'any' && !(f.kinds as readonly string[]).includes(kind) && !(f.profiles ?? []).includes(profile.name)) return false
    if (fits) return f.lossless && profile.lossless.includes(f.name)
    return f.optIn !== true || profile.filters.includes(f.name) || profile.lossless.includes(f.name)
  })
  const tooBig = (f: FilterDef): boolean => f.maxInput !== undefined && text.length > f.maxInput
  return { before: eligible.filter((f) => !tooBig(f)), after: eligible.filter((f) => f.cleanup === true && tooBig(f)) }
}

/** Text, provenance and the names of the filters that changed it. */
export interface Filtered {
  text: string
  provenance: Provenance
  applied: string[]
}

/**
 * Runs `filters` in order. Each that changes the text moves the provenance on
 * ({@link afterFilter}); a filter that throws is skipped (fail open). An over-budget text that
 * comes to fit stops the run: later filters would only take more away. `terminalView` is set
 * when the source is a terminal result's `output` field, whose lines the terminal filter reports.
 */
export function runFilters(text: string, provenance: Provenance, filters: readonly FilterDef[], ctx: FilterContext, fits: boolean, terminalView: boolean): Filtered {
  const applied: string[] = []
  for (const f of filters) {
    let out: FilterOutput | undefined
    try {
      const r = f.run(text, ctx)
      out = typeof r === 'string' ? { text: r } : r !== null && typeof r === 'object' && typeof r.text === 'string' ? r : undefined
    } catch {
      continue
    }
    if (out === undefined || out.text === text) continue
    provenance = afterFilter(provenance, text, out.text, f.preservesLines, out.lineStarts, out.summaries)
    if (f.name === 'terminal' && terminalView) {
      const ranges = safeTerminalOmitted(out.text)
      if (ranges !== undefined && provenance.kind === 'rewritten') provenance = { kind: 'rewritten', terminal: ranges }
    }
    text = out.text
    applied.push(f.name)
    if (!fits && text.length <= ctx.budget) break
  }
  return { text, provenance, applied }
}

/** Cleanup filters on the excerpt: kept only when they shorten it. Omitted lines stay as they were. */
export function runCleanup(text: string, filters: readonly FilterDef[], ctx: FilterContext): { text: string; applied: string[] } {
  const applied: string[] = []
  for (const f of filters) {
    try {
      const out = f.run(text, ctx)
      const raw = typeof out === 'string' ? out : out?.text
      const cleaned = typeof raw === 'string' && raw !== text ? keepNumbers(text, raw, f, ctx) : raw
      if (typeof cleaned === 'string' && cleaned.length <= text.length && cleaned !== text) {
        text = cleaned
        applied.push(f.name)
      }
    } catch {
      // fail open: the excerpt stays as fitted
    }
  }
  return { text, applied }
}

/**
 * `cleaned`, the cleanup `f` made of the excerpt `text`, with the fitter's `N: ` numbers kept (the
 * middle's, as a re-trim reads them: `trim/excerpt.ts` excerptNumbers): they are not the tool's
 * text, and a filter that rewrites a line's start (a progress bar's last frame,
 * `collapseProgress`) would drop them. When a numbered line changed, `f` is run again on the
 * lines without their numbers and each goes back in front of its line (a filter that does not
 * keep the line count is then not applied).
 */
function keepNumbers(text: string, cleaned: string, f: FilterDef, ctx: FilterContext): string | undefined {
  const before = text.split('\n')
  const after = cleaned.split('\n')
  const numbers = excerptNumbers(before)
  if (after.length === before.length && numbers.every((n, i) => after[i]!.startsWith(n))) return cleaned
  const out = f.run(before.map((l, i) => l.slice(numbers[i]!.length)).join('\n'), ctx)
  const lines = (typeof out === 'string' ? out : out?.text)?.split('\n')
  return lines === undefined ? undefined : lines.length === before.length ? lines.map((l, i) => numbers[i] + l).join('\n') : undefined
}

function safeTerminalOmitted(out: string): LineRange[] | undefined {
  try {
    return terminalOmitted(out)
  } catch {
    return undefined
  }
}
