import type { FilterDef } from '../types.js'
import { summarizeJson } from './json.js'

export { DEFAULT_JSON_SUMMARY, summarizeJson, summarizeValue, type JsonSummaryOptions } from './json.js'
export { LIMIT_LEVELS, cutString, renderCompact, type RenderLimits } from './render.js'

/** Structural synopsis + head/tail items of a JSON object or array, fitted to the budget. */
export const jsonFilter: FilterDef = {
  name: 'json',
  kinds: ['json'],
  lossless: false,
  preservesLines: false,
  run: (text, ctx) => summarizeJson(text, ctx.budget),
}
