// 50/50 head + tail: Phase 1 of the insertion-time trimming proposal
// (seeds/insertion-time-trimming-proposal.txt, `_trim_tool_result`): first half + marker + last
// half. The proposal uses 4K + 4K above 12K; here each half is half the budget minus the marker.
import { capToBudget, type TrimMethod } from './types.js'

/** First and last halves of the budget with `[... N chars trimmed from <tool> output ...]` between. */
export const headTail: TrimMethod = {
  id: 'head-tail',
  label: '50/50 head+tail',
  source: 'Hermes insertion-time trimming proposal #415, Phase 1 (insertion-time-trimming-proposal.txt)',
  budgetNative: true,
  run(text, { budget, tool }) {
    if (text.length <= budget) return text
    const markerFor = (n: number): string => `\n\n[... ${n.toLocaleString('en-US')} chars trimmed from ${tool} output ...]\n\n`
    const room = budget - markerFor(text.length).length
    if (room <= 0) return capToBudget(text, budget)
    const head = Math.floor(room / 2)
    const tail = room - head
    let start = text.length - tail
    const c = text.charCodeAt(start)
    if (c >= 0xdc00 && c <= 0xdfff) start++ // do not start on a low surrogate
    const h = capToBudget(text, head)
    return h + markerFor(start - h.length) + text.slice(start)
  },
}
