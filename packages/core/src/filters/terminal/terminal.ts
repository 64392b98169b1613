import { fitText } from '../../trim/fit.js'
import { resolveProfile } from '../../trim/profiles.js'
import type { Profile } from '../../trim/types.js'
import { collapseProgress, stripAnsi } from '../ansi/ansi.js'

/** Keys that mark a command result beside its `output`. */
export const TERMINAL_KEYS: readonly string[] = Object.freeze(['exit_code', 'exitCode', 'returncode', 'return_code', 'status', 'error', 'stderr'])

/** Keys whose string value is the command's output, in order of preference. */
const OUTPUT_KEYS = ['output', 'stdout'] as const

/**
 * A terminal result `{output, exit_code, error, ...}`: the output cleaned (ANSI stripped,
 * carriage-return progress bars collapsed) and fitted tail-heavy (the `terminal` profile, or
 * `profile` when given), every other field kept exactly, as JSON in the original key order,
 * within `budget` chars. Returns `undefined` for anything else, or when the other fields alone
 * take more than half the budget.
 */
export function trimTerminalJson(text: string, budget: number, profile: Profile = resolveProfile('terminal')): string | undefined {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return undefined
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined
  const obj = value as Record<string, unknown>
  const key = OUTPUT_KEYS.find((k) => typeof obj[k] === 'string')
  if (key === undefined || !Object.keys(obj).some((k) => TERMINAL_KEYS.includes(k) && k !== key)) return undefined
  const raw = obj[key] as string
  let output = raw
  output = stripAnsi(output) ?? output
  output = collapseProgress(output) ?? output
  const shell = JSON.stringify({ ...obj, [key]: '' })
  if (shell.length > budget / 2) return undefined
  // JSON escaping makes the output longer: shrink the inner budget until the whole fits.
  let inner = budget - shell.length
  for (let attempt = 0; attempt < 6 && inner > 0; attempt++) {
    const fitted = output.length <= inner ? output : fitText(output, inner, profile).text
    const out = JSON.stringify({ ...obj, [key]: fitted })
    if (out.length <= budget) return out === text ? undefined : out
    inner -= Math.max(16, Math.ceil((out.length - budget) * 1.2))
  }
  return undefined
}
