/**
 * Source code a traceback prints (round 17, issue 16). pytest's long tracebacks (its default
 * `--tb=auto`) show each frame's function source, every line indented by four spaces, down to
 * the failing line, marked `>` in the first column (`>       assert total == 4`), then that
 * frame's `E   ` lines. A failure word in that source is code, not a failure: a docstring's
 * "raises the last error", `exceptions = []`, `raise ValueError(...)` above the line that ran.
 * {@link demoteSourceListings} sinks such lines to the lowest score (still candidates, shown when
 * nothing better fits), as a passing test's output is (`passing.ts`). The marked line and the
 * `E` lines keep their scores.
 * An empty line between two of a listing's lines or right above its mark (a blank source line
 * whose spaces a tool stripped, its CI timestamp alone) does not end it. Linear: a run of four-space lines is walked once, to its end, and
 * every salient line inside it is answered from that walk (a mark more than {@link MAX_LISTING}
 * lines below the run's first salient line makes it none); none is walked when no `>   ` follows.
 */
import { lineAt, nextStart } from './lines.js'
import { afterLinePrefix, isBarePrefix, trimmedEnd } from './shapes.js'

/** Most lines from a run's first salient line to its mark; a longer run is none (it is still walked once, to its end). */
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
    // Walk the run to its end (runs do not overlap: each line is read once); when the mark comes
    // more than MAX_LISTING lines below this line, the run is no listing, for its later lines too.
    let at = s.start
    let n = 0
    for (;;) {
      const next = nextStart(text, at)
      if (next >= text.length) {
        listing = false
        runEnd = next
        break
      }
      const { end } = lineAt(text, 0, next)
      at = next
      n++
      if (isListingLine(text, at, end)) continue
      // (an empty line inside the listing, or right above its mark: a blank source line whose four
      // spaces were stripped, with its CI prefix when that is all the line holds, `...Z`)
      const e = trimmedEnd(text, at, end)
      if (afterLinePrefix(text, at, end) >= e || isBarePrefix(text, at, e)) {
        const after = lineAt(text, 0, nextStart(text, at))
        if (after.start < text.length && (isListingLine(text, after.start, after.end) || isMarkLine(text, after.start, after.end))) continue
      }
      listing = n <= MAX_LISTING && isMarkLine(text, at, end)
      runEnd = at
      break
    }
    if (listing && s.score > 1) s.score = 1
  }
}
