import { fitText } from '../../trim/fit.js'
import { resolveProfile } from '../../trim/profiles.js'
import type { LineRange, Profile } from '../../trim/types.js'
import { parseJsonOnce } from '../../trim/json-memo.js'
import { terminalOutputKey } from '../../trim/view.js'
import { collapseProgress, stripAnsi } from '../ansi/ansi.js'

// The shape rule lives beside `lineView` so that the excerpt and `fetch_result` number the same lines.
export { TERMINAL_KEYS } from '../../trim/view.js'

/**
 * A terminal result `{output, exit_code, error, ...}`: the output cleaned (ANSI stripped,
 * carriage-return progress bars collapsed) and fitted tail-heavy (the `terminal` profile, or
 * `profile` when given), every other field kept exactly, as JSON in the original key order,
 * within `budget` chars. Returns `undefined` for anything else, or when the other fields alone
 * take more than half the budget.
 */
export function trimTerminalJson(text: string, budget: number, profile: Profile = resolveProfile('terminal')): string | undefined {
  // Memoized parse: `lineView` has usually just parsed this very string.
  const parsed = parseJsonOnce(text)
  const key = parsed.ok ? terminalOutputKey(parsed.value) : undefined
  if (key === undefined) return undefined
  const obj = parsed.value as Record<string, unknown>
  const raw = obj[key] as string
  let output = raw
  output = stripAnsi(output) ?? output
  output = collapseProgress(output) ?? output
  const shell = JSON.stringify({ ...obj, [key]: '' })
  if (shell.length > budget / 2) return undefined
  // JSON escaping makes the output longer: shrink the inner budget until the whole fits.
  let inner = budget - shell.length
  for (let attempt = 0; attempt < 6 && inner > 0; attempt++) {
    const fit = output.length <= inner ? { text: output, omitted: [] } : fitText(output, inner, profile)
    const out = JSON.stringify({ ...obj, [key]: fit.text })
    if (out.length <= budget) {
      if (out === text) return undefined
      lastFit = { out, omitted: fit.omitted }
      return out
    }
    inner -= Math.max(16, Math.ceil((out.length - budget) * 1.2))
  }
  return undefined
}

// The omitted ranges of the last fit, so that `trimResult` can report them without a second fit.
let lastFit: { out: string; omitted: LineRange[] } | undefined

/**
 * Lines of the output field (1-based, as `lineView` numbers them) that the
 * {@link trimTerminalJson} call which returned `out` left out; `undefined` when `out` is not the
 * last answer of that function. ANSI stripping and progress collapse keep every line at its
 * number, so these are lines of the raw `output` too.
 */
export function terminalOmitted(out: string): LineRange[] | undefined {
  return lastFit !== undefined && lastFit.out === out ? lastFit.omitted.map((r) => ({ ...r })) : undefined
}
