import { SpillwayError } from '../../errors.js'
import type { StorageAdapter } from '../../store/types.js'
import { sha256Hex } from '../hash.js'
import { codecOf } from './codec.js'
import { KEY_ID_BYTES, SEAL_OVERHEAD, chunkAad, manifestAad, unseal, type BlobKeys } from './crypt.js'
import { CHUNK_DEFLATE, HEADER_BYTES, decodeHeader, isChunkedBlob, parseManifest, type Manifest, type StreamInfo } from './layout.js'
import { hasLegacyMagic, isLegacyEnvelope, openLegacyEnvelope } from './legacy.js'
import { xxh, xxh64Hex } from './xxh.js'

/** The store calls a reader uses: `getRange` when the store has it, else one `get`; the store's codec when it offers one. */
export type BlobSource = Pick<StorageAdapter, 'get'> & Partial<Pick<StorageAdapter, 'getRange' | 'codec'>>

/** The body text of a version-1 blob, derived on open (version-2 blobs carry it). */
export type DeriveBody = (text: string) => { text: string; path: readonly string[] | null; cleaned: string } | undefined

/** An opened blob: its manifest and verified access to each chunk. */
export interface StoredBlob {
  readonly id: string
  readonly manifest: Manifest
  /** Stored size in bytes (the whole value). */
  readonly storedBytes: number
  /** The stream `range`/`grep` read (the body when there is one, else the raw text). */
  readonly body: StreamInfo
  /** Chunk `k` of `stream`, inflated, checked against its xxh64 and decoded. Throws `integrity` on any mismatch. */
  chunkText(stream: StreamInfo, k: number): Promise<string>
  /** Chunk `k` of `stream` as verified UTF-8 bytes (the caller's own: no later read changes them). */
  chunkBytes(stream: StreamInfo, k: number): Promise<Uint8Array>
}

/**
 * What {@link openBlob} found. `locked`: the blob is encrypted and no key (`no_key`) or another
 * key (`wrong_key`) was given; its bytes were not touched beyond the header and manifest check.
 */
export type OpenedBlob = { status: 'ok'; blob: StoredBlob } | { status: 'absent' } | { status: 'damaged'; reason: string } | { status: 'locked'; reason: LockedReason }

/** Why a blob is not opened: encrypted and no key, encrypted under another key, or stored in clear while a key requires encryption. */
export type LockedReason = 'no_key' | 'wrong_key' | 'plaintext'

const damaged = (reason: string): SpillwayError => new SpillwayError('integrity', reason)
const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }) // ignoreBOM: a U+FEFF starting the text (or a chunk) is content, kept

/**
 * Opens blob `id`: reads the 16-byte header and the manifest only (with `getRange`), checks the
 * manifest's checksum and that its digest starts with `id`. Chunks are read and verified on
 * demand. A version-1 blob (one payload) is read whole and verified against its SHA-256 once.
 * An encrypted blob needs `keys` (its manifest and each chunk are authenticated as they are
 * decrypted); a plain blob opens without them, and with them only when `opts.readPlaintext`.
 */
