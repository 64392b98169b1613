/**
 * Longest request line the sidecar reads, in UTF-8 bytes (128 MiB). A longer line is discarded
 * as it streams in (never held whole) and answered with `too_large`: readline would buffer it
 * whole and die with `RangeError: Invalid string length` past V8's ~512 MiB string limit,
 * losing every pending request.
 */
export const DEFAULT_MAX_LINE_BYTES = 128 * 1024 * 1024

/** Bytes of an oversized line kept to recover its `id` (and nothing else). */
const HEAD_BYTES = 1024

/** Options of {@link readLines}. */
export interface ReadLinesOptions {
  /** Longest line, in UTF-8 bytes, without its line break. @default DEFAULT_MAX_LINE_BYTES */
  maxBytes?: number
  /** Called with each line (UTF-8 decoded, without `\n` or a trailing `\r`). */
  onLine(line: string): void
  /**
   * Called once per line over `maxBytes`, as soon as it passes the cap; the rest of the line is
   * discarded as it arrives. `head` is its first bytes, decoded (to find the request `id`).
   */
  onTooLarge(info: { head: string; maxBytes: number }): void
}

/** A running {@link readLines}. */
export interface LineReader {
  /** Stops reading (listeners removed); `done` resolves. */
  close(): void
  /** Resolves when the input ended, failed or {@link LineReader.close} was called. */
  readonly done: Promise<void>
}

/**
 * Splits a byte stream into `\n`-terminated lines (`\r\n` too) like `readline`, but with a cap on
 * the line length: memory stays bounded by `maxBytes` whatever the input. A last line without a
 * line break is delivered when the input ends.
 */
export function readLines(input: NodeJS.ReadableStream, opts: ReadLinesOptions): LineReader {
  const maxBytes = opts.maxBytes ?? DEFAULT_MAX_LINE_BYTES
  let parts: Buffer[] = []
  let size = 0
  let skipping = false // the current line passed the cap: discard until its end
  let stopped = false
  let finish!: () => void
  const done = new Promise<void>((resolve) => (finish = resolve))

  const emit = (): void => {
    if (!skipping) {
      let line = Buffer.concat(parts, size).toString('utf8')
      if (line.endsWith('\r')) line = line.slice(0, -1)
      parts = []
      size = 0
      opts.onLine(line)
    }
    parts = []
    size = 0
    skipping = false
  }
  const take = (piece: Buffer): void => {
    if (skipping || piece.length === 0) return
    if (size + piece.length <= maxBytes) {
      parts.push(piece)
      size += piece.length
      return
    }
    const head = Buffer.concat([...parts, piece]).subarray(0, HEAD_BYTES).toString('utf8')
    parts = []
    size = 0
    skipping = true
    opts.onTooLarge({ head, maxBytes })
  }
  const onData = (chunk: Buffer | string): void => {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk
    let pos = 0
    for (let nl = buf.indexOf(10, pos); nl !== -1 && !stopped; nl = buf.indexOf(10, pos)) {
      take(buf.subarray(pos, nl))
      emit()
      pos = nl + 1
    }
    if (!stopped) take(buf.subarray(pos))
  }
  const stop = (): void => {
    stopped = true
    input.off('data', onData)
    input.off('end', onEnd)
    input.off('error', stop)
    input.off('close', onEnd)
    finish()
  }
  function onEnd(): void {
    if (!stopped && (size > 0 || skipping)) emit()
    stop()
  }
  input.on('data', onData)
  input.on('end', onEnd)
  input.on('close', onEnd)
  input.on('error', stop)
  return { close: stop, done }
}

/**
 * The `id` of a request line cut short, when it is the object's first field (`{"id": 7, ...`):
 * a number, a string or null; `null` when it cannot be told.
 */
export function leadingId(head: string): unknown {
  const m = /^\s*\{\s*"id"\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\]|\\.)*"|null|true|false)\s*[,}]/.exec(head)
  if (m === null) return null
  try {
    return JSON.parse(m[1]!) as unknown
  } catch {
    return null
  }
}
