import { MIN_LINE_FIT } from '../trim/fit.js'
import { parseExcerpt, refitExcerpt, splitHandle, type RefitShape } from '../trim/excerpt.js'
import type { LineRange } from '../trim/types.js'

/** What a re-trim of spillway's own output gives. */
export interface Retrimmed {
  text: string
  /** `refit`: the excerpt re-fitted in its original's numbers; `handle`: the text above a handle trimmed, the handle kept. */
  applied: string[]
  /** Lines left out, in the numbers of the original the excerpt was cut from (`refit`), else of the text above the handle. */
  omitted: LineRange[]
  omittedExact: boolean
}

/**
 * Spillway's own output as input: undefined when `input` is not ours (no handle block, no
 * fitter excerpt). Ours and within budget: kept as is. Over budget: an excerpt is re-fitted
 * keeping the original's line numbers, its markers' counts and the handle, sharing the budget
 * as `shape` (the profile) says; other text above a handle is trimmed by `trimBody` and the
 * handle kept under it. Only when the budget cannot hold the handle with a useful excerpt is the
 * result left to the ordinary pipeline.
 */
export function retrim(input: string, budget: number, shape: RefitShape, trimBody: (body: string, maxChars: number) => { text: string; applied: string[]; omitted: LineRange[]; omittedExact: boolean }): Retrimmed | undefined {
  const split = splitHandle(input)
  const body = split?.body ?? input
  const excerpt = parseExcerpt(body)
  if (split === undefined && excerpt === undefined) return undefined
  if (input.length <= budget) return { text: input, applied: [], omitted: [], omittedExact: true }
  const handle = split?.handle
  const room = handle === undefined ? budget : budget - handle.length - 1
  const join = (text: string): string => (handle === undefined ? text : `${text}\n${handle}`)
  if (excerpt !== undefined && room >= MIN_LINE_FIT) {
    const refit = refitExcerpt(excerpt, room, shape)
    if (refit !== undefined) return { text: join(refit.text), applied: ['refit'], omitted: refit.omitted, omittedExact: true }
  }
  if (handle !== undefined && room >= MIN_LINE_FIT && body !== '') {
    const inner = trimBody(body, room)
    if (inner.text.length <= room) return { text: join(inner.text), applied: [...inner.applied, 'handle'], omitted: inner.omitted, omittedExact: inner.omittedExact }
  }
  return undefined
}