export async function openBlob(store: BlobSource, id: string, deriveBody: DeriveBody, keys?: BlobKeys, opts: { readPlaintext?: boolean } = {}): Promise<OpenedBlob> {
  // With a key, a blob in clear is served only when asked for: nothing authenticates it.
  const refuseClear = keys !== undefined && opts.readPlaintext !== true
  const ranged = typeof store.getRange === 'function'
  let whole: Uint8Array | undefined
  const read = async (start: number, end: number): Promise<Uint8Array | undefined> => {
    if (ranged) return store.getRange!(id, start, end)
    whole ??= await store.get(id)
    return whole?.subarray(start, end)
  }
  const head = await read(0, HEADER_BYTES)
  if (head === undefined) return { status: 'absent' }
  if (!isChunkedBlob(head)) {
    const v1 = hasLegacyMagic(head)
    if (refuseClear && v1) return { status: 'locked', reason: 'plaintext' } // a version-1 blob: always clear
    // Neither format: judged on its first bytes, never read whole.
    if (!v1) return { status: 'damaged', reason: head.length === 0 ? 'it is empty' : 'it is not a blob' }
    const data = ranged ? await store.get(id) : whole
    if (data === undefined) return { status: 'absent' }
    return openLegacy(id, data, deriveBody)
  }
  const h = decodeHeader(head)
  if (h === undefined) return { status: 'damaged', reason: 'its header is malformed' }
  const mbytes = await read(h.offset, h.offset + h.length)
  if (mbytes === undefined) return { status: 'absent' }
  const x = await xxh()
  if (mbytes.length !== h.length || x.h32Raw(mbytes) >>> 0 !== h.xxh32) return { status: 'damaged', reason: 'its manifest is truncated or fails its checksum' }
  let plainManifest = mbytes
  if (!h.encrypted && refuseClear) return { status: 'locked', reason: 'plaintext' }
  if (h.encrypted) {
    if (keys === undefined) return { status: 'locked', reason: 'no_key' }
    const kid = mbytes.subarray(0, KEY_ID_BYTES)
    if (kid.length !== KEY_ID_BYTES || kid.some((b, i) => b !== keys.keyId[i])) return { status: 'locked', reason: 'wrong_key' }
    const opened = await unseal(keys, mbytes.subarray(KEY_ID_BYTES), manifestAad())
    if (opened === undefined) return { status: 'damaged', reason: 'its manifest fails authentication' }
    plainManifest = opened
  }
  const manifest = parseManifest(plainManifest, h.offset, h.encrypted ? SEAL_OVERHEAD : 0)
  if (manifest === undefined) return { status: 'damaged', reason: 'its manifest is malformed' }
  if (!manifest.sha256.startsWith(id)) return { status: 'damaged', reason: 'it holds another result' }
  const codec = codecOf(store)
  // One inflate buffer per opened blob, reused (by codecs that can): a grep over 500 MB must not
  // leave ~2,000 chunk-sized buffers for the garbage collector. It is held from the inflate to the
  // end of `use` (a native inflate is asynchronous: two reads of one blob at once must not write
  // into one buffer); a read that finds it held inflates into a buffer of its own.
  let scratch: Uint8Array | undefined
  let scratchHeld = false
  const withChunk = async <T>(s: StreamInfo, k: number, use: (bytes: Uint8Array, shared: boolean) => T): Promise<T> => {
    const c = s.chunks[k]
    if (c === undefined) throw new SpillwayError('invalid_argument', `no chunk ${k}`)
    let stored = await read(c.o, c.o + c.n)
    if (stored === undefined) throw damaged(`chunk ${k} is gone`)
    if (stored.length !== c.n) throw damaged(`chunk ${k} is truncated`)
    if (keys !== undefined && h.encrypted) {
      stored = await unseal(keys, stored, chunkAad(manifest.sha256, s === manifest.raw ? 0 : 1, k))
      if (stored === undefined) throw damaged(`chunk ${k} fails authentication`)
    }
    const holds = c.z === CHUNK_DEFLATE && !scratchHeld
    if (holds) scratchHeld = true
    try {
      let bytes = stored
      if (c.z === CHUNK_DEFLATE) {
        if (holds && (scratch === undefined || scratch.length <= c.b)) scratch = new Uint8Array(Math.max(c.b + 1, 1 << 18))
        try {
          bytes = await codec.inflate(stored, c.b, holds ? scratch : new Uint8Array(c.b + 1))
        } catch {
          throw damaged(`chunk ${k} does not inflate`)
        }
      }
      if (bytes.length !== c.b || xxh64Hex(x, bytes) !== c.x) throw damaged(`chunk ${k} fails its checksum`)
      return use(bytes, holds && bytes.buffer === scratch?.buffer)
    } finally {
      if (holds) scratchHeld = false
    }
  }
  // Bytes in the shared buffer are copied: the caller may keep them past the next read.
  const chunkBytes = (s: StreamInfo, k: number): Promise<Uint8Array> => withChunk(s, k, (bytes, shared) => (shared ? bytes.slice() : bytes))
  const blob: StoredBlob = {
    id,
    manifest,
    storedBytes: h.offset + h.length,
    body: manifest.body?.stream ?? manifest.raw,
    chunkBytes,
    async chunkText(s, k) {
      const text = await withChunk(s, k, (bytes) => {
        try {
          return fatal.decode(bytes)
        } catch {
          throw damaged(`chunk ${k} is not UTF-8`)
        }
      })
      const c = s.chunks[k]!
      if (text.length !== c.l) throw damaged(`chunk ${k} has the wrong length`)
      // The line index (where line n starts) trusts each chunk's newline count: check it.
      let nl = 0
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) nl++
      if (nl !== c.nc) throw damaged(`chunk ${k} has the wrong number of lines`)
      return text
    },
  }
  return { status: 'ok', blob }
}

