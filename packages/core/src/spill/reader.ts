import type { StreamInfo } from './format/layout.js'
import type { StoredBlob } from './format/read.js'

/** One decoded chunk of a body stream, with the positions of its `\n` chars (built on first use). */
interface Decoded {
  text: string
  nls?: Int32Array
}

/** A least-recently-used cache of decoded chunks, bounded by total chars, shared by the readers of one spillway. */
export interface ChunkCache {
  get(key: string): Decoded | undefined
  set(key: string, d: Decoded): void
  drop(prefix: string): void
  clear(): void
}

/** Creates a {@link ChunkCache} holding at most `maxChars` chars (a bigger chunk is not cached). */
export function chunkCache(maxChars: number): ChunkCache {
  const map = new Map<string, Decoded>()
  let total = 0
  const del = (k: string): void => {
    const d = map.get(k)
    if (d === undefined) return
    total -= d.text.length
    map.delete(k)
  }
  return {
    get(k) {
      const d = map.get(k)
      if (d !== undefined) {
        map.delete(k)
        map.set(k, d)
      }
      return d
    },
    set(k, d) {
      del(k)
      if (d.text.length > maxChars) return
      map.set(k, d)
      total += d.text.length
      for (const key of map.keys()) {
        if (total <= maxChars) break
        del(key)
      }
    },
    drop(prefix) {
      for (const k of [...map.keys()]) if (k.startsWith(prefix)) del(k)
    },
    clear() {
      map.clear()
      total = 0
    },
  }
}

/** One stretch of whole lines of the body (or a piece of one very long line), as `grep` streams them. */
export interface Segment {
  text: string
  /** 0-based number of the line `text` starts in. */
  firstLine: number
  /** Char offset of `text[0]` within that line (> 0 only for later pieces of a long line). */
  col: number
  /** True on the last segment taken from a stored chunk (a search may stop there: the chunk is read). */
  endsChunk: boolean
  /** True when the segment's last line goes on in the next segment (a piece of a very long line). */
  open?: boolean
}

/**
 * Line and char access to a stored blob's body, reading only the chunks a call spans. Line `i`
 * (0-based) is the text between the `i`-th and `i+1`-th `\n`, without a trailing `\r`; lone `\r`
 * chars stay in the line: nothing the tool returned is hidden from `fetch_result`.
 */
export interface BlobReader {
  readonly id: string
  readonly blob: StoredBlob
  /** Chars of the raw result. */
  readonly chars: number
  readonly utf8Bytes: number
  readonly storedBytes: number
  readonly rawLines: number
  /** JSON path of the body when it is text inside JSON. */
  readonly viewPath: readonly string[] | undefined
  /** What was removed from the body (`'ANSI codes'`), or `''`. */
  readonly cleaned: string
  readonly bodyChars: number
  readonly lineCount: number
  /** `[start, end)` char offsets of body line `i` (end before its `\n` and a trailing `\r`). */
  lineSpan(i: number): Promise<[number, number]>
  /** Body chars `[from, to)`. */
  text(from: number, to: number): Promise<string>
  /** Body line `i`, whole. */
  line(i: number): Promise<string>
  /** The raw result, every chunk in order. */
  rawText(): Promise<string>
  /** The body in order as stretches of whole lines, one chunk at a time; lines longer than `maxLine` come in overlapping pieces. */
  segments(fromLine?: number, maxLine?: number, overlap?: number): AsyncIterable<Segment>
  /** True when this reader reads the raw result (`asRaw`), not the body. */
  readonly raw: boolean
  /**
   * The same blob read as the tool returned it: its lines and chars are those of the raw result
   * (ANSI codes, the JSON around the text), so every byte is reachable by `range` and `grep`.
   * This reader itself when the body is the raw result.
   */
  asRaw(): BlobReader
}

/** Longest line piece a grep holds at once (chars); longer lines are searched in overlapping pieces. */
export const MAX_LINE_PIECE = 1 << 20

/** Binary search: last index `k` with `key(k) <= v`. */
function lastAtMost(n: number, key: (k: number) => number, v: number): number {
  let lo = 0
  let hi = n - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (key(mid) <= v) lo = mid
    else hi = mid - 1
  }
  return lo
}

