import { safeEnd, safeStart } from '../trim/text.js'
import { lineAt, viewSuffix, type LoadedBlob } from './blob.js'
import { REGEX_MAX_WINDOW, type PatternVerdict } from './regex.js'
import type { FetchResponse } from './types.js'

/** Overlap of consecutive windows (at most half a window): a match up to this long is never split by a window edge. */
export const REGEX_WINDOW_OVERLAP = 200
/** A shown line longer than this is cut around its match. */
export const GREP_LINE_CHARS = 400

/** Everything {@link grepBlob} needs besides the blob. */
export interface GrepParams {
  verdict: Exclude<PatternVerdict, { kind: 'refused' }>
  pattern: string
  ignoreCase: boolean
  context: number
  page: number
  pageSize: number
  answerMaxChars: number
  timeoutMs: number
  /** Monotonic clock in ms for the time bound (tests inject one). @default performance.now */
  now?: () => number
  /** Renders the exact follow-up call for a page. */
  callFor(page: number): string
  /** Renders the exact follow-up range call. */
  rangeCall(start: number, count: number): string
}

interface Matches {
  lines: number[] // 0-based
  cols: number[]
  windowed: number
  window?: number
  overlap?: number
  timedOut?: { searched: number; ms: number }
}

const systemClock = (): number => globalThis.performance?.now() ?? Date.now()

function escapeRegex(s: string): string {
  return s.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&')
}

function findLiteral(blob: LoadedBlob, needle: string, ignoreCase: boolean): Matches | undefined {
  const hay = ignoreCase ? blob.lower() : blob.body
  if (hay === undefined) return undefined // lower-casing moved offsets: use the regex path
  const n = ignoreCase ? needle.toLowerCase() : needle
  const starts = blob.starts()
  const out: Matches = { lines: [], cols: [], windowed: 0 }
  // One indexOf over the whole text (fast native search), then skip to the next line.
  for (let pos = hay.indexOf(n); pos !== -1; ) {
    const line = lineAt(starts, pos)
    out.lines.push(line)
    out.cols.push(pos - starts[line]!)
    const next = starts[line + 1]
    if (next === undefined) break
    pos = hay.indexOf(n, next)
  }
  return out
}

function findRegex(blob: LoadedBlob, re: RegExp, window: number, timeoutMs: number, monotonic: () => number): Matches {
  const deadline = monotonic() + timeoutMs
  const overlap = Math.min(REGEX_WINDOW_OVERLAP, Math.floor(window / 2))
  const out: Matches = { lines: [], cols: [], windowed: 0, window, overlap }
  const total = blob.lineCount()
  const step = window - overlap
  const started = monotonic()
  for (let i = 0; i < total; i++) {
    // Checked before every line and window: one exec is bounded by the window size and the
    // screening (no nested or alternated repeats, few unbounded ones), so this is the hard bound.
    if (monotonic() > deadline) {
      out.timedOut = { searched: i, ms: Math.round(monotonic() - started) }
      return out
    }
    const text = blob.line(i)
    if (text.length <= window) {
      const m = re.exec(text)
      if (m !== null) {
        out.lines.push(i)
        out.cols.push(m.index)
      }
      continue
    }
    out.windowed++
    for (let w = 0; w < text.length; w += step) {
      if (monotonic() > deadline) {
        out.timedOut = { searched: i, ms: Math.round(monotonic() - started) }
        return out
      }
      const m = re.exec(text.slice(w, w + window))
      if (m !== null) {
        out.lines.push(i)
        out.cols.push(w + m.index)
        break
      }
      if (w + window >= text.length) break
    }
  }
  return out
}