/** A version-1 blob as an in-memory blob of one chunk per stream (verified against its SHA-256 here). */
async function openLegacy(id: string, data: Uint8Array, deriveBody: DeriveBody): Promise<OpenedBlob> {
  if (!isLegacyEnvelope(data)) return { status: 'damaged', reason: data.length === 0 ? 'it is empty' : 'it is not a blob' }
  const opened = await openLegacyEnvelope(data)
  if (opened === undefined) return { status: 'damaged', reason: 'its payload does not inflate (or inflates past the size a result can have)' }
  if (!opened.sha256.startsWith(id) || (await sha256Hex(opened.utf8)) !== opened.sha256) return { status: 'damaged', reason: 'its bytes do not match its SHA-256' }
  let text: string
  try {
    text = fatal.decode(opened.utf8)
  } catch {
    return { status: 'damaged', reason: 'it is not UTF-8' }
  }
  const one = (t: string): { info: StreamInfo; text: string } => {
    let nl = 0
    for (let i = t.indexOf('\n'); i !== -1; i = t.indexOf('\n', i + 1)) nl++
    const lines = t.length === 0 ? 0 : t.charCodeAt(t.length - 1) === 10 ? nl : nl + 1
    const chunks = t.length === 0 ? [] : [{ o: HEADER_BYTES, n: 0, z: 0 as const, b: 0, c: 0, l: t.length, nb: 0, nc: nl, x: '' }]
    return { info: { chars: t.length, lines, chunks }, text: t }
  }
  const raw = one(text)
  const derived = deriveBody(text)
  const body = derived === undefined ? undefined : one(derived.text)
  const manifest: Manifest = {
    v: 2,
    sha256: opened.sha256,
    bytes: opened.utf8.length,
    raw: raw.info,
    ...(body !== undefined && derived !== undefined ? { body: { path: derived.path === null ? null : [...derived.path], cleaned: derived.cleaned, stream: body.info } } : {}),
  }
  const texts = new Map<StreamInfo, string>([[raw.info, raw.text], ...(body !== undefined ? [[body.info, body.text] as const] : [])])
  const textOf = (s: StreamInfo): string => texts.get(s) ?? ''
  return {
    status: 'ok',
    blob: {
      id,
      manifest,
      storedBytes: data.length,
      body: body?.info ?? raw.info,
      chunkText: async (s) => textOf(s),
      chunkBytes: async (s) => new TextEncoder().encode(textOf(s)),
    },
  }
}

/** Reads and verifies every chunk of every stream (a put uses it before trusting a stored copy). */
export async function verifyAll(blob: StoredBlob): Promise<boolean> {
  try {
    const streams = [blob.manifest.raw, ...(blob.manifest.body !== undefined ? [blob.manifest.body.stream] : [])]
    for (const s of streams) for (let k = 0; k < s.chunks.length; k++) await blob.chunkBytes(s, k)
    return true
  } catch {
    return false
  }
}
