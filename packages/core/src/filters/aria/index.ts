import type { FilterDef } from '../types.js'
import { trimAria, trimAriaInJson } from './aria.js'

export { DEFAULT_ARIA, INTERACTIVE_ROLES, trimAria, trimAriaInJson, type AriaOptions } from './aria.js'

/** Accessibility snapshots: noise dropped, sibling runs collapsed, interactive elements first. */
export const ariaFilter: FilterDef = {
  name: 'aria',
  kinds: ['aria'],
  lossless: false,
  preservesLines: false,
  run: (text, ctx) => trimAria(text, ctx.budget),
}

/** JSON browser results with a `snapshot` field: stealth fields dropped, the snapshot cleaned. */
export const ariaJsonFilter: FilterDef = {
  name: 'aria',
  kinds: ['json'],
  lossless: false,
  preservesLines: false,
  run: (text, ctx) => trimAriaInJson(text, ctx.budget),
}