function showLine(blob: LoadedBlob, i: number, col: number): string {
  const text = blob.line(i)
  if (text.length <= GREP_LINE_CHARS) return text
  const start = safeStart(text, Math.max(0, Math.min(col - 120, text.length - GREP_LINE_CHARS)))
  const end = safeEnd(text, start + GREP_LINE_CHARS)
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''} [chars ${start + 1}-${end} of this ${text.length}-char line]`
}

/**
 * `grep` over a loaded blob: 1-based `N: line` for matches and `N- line` for context, groups
 * separated by `--`, paged, with a hard answer cap and an explicit marker when cut. A regex time-out
 * is answered as a time-out (`ok: false`), never as "no matches".
 */
export function grepBlob(blob: LoadedBlob, p: GrepParams): FetchResponse {
  const label = p.verdict.kind === 'literal' ? `${JSON.stringify(p.pattern)} (plain text${p.ignoreCase ? ', any case' : ''})` : `/${p.pattern}/${p.ignoreCase ? 'i' : ''} (regex)`
  const total = blob.lineCount()
  const of = viewSuffix(blob) // lines are the view's when the result is JSON around text
  const now = p.now ?? systemClock
  let found: Matches
  if (p.verdict.kind === 'literal') {
    found = findLiteral(blob, p.verdict.needle, p.ignoreCase) ?? findRegex(blob, new RegExp(escapeRegex(p.verdict.needle), 'i'), REGEX_MAX_WINDOW, p.timeoutMs, now)
  } else {
    found = findRegex(blob, p.verdict.re, p.verdict.window, p.timeoutMs, now)
  }
  if (found.timedOut !== undefined) {
    return {
      ok: false,
      text: `grep ${label} timed out after ${found.timedOut.ms} ms, having searched ${found.timedOut.searched} of ${total} lines${of}; the search did not finish, so this is not a "no matches" answer. Use a simpler regex, or literal: true with a plain substring.`,
    }
  }
  const windowNote =
    found.windowed > 0
      ? `\n[${found.windowed} lines longer than ${found.window} chars were searched in ${found.window}-char windows overlapping by ${found.overlap} (this regex's repeats make longer runs too slow to bound): a match longer than the overlap across a window edge can be missed, and ^ $ apply per window; plain-text search has no such limit]`
      : ''
  const count = found.lines.length
  if (count === 0) return { ok: true, text: `[grep ${label}: no line matches, all ${total} lines${of} searched]${windowNote}` }
  const pages = Math.ceil(count / p.pageSize)
  if (p.page > pages) return { ok: false, text: `[grep ${label}: ${count} matching lines of ${total}${of}; page ${p.page} is past the last page, ${pages}]` }
  const first = (p.page - 1) * p.pageSize
  const last = Math.min(count, first + p.pageSize) - 1
  const out: string[] = [`[grep ${label}: ${count} matching lines of ${total}${of}; page ${p.page} of ${pages} shows matches ${first + 1}-${last + 1}]`]
  let size = out[0]!.length + windowNote.length
  const reserve = 400 // room for the cut marker and the next-page call
  let printedTo = -1 // last 0-based line printed
  const onPage = new Map<number, number>()
  for (let k = first; k <= last; k++) onPage.set(found.lines[k]!, found.cols[k]!)
  for (let k = first; k <= last; k++) {
    const line = found.lines[k]!
    const from = Math.max(line - p.context, printedTo + 1)
    const to = Math.min(total - 1, line + p.context)
    const group: string[] = []
    if (p.context > 0 && printedTo >= 0 && from > printedTo + 1) group.push('--')
    for (let i = from; i <= to; i++) {
      const col = onPage.get(i)
      group.push(col !== undefined ? `${i + 1}: ${showLine(blob, i, col)}` : `${i + 1}- ${showLine(blob, i, 0)}`)
    }
    if (from > to) continue // already printed as context of the previous match
    const chunk = group.join('\n')
    if (size + chunk.length + 1 > p.answerMaxChars - reserve) {
      const notShown = `matches ${k + 1}-${last + 1}`
      out.push(`[cut at the ${p.answerMaxChars}-char answer limit: ${notShown} of this page are not shown; read them with ${p.rangeCall(line + 1, 50)} or narrow the pattern]`)
      return { ok: true, text: out.join('\n') + windowNote }
    }
    out.push(chunk)
    size += chunk.length + 1
    printedTo = Math.max(printedTo, to)
  }
  if (p.page < pages) out.push(`[more: ${p.callFor(p.page + 1)}]`)
  return { ok: true, text: out.join('\n') + windowNote }
}
