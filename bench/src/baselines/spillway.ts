// spillway itself: `trimResult` from @spillway/core with the tool name that matches the kind
// (terminal for logs, grep for searches, ...), so the matching profile and filters apply.
import { trimResult } from '@spillway/core'
import type { TrimMethod } from './types.js'

/** spillway's `trimResult(text, { tool, maxChars: budget }).text`. */
export const spillwayTrim: TrimMethod = {
  id: 'spillway',
  label: 'spillway trimResult',
  source: '@spillway/core trimResult',
  budgetNative: true,
  run(text, { budget, tool }) {
    return trimResult(text, { tool, maxChars: budget }).text
  },
}
