/**
 * A CI job's epilogue: the steps a GitHub Actions runner runs after the job's last step (`Post
 * job cleanup.` of each action with a post step: `git config --unset-all ...`, cache saves,
 * `Cleaning up orphan processes`). They say nothing about why the job failed, yet they end the
 * log, where an excerpt's tail is. Merged into one line that says how many lines it stands for;
 * every line stays one `fetch_result` away.
 */
import type { MergedLines } from '../dedup/dedup.js'

/** {@link MergedLines} and the output line that summarises the epilogue (`FilterOutput.summaries`). */
export interface Epilogue extends MergedLines {
  summaries: number[]
}
import { afterLinePrefix, trimmedEnd } from '../../trim/shapes.js'

/** The line that opens a GitHub Actions post step, after the log's timestamp. */
const POST_STEP = 'Post job cleanup.'

/** Lines read back from the end looking for the epilogue (bounded work on any input). */
export const MAX_EPILOGUE_LINES = 600

/** Fewer lines than this are left as they are (the merged line would save nothing). */
const MIN_EPILOGUE_LINES = 3

/** True when `text[start, end)` is `s` after an optional line prefix (a CI timestamp, `shapes.ts` afterLinePrefix), trailing blanks and `\r` ignored. */
function lineIs(text: string, start: number, end: number, s: string): boolean {
  const from = afterLinePrefix(text, start, end)
  return trimmedEnd(text, from, end) - from === s.length && text.startsWith(s, from)
}

/**
 * The text with its CI epilogue (from the first `Post job cleanup.` line after the job's last
 * `##[error]` line, to the end, within the last {@link MAX_EPILOGUE_LINES} lines) merged into one
 * line, `<first line> [+N lines: the CI job's post-steps]`, and the input line each output line
 * begins at. `undefined` when the text has no such epilogue.
 */
export function mergeEpilogue(text: string): Epilogue | undefined {
  const trailing = text.endsWith('\n')
  let end = trailing ? text.length - 1 : text.length
  let start = -1
  let lines = 0
  for (let read = 0; read < MAX_EPILOGUE_LINES && end >= 0; read++) {
    const lineStart = text.lastIndexOf('\n', end - 1) + 1
    if (lineIs(text, lineStart, end, POST_STEP)) {
      start = lineStart
      lines = read + 1
    } else if (text.slice(lineStart, end).includes('##[error]')) break // within the line only: linear in all
    if (lineStart === 0) break
    end = lineStart - 1
  }
  if (start === -1 || lines < MIN_EPILOGUE_LINES) return undefined
  const firstEnd = text.indexOf('\n', start)
  let first = text.slice(start, firstEnd === -1 ? text.length : firstEnd)
  if (first.endsWith('\r')) first = first.slice(0, -1)
  // The merged line ends as the input's last line did (`\r` before the final `\n` in a CRLF log).
  const lastEnd = trailing ? text.length - 1 : text.length
  const cr = lastEnd > start && text.charCodeAt(lastEnd - 1) === 13
  const merged = `${first} [+${lines - 1} lines: the CI job's post-steps]${cr ? '\r' : ''}`
  const lineStarts: number[] = []
  let n = 1
  for (let i = text.indexOf('\n'); i !== -1 && i < start; i = text.indexOf('\n', i + 1)) lineStarts.push(n++)
  lineStarts.push(n)
  return { text: text.slice(0, start) + merged + (trailing ? '\n' : ''), lineStarts, summaries: [lineStarts.length] }
}
