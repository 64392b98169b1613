/**
 * The coarse omitted range of a structural filter's excerpt (aria, diff, search, json, events):
 * those rewrite lines (summaries, counts, regrouping), so no line of the excerpt maps to one of
 * the source. What holds: the excerpt's first and last lines that equal the source's first and
 * last lines are shown verbatim; every line between them may have been dropped.
 */
import type { LineRange } from './types.js'

/**
 * One range covering every line of `source` (`lines` of them, as `countLines`) that `excerpt`
 * may leave out: the lines between the longest run of whole lines both start with and the
 * longest run both end with. `chars` is the span's length in `source`: an upper bound of what
 * is missing, as the excerpt's summary between the runs may restate some of it.
 * `undefined` when every line of `source` is in those runs. Cost bounded by the excerpt's length.
 */
export function changedSpan(source: string, excerpt: string, lines: number): LineRange | undefined {
  if (lines <= 0) return undefined
  // Whole lines shared at the top: the same offsets in both strings.
  let top = 0
  let at = 0
  for (;;) {
    const nl = excerpt.indexOf('\n', at)
    if (nl === -1 || source.charCodeAt(nl) !== 10 || !source.startsWith(excerpt.slice(at, nl + 1), at)) break
    top++
    at = nl + 1
    if (top >= lines) return undefined
  }
  // Whole lines shared at the bottom (a trailing `\n` must be on both or neither).
  let bottom = 0
  let s = source.length
  let e = excerpt.length
  const sNl = source.charCodeAt(s - 1) === 10
  if (sNl !== (excerpt.charCodeAt(e - 1) === 10)) s = e = -1
  else if (sNl) {
    s--
    e--
  }
  while (s >= 0 && e >= at && top + bottom < lines) {
    // lastIndexOf treats a negative start as 0: a line starting at 0 needs the guard.
    const sa = s === 0 ? 0 : source.lastIndexOf('\n', s - 1) + 1
    const ea = e === 0 ? 0 : excerpt.lastIndexOf('\n', e - 1) + 1
    if (s - sa !== e - ea || ea < at || !source.startsWith(excerpt.slice(ea, e), sa)) break
    bottom++
    s = sa - 1
    e = ea - 1
  }
  if (top + bottom >= lines) return undefined
  const srcEnd = bottom === 0 ? source.length : s + 1
  return { start: top + 1, end: lines - bottom, chars: Math.max(0, srcEnd - at) }
}
