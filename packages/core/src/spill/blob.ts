import { collapseProgress, stripAnsi } from '../filters/ansi/index.js'
import { countLines } from '../trim/text.js'
import { lineView, viewLabel, type LineView } from '../trim/view.js'

/**
 * A decoded, verified result held in memory, with a line index built on first use so that
 * `range` and `grep` on a 10 MB result do not re-read or re-decode it.
 *
 * When the result is JSON around the real text ({@link lineView}: an MCP `{"result": "..."}`
 * envelope, a terminal `{"output": "...", "exit_code": 1}`), `range`, `grep` and char offsets
 * read the lines of that inner text (`body`), the lines the excerpt numbered; `text` stays the raw
 * result, byte for byte, for `full` and the hash.
 *
 * `body` also has ANSI escape codes removed and carriage-return progress bars collapsed to their
 * final frame (`cleaned`), as the excerpt shows them: a grep for a line the model read must find
 * it, and the excerpt's char positions must be `body`'s. Both keep every line at its number.
 */
export interface LoadedBlob {
  id: string
  /** The raw result, as stored. */
  text: string
  /** Stored size in bytes (envelope). */
  storedBytes: number
  /** UTF-8 size of the raw text. */
  utf8Bytes: number
  /** JSON path of the view (`['output']`, `['result']`, ...) when `body` is text inside `text`. */
  viewPath: readonly string[] | undefined
  /** The text `range`, `grep` and offsets read: the view's text, else `text`; ANSI codes and progress frames removed. */
  body: string
  /** What was removed from `body` (`'ANSI codes'`, `'progress-bar frames'`, both), for the echoes; `''` when nothing. */
  cleaned: string
  /** Lines of the raw `text` (the view's lines are {@link LoadedBlob.lineCount}). */
  rawLineCount(): number
  /** Start offset of each line of `body` (lines split on `\n`, as `countLines`). */
  starts(): Int32Array
  lineCount(): number
  /** Text of line `i` (0-based) of `body`, without its `\n` or a trailing `\r`. */
  line(i: number): string
  /** `body.toLowerCase()` when it keeps every offset, else `undefined`. Cached. */
  lower(): string | undefined
}

/**
 * Wraps `text` with lazily built, cached indexes. `view` is the {@link lineView} of `text` when the
 * caller already has it (`null`: known to have none); else it is computed here, once.
 */
export function loadedBlob(id: string, text: string, storedBytes: number, utf8Bytes: number, view?: LineView | null): LoadedBlob {
  const v = view === undefined ? lineView(text) : (view ?? undefined)
  const lined = v?.text ?? text
  const stripped = stripAnsi(lined)
  const collapsed = collapseProgress(stripped ?? lined)
  const body = collapsed ?? stripped ?? lined
  const cleaned = [stripped !== undefined ? 'ANSI codes' : '', collapsed !== undefined ? 'progress-bar frames' : ''].filter(Boolean).join(' and ')
  let starts: Int32Array | undefined
  let lower: string | null | undefined
  let rawLines: number | undefined
  const index = (): Int32Array => {
    if (starts !== undefined) return starts
    const acc: number[] = body.length === 0 ? [] : [0]
    for (let i = body.indexOf('\n'); i !== -1 && i + 1 < body.length; i = body.indexOf('\n', i + 1)) acc.push(i + 1)
    return (starts = Int32Array.from(acc))
  }
  return {
    id,
    text,
    storedBytes,
    utf8Bytes,
    viewPath: v === undefined ? undefined : Object.freeze([...v.path]),
    body,
    cleaned,
    rawLineCount: () => (v === undefined ? index().length : (rawLines ??= countLines(text))),
    starts: index,
    lineCount: () => index().length,
    line(i: number): string {
      const s = index()
      const start = s[i] ?? body.length
      let end = i + 1 < s.length ? s[i + 1]! - 1 : body.endsWith('\n') ? body.length - 1 : body.length
      if (end > start && body.charCodeAt(end - 1) === 13) end--
      return body.slice(start, Math.max(start, end))
    },
    lower(): string | undefined {
      if (lower === undefined) {
        const l = body.toLowerCase()
        lower = l.length === body.length ? l : null
      }
      return lower ?? undefined
    },
  }
}

/**
 * ` of the "output" field` when `range` / `grep` read a view of the blob, ` (ANSI codes removed)`
 * (or progress-bar frames) when they read it cleaned, else `''`: appended to their echoes so they never pass for the raw text.
 */
export function viewSuffix(blob: LoadedBlob): string {
  return `${blob.viewPath === undefined ? '' : ` of ${viewLabel(blob.viewPath)}`}${blob.cleaned !== '' ? ` (${blob.cleaned} removed)` : ''}`
}

/** 0-based line holding char `offset`: binary search over line starts. */
export function lineAt(starts: Int32Array, offset: number): number {
  let lo = 0
  let hi = starts.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (starts[mid]! <= offset) lo = mid
    else hi = mid - 1
  }
  return lo
}

/** Chars a loaded blob holds: the raw text and, when it is a separate string, its view. */
const held = (b: LoadedBlob): number => b.text.length + (b.body === b.text ? 0 : b.body.length)

/** A least-recently-used cache of loaded blobs bounded by total chars. */
export interface BlobCache {
  get(id: string): LoadedBlob | undefined
  set(blob: LoadedBlob): void
  delete(id: string): void
  clear(): void
}

/** Creates a {@link BlobCache} holding at most `maxChars` chars (a bigger blob is not cached). */
export function blobCache(maxChars: number): BlobCache {
  const map = new Map<string, LoadedBlob>()
  let total = 0
  const drop = (id: string): void => {
    const b = map.get(id)
    if (b === undefined) return
    total -= held(b)
    map.delete(id)
  }
  return {
    get(id) {
      const b = map.get(id)
      if (b !== undefined) {
        map.delete(id) // re-insert: Map order is the recency order
        map.set(id, b)
      }
      return b
    },
    set(blob) {
      drop(blob.id)
      if (held(blob) > maxChars) return
      map.set(blob.id, blob)
      total += held(blob)
      for (const id of map.keys()) {
        if (total <= maxChars) break
        drop(id)
      }
    },
    delete: drop,
    clear() {
      map.clear()
      total = 0
    },
  }
}
