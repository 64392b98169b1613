import { safeEnd, safeStart } from '../trim/text.js'
import { viewSuffix } from './read.js'
import { MAX_LINE_PIECE, type BlobReader } from './reader.js'
import type { PatternVerdict } from './regex.js'
import type { FetchResponse } from './types.js'

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
  /** Matching lines found (each line once). */
  count: number
  /** The asked page's matching lines, 0-based (match k is `page[k - first]`): only these are kept, so a search over millions of matches holds one page. */
  page: number[]
  cols: number[] // for the matches of the asked page (index k - first)
  /** True when every line was searched (counts are exact); false when the search stopped after the page. */
  complete: boolean
  /** Last 0-based line searched. */
  searchedTo: number
  timedOut?: { searched: number; ms: number }
  /** True when a regex was tested on pieces of a line longer than {@link MAX_LINE_PIECE}. */
  pieced?: boolean
}

/**
 * Chars two pieces of a very long line share when a regex searches it: a match longer than this
 * across a piece's edge is not found (a literal's pieces share its length, so it always is).
 */
export const REGEX_PIECE_OVERLAP = 4096

const systemClock = (): number => globalThis.performance?.now() ?? Date.now()

/** Lets timers and I/O run during a long search (`setTimeout` exists in every runtime core supports). */
const yieldToLoop = (): Promise<void> => new Promise((r) => setTimeout(r, 0))
/** Longest stretch of synchronous search between two yields, in ms. */
const SLICE_MS = 8

/**
 * Streams the body chunk by chunk (bounded memory), testing each line with the matcher (RE2 for a
 * regex: linear in the line, so one test cannot hang; a literal is found with one native `indexOf`
 * per chunk), checking the deadline before each regex line and yielding to the event loop between
 * chunks. Stops after the chunk where the asked page filled: counts are exact only when the search
 * reached the end (`complete`).
 */
async function findMatches(blob: BlobReader, p: GrepParams, monotonic: () => number): Promise<Matches> {
  const deadline = monotonic() + p.timeoutMs
  const started = monotonic()
  const first = (p.page - 1) * p.pageSize
  const need = first + p.pageSize
  const out: Matches = { count: 0, page: [], cols: [], complete: true, searchedTo: -1 }
  let lastLine = -1
  const v = p.verdict
  const needle = v.kind === 'literal' ? (p.ignoreCase ? v.needle.toLowerCase() : v.needle) : undefined
  let lastYield = systemClock() // yields follow the real clock; `p.now` times the deadline only
  const record = (line: number, col: () => number): void => {
    if (lastLine === line) return // a later piece of a long line already matched
    lastLine = line
    const k = out.count++
    if (k >= first && k < need) {
      out.page.push(line)
      out.cols.push(col())
    }
  }
  const overlap = needle === undefined ? REGEX_PIECE_OVERLAP : Math.max(200, needle.length)
  for await (const seg of blob.segments(0, MAX_LINE_PIECE, overlap)) {
    const text = seg.text
    const hay = needle === undefined ? undefined : p.ignoreCase ? text.toLowerCase() : text
    if (needle !== undefined && hay !== undefined && hay.length === text.length) {
      // One native search over the chunk, then map each hit to its line.
      let line = seg.firstLine
      let lineStart = 0
      for (let pos = hay.indexOf(needle); pos !== -1; ) {
        for (let nl = text.indexOf('\n', lineStart); nl !== -1 && nl < pos; nl = text.indexOf('\n', lineStart)) {
          line++
          lineStart = nl + 1
        }
        const col = pos - lineStart + (lineStart === 0 ? seg.col : 0)
        record(line, () => col)
        const next = text.indexOf('\n', pos)
        if (next === -1) break
        pos = hay.indexOf(needle, next + 1)
      }
    } else {
      let line = seg.firstLine
      for (let start = 0; start <= text.length; line++) {
        if (monotonic() > deadline) {
          out.timedOut = { searched: line, ms: Math.round(monotonic() - started) }
          return out
        }
        const nl = text.indexOf('\n', start)
        const end = nl === -1 ? text.length : nl
        const t = text.slice(start, end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end)
        const off = start === 0 ? seg.col : 0
        // A piece of a very long line: `^`/`$` match only at the line's real start and end.
        const startsInside = off > 0
        const endsInside = nl === -1 && seg.open === true
        if (startsInside || endsInside) out.pieced = true
        const m = v.kind === 'regex' ? v.piece(startsInside, endsInside) : v
        if (m.test(t)) record(line, () => Math.max(0, m.indexIn(t)) + off)
        if (nl === -1) break
        start = nl + 1
      }
    }
    let last = seg.firstLine
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) last++
    out.searchedTo = last
    if (seg.endsChunk && out.count >= need && last < blob.lineCount - 1) {
      out.complete = false
      return out
    }
    if (systemClock() - lastYield > SLICE_MS) {
      await yieldToLoop()
      lastYield = systemClock()
    }
  }
  out.searchedTo = blob.lineCount - 1
  return out
}

