import type { FilterDef } from '../types.js'
import { trimTerminalJson } from './terminal.js'

export { TERMINAL_KEYS, terminalOmitted, trimTerminalJson } from './terminal.js'

/** `{output, exit_code, error}` results: `output` trimmed tail-heavy, the other fields kept exactly. */
export const terminalFilter: FilterDef = {
  name: 'terminal',
  kinds: ['json'],
  lossless: false,
  preservesLines: false,
  run: (text, ctx) => trimTerminalJson(text, ctx.budget, ctx.profile.name === 'terminal' ? ctx.profile : undefined),
}
