// Head-only cut: Hermes Agent's MAX_TOOL_RESULT_CHARS cap (run_agent.py, quoted in
// seeds/insertion-time-trimming-proposal.txt) and Claude Code's "short preview" of a persisted
// result keep the first N chars and append a note. Here N is the budget minus the note.
import { capToBudget, type TrimMethod } from './types.js'

/** Keeps the first chars that fit, then `[Cut: tool response was N chars, exceeding the B char limit]`. */
export const headOnly: TrimMethod = {
  id: 'head-only',
  label: 'head-only cut',
  source: 'Hermes MAX_TOOL_RESULT_CHARS cut (insertion-time-trimming-proposal.txt); Claude Code preview',
  budgetNative: true,
  run(text, { budget }) {
    if (text.length <= budget) return text
    const note = `\n\n[Cut: tool response was ${text.length.toLocaleString('en-US')} chars, exceeding the ${budget.toLocaleString('en-US')} char limit]`
    // A budget smaller than the note gets a plain cut.
    return note.length >= budget ? capToBudget(text, budget) : capToBudget(text, budget - note.length) + note
  },
}