/** Line `i` as grep shows it: whole when short, else 400 chars around `col`, read from the chunks that hold them. */
async function showLine(blob: BlobReader, i: number, col: number): Promise<string> {
  const [a, b] = await blob.lineSpan(i)
  const len = b - a
  if (len <= GREP_LINE_CHARS) return blob.text(a, b)
  let start = Math.max(0, Math.min(col - 120, len - GREP_LINE_CHARS))
  const piece = await blob.text(a + start, a + Math.min(len, start + GREP_LINE_CHARS + 1))
  const skip = safeStart(piece, 0) === 0 && start > 0 && (piece.charCodeAt(0) & 0xfc00) === 0xdc00 ? 1 : 0
  start += skip
  const shown = piece.slice(skip, skip + safeEnd(piece.slice(skip), GREP_LINE_CHARS))
  const end = start + shown.length
  return `${start > 0 ? '…' : ''}${shown}${end < len ? '…' : ''} [chars ${start + 1}-${end} of this ${len}-char line]`
}

/**
 * `grep` over a stored blob, chunk by chunk: 1-based `N: line` for matches and `N- line` for
 * context, groups separated by `--`, paged, with a hard answer cap and an explicit marker when cut.
 * It stops reading after the chunk where its page filled (then it says that more may follow). A
 * regex time-out is answered as a time-out (`ok: false`), never as "no matches".
 */
export async function grepBlob(blob: BlobReader, p: GrepParams): Promise<FetchResponse> {
  const label = p.verdict.kind === 'literal' ? `${JSON.stringify(p.pattern)} (plain text${p.ignoreCase ? ', any case' : ''})` : `/${p.pattern}/${p.ignoreCase ? 'i' : ''} (regex)`
  const total = blob.lineCount
  const of = viewSuffix(blob) // lines are the view's when the result is JSON around text
  // A page past every line cannot hold a match: answered without searching.
  if ((p.page - 1) * p.pageSize >= Math.max(1, total)) {
    return { ok: false, text: `[grep ${label}: page ${p.page} is past the end: ${total} lines${of} fill at most ${Math.max(1, Math.ceil(total / p.pageSize))} pages of ${p.pageSize}; start at page 1]` }
  }
  const found = await findMatches(blob, p, p.now ?? systemClock)
  if (found.timedOut !== undefined) {
    return {
      ok: false,
      text: `grep ${label} timed out after ${found.timedOut.ms} ms, having searched ${found.timedOut.searched} of ${total} lines${of}; the search did not finish, so this is not a "no matches" answer. Use a simpler regex, or literal: true with a plain substring.`,
    }
  }
  const count = found.count
  const pieced = found.pieced === true && p.verdict.kind === 'regex' ? ` (lines over ${MAX_LINE_PIECE / 1024 / 1024} MiB were searched in pieces overlapping by ${REGEX_PIECE_OVERLAP} chars: a match longer than that may be missed)` : ''
  if (count === 0) return { ok: true, text: `[grep ${label}: no line matches, all ${total} lines${of} searched${pieced}]` }
  const pages = Math.ceil(count / p.pageSize)
  if (p.page > pages) return { ok: false, text: `[grep ${label}: ${count} matching lines of ${total}${of}; page ${p.page} is past the last page, ${pages}]` }
  const first = (p.page - 1) * p.pageSize
  const last = Math.min(count, first + p.pageSize) - 1
  const head = found.complete
    ? `[grep ${label}: ${count} matching lines of ${total}${of}${pieced}; page ${p.page} of ${pages} shows matches ${first + 1}-${last + 1}]`
    : `[grep ${label}: page ${p.page} shows matches ${first + 1}-${last + 1}; ${count} matching lines in lines 1-${found.searchedTo + 1} of ${total}${of}, the rest not searched yet: more may follow]`
  const out: string[] = [head]
  let size = out[0]!.length
  const reserve = 400 // room for the cut marker and the next-page call
  let printedTo = -1 // last 0-based line printed
  const onPage = new Map<number, number>()
  for (let k = first; k <= last; k++) onPage.set(found.page[k - first]!, found.cols[k - first] ?? 0)
  for (let k = first; k <= last; k++) {
    const line = found.page[k - first]!
    const from = Math.max(line - p.context, printedTo + 1)
    const to = Math.min(total - 1, line + p.context)
    const group: string[] = []
    if (p.context > 0 && printedTo >= 0 && from > printedTo + 1) group.push('--')
    for (let i = from; i <= to; i++) {
      const col = onPage.get(i)
      group.push(col !== undefined ? `${i + 1}: ${await showLine(blob, i, col)}` : `${i + 1}- ${await showLine(blob, i, 0)}`)
    }
    if (from > to) continue // already printed as context of the previous match
    const chunk = group.join('\n')
    if (size + chunk.length + 1 > p.answerMaxChars - reserve) {
      const notShown = `matches ${k + 1}-${last + 1}`
      out.push(`[cut at the ${p.answerMaxChars}-char answer limit: ${notShown} of this page are not shown; read them with ${p.rangeCall(line + 1, 50)} or narrow the pattern]`)
      return { ok: true, text: out.join('\n') }
    }
    out.push(chunk)
    size += chunk.length + 1
    printedTo = Math.max(printedTo, to)
  }
  if (p.page < pages || !found.complete) out.push(`[more: ${p.callFor(p.page + 1)}]`)
  return { ok: true, text: out.join('\n') }
}