/** A {@link BlobReader} over `blob` (its body, or with `raw` its raw result), caching decoded chunks in `cache`. */
export function blobReader(blob: StoredBlob, cache: ChunkCache, raw = false): BlobReader {
  const m = blob.manifest
  const s: StreamInfo = raw ? m.raw : blob.body
  const viaBody = s === blob.body
  const chunks = s.chunks
  const last = chunks[chunks.length - 1]
  const totalNl = last === undefined ? 0 : last.nb + last.nc
  const prefix = `${blob.id}:${blob.storedBytes}:${viaBody ? '' : 'raw:'}`

  const decoded = async (k: number, keep = true): Promise<Decoded> => {
    const key = prefix + k
    const hit = cache.get(key)
    if (hit !== undefined) return hit
    const d: Decoded = { text: await blob.chunkText(s, k) }
    if (keep) cache.set(key, d)
    return d
  }
  const newlines = (d: Decoded): Int32Array => {
    if (d.nls !== undefined) return d.nls
    const acc: number[] = []
    for (let i = d.text.indexOf('\n'); i !== -1; i = d.text.indexOf('\n', i + 1)) acc.push(i)
    return (d.nls = Int32Array.from(acc))
  }
  /** Char offset of the `m`-th (0-based) `\n` of the body. */
  const newlinePos = async (n: number): Promise<number> => {
    const k = lastAtMost(chunks.length, (j) => chunks[j]!.nb, n) // the last chunk starting at or before it holds it
    const d = await decoded(k)
    return chunks[k]!.c + newlines(d)[n - chunks[k]!.nb]!
  }
  const text = async (from: number, to: number): Promise<string> => {
    from = Math.max(0, from)
    to = Math.min(s.chars, to)
    if (to <= from) return ''
    let out = ''
    for (let k = lastAtMost(chunks.length, (j) => chunks[j]!.c, from); k < chunks.length && chunks[k]!.c < to; k++) {
      const c = chunks[k]!
      const d = await decoded(k)
      out += d.text.slice(Math.max(0, from - c.c), Math.min(c.l, to - c.c))
    }
    return out
  }
  const lineSpan = async (i: number): Promise<[number, number]> => {
    const start = i === 0 ? 0 : (await newlinePos(i - 1)) + 1
    let end = i < totalNl ? await newlinePos(i) : s.chars
    if (end > start && (await text(end - 1, end)) === '\r') end--
    return [start, end]
  }
  const viewPath = viaBody ? (m.body?.path ?? undefined) : undefined
  let rawReader: BlobReader | undefined
  const reader: BlobReader = {
    raw: s === m.raw,
    asRaw: () => (s === m.raw ? reader : (rawReader ??= blobReader(blob, cache, true))),
    id: blob.id,
    blob,
    chars: m.raw.chars,
    utf8Bytes: m.bytes,
    storedBytes: blob.storedBytes,
    rawLines: m.raw.lines,
    viewPath: viewPath === undefined ? undefined : Object.freeze([...viewPath]),
    cleaned: viaBody ? (m.body?.cleaned ?? '') : '',
    bodyChars: s.chars,
    lineCount: s.lines,
    lineSpan,
    text,
    async line(i) {
      const [a, b] = await lineSpan(i)
      return text(a, b)
    },
    async rawText() {
      const parts: string[] = []
      for (let k = 0; k < m.raw.chunks.length; k++) parts.push(await blob.chunkText(m.raw, k))
      return parts.join('')
    },
    async *segments(fromLine = 0, maxLine = MAX_LINE_PIECE, overlap = 200) {
      if (s.chars === 0 || fromLine >= s.lines) return
      const start = fromLine <= 0 ? 0 : (await lineSpan(fromLine))[0]
      let k = lastAtMost(chunks.length, (j) => chunks[j]!.c, start)
      // Streamed chunks are not cached, and each is searched in place: the open line's end, then
      // its whole lines as one slice of the chunk (no copy), then the start of the next line is
      // carried. A grep over 500 MB holds one chunk (and one partial line) at a time.
      let text = (await decoded(k, false)).text.slice(start - chunks[k]!.c)
      let carry = '' // the open line, from earlier chunks
      let line = Math.max(0, fromLine)
      let col = 0
      for (;;) {
        const out: Segment[] = []
        const first = text.indexOf('\n')
        if (first === -1) carry += text
        else {
          out.push({ text: carry + text.slice(0, first), firstLine: line, col, endsChunk: false })
          line++
          col = 0
          const lastNl = text.lastIndexOf('\n')
          if (lastNl > first) {
            const whole = text.slice(first + 1, lastNl)
            out.push({ text: whole, firstLine: line, col: 0, endsChunk: false })
            for (let i = whole.indexOf('\n'); i !== -1; i = whole.indexOf('\n', i + 1)) line++
            line++
          }
          carry = text.slice(lastNl + 1)
        }
        const atEnd = k === chunks.length - 1
        // The last line, unless a final `\n` ended the one before (it starts no new line).
        if (atEnd && carry.length > 0) out.push({ text: carry, firstLine: line, col, endsChunk: false })
        else if (carry.length > maxLine) {
          // A very long line: search it in pieces overlapping by `overlap` chars.
          out.push({ text: carry, firstLine: line, col, endsChunk: false, open: true })
          const keep = Math.min(overlap, carry.length)
          col += carry.length - keep
          carry = carry.slice(carry.length - keep)
        }
        if (out.length > 0) out[out.length - 1]!.endsChunk = true
        yield* out
        if (atEnd) return
        text = (await decoded(++k, false)).text
      }
    },
  }
  return reader
}
