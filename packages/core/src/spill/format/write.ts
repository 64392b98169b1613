import { deflateSync } from 'fflate'
import { sha256Hex } from '../hash.js'
import { CHUNK_DEFLATE, CHUNK_RAW, HEADER_BYTES, encodeHeader, type ChunkRef, type Manifest, type StreamInfo } from './layout.js'
import { xxh, xxh64Hex } from './xxh.js'

/**
 * Target chunk size in chars. A chunk ends at the last `\n` in its second half (so lines rarely
 * straddle chunks), else at this size. 256 Ki chars: inflating + verifying + decoding one chunk
 * costs ~1-2 ms, which bounds a `range`; a 100 M-char blob has ~400 chunks (a ~30 KB manifest).
 */
export const DEFAULT_CHUNK_CHARS = 256 * 1024

/** What goes into one blob: the raw result and, when `range`/`grep` read another text, that text. */
export interface BlobInput {
  text: string
  body?: { text: string; path: readonly string[] | null; cleaned: string } | undefined
}

/** A blob built by {@link buildBlob}: chunks stored raw (compress later with {@link compactBlob}). */
export interface BuiltBlob {
  sha256: string
  manifest: Manifest
  /** The whole stored value. */
  bytes: Uint8Array
}

/** Char offsets where chunks end (the last is `text.length`). Never splits a surrogate pair. */
export function chunkEnds(text: string, target: number): number[] {
  const ends: number[] = []
  const n = text.length
  for (let start = 0; start < n; ) {
    let end = start + target
    if (end >= n) end = n
    else {
      const nl = text.lastIndexOf('\n', end - 1)
      if (nl >= start + (target >> 1)) end = nl + 1
      else if ((text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end-- // keep a pair together
    }
    ends.push(end)
    start = end
  }
  return ends
}

/** Growable output buffer: encodes in place while the text is ASCII, grows (one copy) when not. */
class Out {
  buf: Uint8Array
  pos = HEADER_BYTES
  constructor(capacity: number) {
    this.buf = new Uint8Array(capacity)
  }
  ensure(extra: number): void {
    if (this.pos + extra <= this.buf.length) return
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.pos + extra))
    next.set(this.buf.subarray(0, this.pos))
    this.buf = next
  }
  /** Encodes `s` at the end; returns the bytes written. */
  encode(enc: Encoder, s: string): number {
    const from = this.pos
    let read = 0
    for (;;) {
      this.ensure(s.length - read)
      const r = enc.encodeInto(read === 0 ? s : s.slice(read), this.buf.subarray(this.pos))
      read += r.read
      this.pos += r.written
      if (read >= s.length) return this.pos - from
      this.ensure((s.length - read) * 3)
    }
  }
}

type Encoder = InstanceType<typeof TextEncoder>

/** `\n` chars in `s[from, to)` (string `indexOf` is native and fast; `Uint8Array#indexOf` per hit is not). */
function countNewlines(s: string, from: number, to: number): number {
  let n = 0
  for (let i = s.indexOf('\n', from); i !== -1 && i < to; i = s.indexOf('\n', i + 1)) n++
  return n
}

const lineCount = (chars: number, newlines: number, endsWithNl: boolean): number => (chars === 0 ? 0 : endsWithNl ? newlines : newlines + 1)

function writeStream(out: Out, enc: Encoder, h: Awaited<ReturnType<typeof xxh>>, text: string, target: number): StreamInfo {
  const chunks: ChunkRef[] = []
  let start = 0
  let nl = 0
  for (const end of chunkEnds(text, target)) {
    const o = out.pos
    const b = out.encode(enc, end - start === text.length ? text : text.slice(start, end))
    const bytes = out.buf.subarray(o, o + b)
    const nc = countNewlines(text, start, end)
    chunks.push({ o, n: b, z: CHUNK_RAW, b, c: start, l: end - start, nb: nl, nc, x: xxh64Hex(h, bytes) })
    nl += nc
    start = end
  }
  return { chars: text.length, lines: lineCount(text.length, nl, text.charCodeAt(text.length - 1) === 10), chunks }
}

function finish(out: Out, manifest: Manifest, h: Awaited<ReturnType<typeof xxh>>): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(manifest))
  out.ensure(json.length)
  const at = out.pos
  out.buf.set(json, at)
  encodeHeader(out.buf, at, json.length, h.h32Raw(json))
  return out.buf.subarray(0, at + json.length)
}

/**
 * Builds one blob: the raw result (and the body text, when given) cut into chunks, each with its
 * xxh64, encoded straight into the stored buffer (no copy while the text is ASCII), and the
 * SHA-256 of the raw result's UTF-8 bytes. Chunks are stored raw; {@link compactBlob} compresses.
 */
