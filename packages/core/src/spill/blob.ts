/**
 * A decoded, verified result held in memory, with a line index built on first use so that
 * `range` and `grep` on a 10 MB result do not re-read or re-decode it.
 */
export interface LoadedBlob {
  id: string
  text: string
  /** Stored size in bytes (envelope). */
  storedBytes: number
  /** UTF-8 size of the text. */
  utf8Bytes: number
  /** Start offset of each line (lines split on `\n`, as `countLines`). */
  starts(): Int32Array
  lineCount(): number
  /** Text of line `i` (0-based), without its `\n` or a trailing `\r`. */
  line(i: number): string
  /** `text.toLowerCase()` when it keeps every offset, else `undefined`. Cached. */
  lower(): string | undefined
}

/** Wraps `text` with lazily built, cached indexes. */
export function loadedBlob(id: string, text: string, storedBytes: number, utf8Bytes: number): LoadedBlob {
  let starts: Int32Array | undefined
  let lower: string | null | undefined
  const index = (): Int32Array => {
    if (starts !== undefined) return starts
    const acc: number[] = text.length === 0 ? [] : [0]
    for (let i = text.indexOf('\n'); i !== -1 && i + 1 < text.length; i = text.indexOf('\n', i + 1)) acc.push(i + 1)
    return (starts = Int32Array.from(acc))
  }
  return {
    id,
    text,
    storedBytes,
    utf8Bytes,
    starts: index,
    lineCount: () => index().length,
    line(i: number): string {
      const s = index()
      const start = s[i] ?? text.length
      let end = i + 1 < s.length ? s[i + 1]! - 1 : text.endsWith('\n') ? text.length - 1 : text.length
      if (end > start && text.charCodeAt(end - 1) === 13) end--
      return text.slice(start, Math.max(start, end))
    },
    lower(): string | undefined {
      if (lower === undefined) {
        const l = text.toLowerCase()
        lower = l.length === text.length ? l : null
      }
      return lower ?? undefined
    },
  }
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
    total -= b.text.length
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
      if (blob.text.length > maxChars) return
      map.set(blob.id, blob)
      total += blob.text.length
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
