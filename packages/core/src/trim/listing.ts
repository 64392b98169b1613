/**
 * Source code a traceback prints (round 17, issue 16). pytest's long tracebacks (its default
 * `--tb=auto`) show each frame's function source, every line indented by four spaces, down to
 * the failing line, marked `>` in the first column (`>       assert total == 4`), then that
 * frame's `E   ` lines. A failure word in that source is code, not a failure: a docstring's
 * "raises the last error", `exceptions = []`, `raise ValueError(...)` above the line that ran.
 * {@link demoteSourceListings} sinks such lines to the lowest score (still candidates, shown when
 * nothing better fits), as a passing test's output is (`passing.ts`). The marked line and the
 * `E` lines keep their scores.
 * Bounded: a run of four-space lines is walked once, at most {@link MAX_LISTING} lines, and every
 * salient line inside it is answered from that walk; none is walked when no `>   ` follows it.
 */
import { nextStart } from './lines.js'
import { afterLinePrefix } from './shapes.js'

/** Most lines a listing is walked before its `>` line; a longer run of indented lines is none. */
const MAX_LISTING = 200

/** True when the line at `start` (after a CI timestamp) starts with four spaces: a listing's line (a blank source line is printed as four spaces). */
const isListingLine = (text: string, start: number, end: number): boolean => text.startsWith('    ', afterLinePrefix(text, start, end))

/** True when the line at `start` (after a CI timestamp) is pytest's failing-line mark: `>`, then three spaces. */
const isMarkLine = (text: string, start: number, end: number): boolean => text.startsWith('>   ', afterLinePrefix(text, start, end))

/**
 * Sets the score of every salient line (in line order) that lies in a run of four-space lines
 * ending right above a `>` mark to 1.
 */
export function demoteSourceListings(text: string, salient: { start: number; end: number; score: number }[]): void {
  // Where the last run walked ends (the start of the line after it), and whether a mark ends it.
  let runEnd = -1
  let listing = false
  // Where the next `>   ` is (anywhere in a line: a prefilter, looked up again only once passed):
  // a log with none after a line has no listing after it, so most logs cost one native search.
  let mark = -2
  for (const s of salient) {
    if (s.start < runEnd) {
      if (listing && s.score > 1) s.score = 1
      continue
    }
    if (!isListingLine(text, s.start, s.end)) continue
    if (mark < s.start) {
      mark = text.indexOf('>   ', s.start)
      if (mark === -1) return
    }
    let at = s.start
    let n = 0
    for (;;) {
      const next = nextStart(text, at)
      if (next >= text.length || n >= MAX_LISTING) {
        listing = false
        runEnd = next
        break
      }
      const nl = text.indexOf('\n', next)
      const end = nl === -1 ? text.length : nl
      at = next
      n++
      if (isListingLine(text, at, end)) continue
      listing = isMarkLine(text, at, end)
      runEnd = at
      break
    }
    if (listing && s.score > 1) s.score = 1
  }
}
