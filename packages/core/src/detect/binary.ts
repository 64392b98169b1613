/** What {@link describeBytes} found in a tool's raw output. */
export interface BytesVerdict {
  /** True when the bytes are not text a model can read: a NUL byte, or not valid UTF-8. */
  binary: boolean
  /** A media type from the leading magic bytes, else `application/octet-stream` (or `text/plain`). */
  type: string
  /** Why the bytes count as binary (`'NUL byte at 12'`, `'invalid UTF-8 at byte 40'`), when they do. */
  reason?: string
  bytes: number
}

/** Magic numbers of the formats a tool is likely to print by mistake (`cat` of an image, an archive). */
const MAGIC: readonly (readonly [string, readonly number[]])[] = [
  ['image/png', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  ['image/jpeg', [0xff, 0xd8, 0xff]],
  ['image/gif', [0x47, 0x49, 0x46, 0x38]],
  ['image/webp', [0x52, 0x49, 0x46, 0x46]], // RIFF: also WAV/AVI; told apart below
  ['application/pdf', [0x25, 0x50, 0x44, 0x46, 0x2d]],
  ['application/zip', [0x50, 0x4b, 0x03, 0x04]],
  ['application/gzip', [0x1f, 0x8b]],
  ['application/x-bzip2', [0x42, 0x5a, 0x68]],
  ['application/x-xz', [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]],
  ['application/zstd', [0x28, 0xb5, 0x2f, 0xfd]],
  ['application/x-7z-compressed', [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]],
  ['application/x-elf', [0x7f, 0x45, 0x4c, 0x46]],
  ['application/x-mach-binary', [0xcf, 0xfa, 0xed, 0xfe]],
  ['application/x-msdownload', [0x4d, 0x5a]],
  ['application/wasm', [0x00, 0x61, 0x73, 0x6d]],
  ['application/x-sqlite3', [0x53, 0x51, 0x4c, 0x69, 0x74, 0x65, 0x20, 0x66]],
]

function sniff(b: Uint8Array): string | undefined {
  for (const [type, sig] of MAGIC) {
    if (b.length >= sig.length && sig.every((x, i) => b[i] === x)) {
      if (type !== 'image/webp') return type
      const tag = String.fromCharCode(...b.subarray(8, 12))
      return tag === 'WEBP' ? 'image/webp' : tag === 'WAVE' ? 'audio/wav' : tag === 'AVI ' ? 'video/x-msvideo' : 'application/octet-stream'
    }
  }
  return undefined
}

/** Index of the first byte where `b` stops being valid UTF-8, or -1. One linear pass, no copy. */
export function invalidUtf8At(b: Uint8Array): number {
  let i = 0
  while (i < b.length) {
    const c = b[i]!
    if (c < 0x80) {
      i++
      continue
    }
    let n: number
    let min: number
    if (c >= 0xc2 && c <= 0xdf) (n = 1), (min = 0x80)
    else if (c >= 0xe0 && c <= 0xef) (n = 2), (min = 0x800)
    else if (c >= 0xf0 && c <= 0xf4) (n = 3), (min = 0x10000)
    else return i
    let cp = c & (0x3f >> n)
    for (let k = 1; k <= n; k++) {
      const d = b[i + k]
      if (d === undefined || (d & 0xc0) !== 0x80) return i // truncated or broken sequence
      cp = (cp << 6) | (d & 0x3f)
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i
    i += n + 1
  }
  return -1
}

/**
 * Tells whether a tool's raw output is text a model can read, and if not what it is, from its
 * bytes (a NUL byte or invalid UTF-8 makes it binary; the type comes from the magic bytes).
 * Linear in the input, no copy.
 */
export function describeBytes(bytes: Uint8Array): BytesVerdict {
  const type = sniff(bytes)
  const nul = bytes.indexOf(0)
  if (nul >= 0) return { binary: true, type: type ?? 'application/octet-stream', reason: `NUL byte at ${nul}`, bytes: bytes.length }
  const bad = invalidUtf8At(bytes)
  if (bad >= 0) return { binary: true, type: type ?? 'application/octet-stream', reason: `invalid UTF-8 at byte ${bad}`, bytes: bytes.length }
  return { binary: false, type: type ?? 'text/plain', bytes: bytes.length }
}

/**
 * The line a model sees instead of binary output: what it is and how big, never the raw bytes
 * (which would arrive as replacement characters and waste the budget).
 *
 * @example
 * binaryPlaceholder(describeBytes(png)) // '[binary output: image/png, 48,213 bytes (NUL byte at 13); not shown]'
 */
export function binaryPlaceholder(v: BytesVerdict): string {
  return `[binary output: ${v.type}, ${v.bytes.toLocaleString('en-US')} bytes${v.reason ? ` (${v.reason})` : ''}; not shown]`
}