export async function buildBlob(input: BlobInput, chunkChars = DEFAULT_CHUNK_CHARS): Promise<BuiltBlob> {
  return beginBlob(input, await xxh(), chunkChars)
}

/**
 * {@link buildBlob} in two steps: encoding and chunk checksums run now, synchronously, and the
 * SHA-256 is started (WebCrypto: off the main thread in Node) before this returns, so the caller
 * can do other work (trimming) while it computes. `h` is `await xxh()`.
 */
export function beginBlob(input: BlobInput, h: Awaited<ReturnType<typeof xxh>>, chunkChars = DEFAULT_CHUNK_CHARS): Promise<BuiltBlob> {
  const enc = new TextEncoder()
  const total = input.text.length + (input.body?.text.length ?? 0)
  const out = new Out(HEADER_BYTES + total + 4096 + Math.ceil(total / chunkChars) * 256)
  const raw = writeStream(out, enc, h, input.text, chunkChars)
  const rawEnd = out.pos
  const body = input.body === undefined ? undefined : { path: input.body.path === null ? null : [...input.body.path], cleaned: input.body.cleaned, stream: writeStream(out, enc, h, input.body.text, chunkChars) }
  return sha256Hex(out.buf.subarray(HEADER_BYTES, rawEnd)).then((sha256) => {
    const manifest: Manifest = { v: 2, sha256, bytes: rawEnd - HEADER_BYTES, raw, ...(body !== undefined ? { body } : {}) }
    return { sha256, manifest, bytes: finish(out, manifest, h) }
  })
}

/** Compresses one chunk (raw deflate). */
export type ChunkCompressor = (bytes: Uint8Array) => Promise<Uint8Array>

/**
 * The platform's `CompressionStream('deflate-raw')` (zlib underneath in Node, browsers, Deno and
 * edge runtimes; in Node it runs off the main thread), else fflate level 1. Measured in
 * spill/README.md ("Compression at rest").
 */
export const deflateRaw: ChunkCompressor =
  typeof globalThis.CompressionStream === 'function'
    ? async (bytes) => {
        const cs = new CompressionStream('deflate-raw')
        const w = cs.writable.getWriter()
        void w.write(bytes).catch(() => undefined)
        void w.close().catch(() => undefined)
        const parts: Uint8Array[] = []
        let n = 0
        const r = cs.readable.getReader()
        for (;;) {
          const { done, value } = await r.read()
          if (done) break
          parts.push(value)
          n += value.length
        }
        if (parts.length === 1) return parts[0]!
        const out = new Uint8Array(n)
        let at = 0
        for (const p of parts) {
          out.set(p, at)
          at += p.length
        }
        return out
      }
    : async (bytes) => deflateSync(bytes, { level: 1 })

/** Chunks smaller than this stay raw: deflate saves nothing worth its cost there. */
const MIN_COMPRESS_BYTES = 512

/**
 * The same blob with every chunk compressed (a chunk that does not shrink stays raw). Same
 * manifest checksums (they cover the inflated bytes), so a reader verifies either form alike.
 */
export async function compactBlob(built: BuiltBlob, compress: ChunkCompressor = deflateRaw): Promise<Uint8Array> {
  const h = await xxh()
  const src = built.bytes
  const streams = [built.manifest.raw, ...(built.manifest.body !== undefined ? [built.manifest.body.stream] : [])]
  const packed: Uint8Array[][] = []
  let size = HEADER_BYTES
  for (const s of streams) {
    const row: Uint8Array[] = []
    for (const k of s.chunks) {
      const raw = src.subarray(k.o, k.o + k.n)
      const z = raw.length >= MIN_COMPRESS_BYTES ? await compress(raw) : raw
      const keep = z.length < raw.length ? z : raw
      row.push(keep)
      size += keep.length
    }
    packed.push(row)
  }
  const out = new Out(size + 4096 + built.bytes.length / 8)
  const restream = (s: StreamInfo, row: Uint8Array[]): StreamInfo => ({
    ...s,
    chunks: s.chunks.map((k, i) => {
      const bytes = row[i]!
      const o = out.pos
      out.ensure(bytes.length)
      out.buf.set(bytes, o)
      out.pos += bytes.length
      return { ...k, o, n: bytes.length, z: bytes.length < k.b ? CHUNK_DEFLATE : CHUNK_RAW }
    }),
  })
  const m = built.manifest
  const raw = restream(m.raw, packed[0]!)
  const body = m.body === undefined ? undefined : { ...m.body, stream: restream(m.body.stream, packed[1]!) }
  const manifest: Manifest = { ...m, raw, ...(body !== undefined ? { body } : {}) }
  return finish(out, manifest, h).slice()
}
