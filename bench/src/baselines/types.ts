import type { CaseKind } from '../corpus/types.js'

/** What a trimming method is given besides the text. */
export interface TrimInput {
  /** Char budget (UTF-16 code units) the excerpt must fit. */
  budget: number
  kind: CaseKind
  /** Tool name the result came from (picks spillway's profile; RTK dispatches on it too). */
  tool: string
}

/** A way of cutting a tool result down: spillway or one of the baselines. */
export interface TrimMethod {
  /** Short id used in JSON and charts. */
  id: string
  /** Human label for tables. */
  label: string
  /** Where the behaviour comes from (public description the re-implementation follows). */
  source: string
  /**
   * Whether the method sizes itself to the budget. Fixed-line methods do not; their output is
   * hard-capped at the budget by {@link capToBudget}, as the agents' own hard caps would.
   */
  budgetNative: boolean
  run(text: string, input: TrimInput): string
}

/** Cuts `text` to at most `budget` chars from the start, never splitting a surrogate pair. */
export function capToBudget(text: string, budget: number): string {
  if (text.length <= budget) return text
  let end = Math.max(0, budget)
  const c = text.charCodeAt(end - 1)
  if (c >= 0xd800 && c <= 0xdbff) end--
  return text.slice(0, end)
}

/** Lines of a text split on `\n` (a trailing `\r` is left on the line, as Python's split would). */
export const splitLines = (text: string): string[] => text.split('\n')
