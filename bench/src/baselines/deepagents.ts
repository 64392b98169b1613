// deepagents (langchain-ai/deepagents FilesystemMiddleware, large tool result eviction; the same
// shape in pydantic-deepagents' EvictionProcessor, head_lines=5, tail_lines=5): the result is
// written to the agent's filesystem and replaced by a note + the first 5 and last 5 lines,
// `cat -n` numbered, each line cut at 1000 chars, with `... [N lines truncated] ...` between.
// The eviction threshold is the budget here; the note text is paraphrased.
import { capToBudget, splitLines, type TrimMethod } from './types.js'

const HEAD = 5
const TAIL = 5
const MAX_LINE = 1000

const numbered = (lines: readonly string[], first: number): string =>
  lines.map((l, i) => `${String(first + i).padStart(6)}\t${l.slice(0, MAX_LINE)}`).join('\n')

/** deepagents' 5 + 5 line preview. */
export const deepagents: TrimMethod = {
  id: 'deepagents',
  label: 'deepagents 5+5 lines',
  source: 'langchain-ai/deepagents FilesystemMiddleware eviction preview (head 5 / tail 5 lines)',
  budgetNative: false,
  run(text, { budget }) {
    if (text.length <= budget) return text
    const lines = splitLines(text)
    const note =
      'Tool result too large, saved to /large_tool_results/<tool_call_id>.\n' +
      'Read it with read_file using offset and limit. Preview (head and tail):\n\n'
    const preview =
      lines.length <= HEAD + TAIL
        ? numbered(lines, 1)
        : `${numbered(lines.slice(0, HEAD), 1)}\n... [${lines.length - HEAD - TAIL} lines truncated] ...\n${numbered(lines.slice(-TAIL), lines.length - TAIL + 1)}`
    return capToBudget(note + preview, budget)
  },
}
