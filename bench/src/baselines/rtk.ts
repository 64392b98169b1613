// RTK's Hermes transform_tool_result filter (rtk-ai/rtk PR #2261,
// seeds/rtk-hermes-transform-tool-result-pr.txt), per tool: terminal / read_file -> JSON-unwrap
// `{output}`, drop consecutive duplicate lines, strip blank lines, keep 100 lines;
// search_files -> first 50 results; browser_navigate / snapshot -> drop `Layout*` noise lines,
// dedup, keep 120 lines. RTK filters whatever the size; the output is capped at the budget.
import { capToBudget, splitLines, type TrimMethod } from './types.js'

function dedupStripBlanks(lines: readonly string[]): string[] {
  const out: string[] = []
  for (const l of lines) {
    if (l.trim() === '') continue
    if (out.length > 0 && out[out.length - 1] === l) continue
    out.push(l)
  }
  return out
}

function cap(lines: readonly string[], max: number, what: string): string {
  if (lines.length <= max) return lines.join('\n')
  return `${lines.slice(0, max).join('\n')}\n... (${lines.length - max} more ${what} truncated)`
}

function unwrapOutput(text: string): string {
  if (!text.trimStart().startsWith('{')) return text
  try {
    const obj = JSON.parse(text) as unknown
    if (obj !== null && typeof obj === 'object' && typeof (obj as { output?: unknown }).output === 'string') return (obj as { output: string }).output
  } catch {
    // not a JSON envelope
  }
  return text
}

/** RTK-style per-tool filter. */
export const rtk: TrimMethod = {
  id: 'rtk',
  label: 'RTK dedup+100 lines',
  source: 'rtk-ai/rtk PR #2261 hooks/hermes transform_tool_result (rtk-hermes-transform-tool-result-pr.txt)',
  budgetNative: false,
  run(text, { budget, kind }) {
    let out: string
    if (kind === 'grep') {
      out = cap(splitLines(text).filter((l) => l.trim() !== ''), 50, 'results')
    } else if (kind === 'aria') {
      const kept = splitLines(text).filter((l) => !/^\s*-?\s*Layout/.test(l))
      out = cap(dedupStripBlanks(kept), 120, 'lines')
    } else {
      out = cap(dedupStripBlanks(splitLines(unwrapOutput(text))), 100, 'lines')
    }
    return capToBudget(out, budget)
  },
}
