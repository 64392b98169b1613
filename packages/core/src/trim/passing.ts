/**
 * Problems logged by a test class that then passed (round 8, issue 16): Maven Surefire prints a
 * class's own output between `Running X` and its verdict `Tests run: N, Failures: 0, Errors: 0,
 * ... - in X`; an exception or an error logged there (a retry, a negative test's expected
 * failure, a mock server's timeout) is not why the build failed. {@link passedBlockStart} tells
 * the scan where such a block starts, so its salient lines can be demoted to the lowest score:
 * still candidates, shown when nothing better fits, never ahead of a failing test's lines.
 * Bounded: each verdict line reads its own chars and the text since the previous verdict once.
 */
import { isDigit } from './chars.js'
import { afterTimestamp, trimmedEnd } from './shapes.js'

/** Longest `[LEVEL] ` prefix skipped before `Tests run:` / `Running ` (`[INFO] `, `[WARNING] `). */
const LEVEL_PREFIX = 10
/** Longest lead (timestamp, level) allowed before `Running ` on the block's first line. */
const RUNNING_LEAD = 48

/** Offset after a Maven `[LEVEL] ` prefix at `i`, or `i`. */
function afterLevel(text: string, i: number, end: number): number {
  if (text.charCodeAt(i) !== 91 /* [ */) return i
  let k = i + 1
  while (k < end && k - i <= LEVEL_PREFIX && text.charCodeAt(k) !== 93) k++
  return text.charCodeAt(k) === 93 && text.charCodeAt(k + 1) === 32 ? k + 2 : i
}

/** Longest line read as a class verdict (real ones are 100-250 chars): no line is read whole. */
const VERDICT_CHARS = 600

/**
 * When the line `[start, end)` is a Surefire test class's verdict: for a passing class
 * (`Tests run: 6, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.037 s - in a.BTest`, or the
 * older form without `- in X`), the class name's span (`[0, 0]` when the line names none); for a
 * failing one (`<<< FAILURE!`, `<<< ERROR!`), null; else undefined (a run's summary has no
 * `Time elapsed`).
 */
export function surefirePass(text: string, start: number, end: number): [number, number] | null | undefined {
  if (end - start > VERDICT_CHARS) return undefined
  let i = afterLevel(text, afterTimestamp(text, start, end), end)
  if (!text.startsWith('Tests run: ', i)) return undefined
  i += 11
  const digits = i
  while (i < end && isDigit(text.charCodeAt(i))) i++
  if (i === digits) return undefined
  const rest = text.slice(i, end)
  if (rest.includes('<<<')) return null
  if (!rest.startsWith(', Failures: 0, Errors: 0,') || !rest.includes('Time elapsed')) return undefined
  const at = rest.indexOf(' - in ')
  if (at === -1) return [0, 0]
  return [i + at + 6, trimmedEnd(text, i + at + 6, end)]
}

/**
 * Start of the block a passing verdict at `verdictStart` closes: the offset of its `Running X`
 * line (X the verdict's class when it names one), searched in `text[from, verdictStart)` only
 * (`from`: the end of the previous verdict), or -1 when that span holds none.
 */
export function passedBlockStart(text: string, from: number, verdictStart: number, name: [number, number]): number {
  const span = text.slice(from, verdictStart)
  const r = span.lastIndexOf('Running ')
  if (r === -1) return -1
  const lineStart = span.lastIndexOf('\n', r) + 1
  if (r - lineStart > RUNNING_LEAD) return -1
  const lead = afterLevel(span, afterTimestamp(span, lineStart, r + 8), r + 8)
  if (lead !== r) return -1
  if (name[1] > name[0]) {
    const n = name[1] - name[0]
    if (span.slice(r + 8, r + 8 + n) !== text.slice(name[0], name[1])) return -1
    const after = span.charCodeAt(r + 8 + n)
    if (!(Number.isNaN(after) || after === 10 || after === 13 || after === 32)) return -1
  }
  return from + lineStart
}
