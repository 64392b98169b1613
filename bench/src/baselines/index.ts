import { deepagents } from './deepagents.js'
import { headOnly } from './head-only.js'
import { headTail } from './head-tail.js'
import { rtk } from './rtk.js'
import { spillwayTrim } from './spillway.js'
import { toolaria } from './toolaria.js'
import type { TrimMethod } from './types.js'

export type { TrimInput, TrimMethod } from './types.js'
export { capToBudget } from './types.js'
export { deepagents, headOnly, headTail, rtk, spillwayTrim, toolaria }

/** spillway first, then the baselines, in report order. */
export const TRIM_METHODS: readonly TrimMethod[] = [spillwayTrim, headOnly, headTail, toolaria, deepagents, rtk]
