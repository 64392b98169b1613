import { SpillwayError } from '../errors.js'
import { stripAnsi } from '../filters/ansi/index.js'
import type { BlobMeta, StorageAdapter } from '../store/types.js'
import { lineView, type LineView } from '../trim/view.js'
import { buildBlob, codecOf, compactBlob, keyedDigestHex, openBlob, sealBlob, verifyAll, type BlobDigest, type BlobInput, type BlobKeys, type BuiltBlob, type DeriveBody, type LockedReason } from './format/index.js'
import { sha256Hex } from './hash.js'
import { blobReader, chunkCache, type BlobReader } from './reader.js'

/**
 * The text `range`/`grep`/offsets read, when it is not the raw result: the text inside JSON
 * ({@link lineView}) and/or the text with ANSI escape codes removed, as the excerpt shows it.
 * Carriage returns are kept (progress-frame collapsing is for the excerpt only): every char the
 * tool returned stays reachable.
 */
export function bodyOf(text: string, view: LineView | undefined): BlobInput['body'] {
  const lined = view?.text ?? text
  const stripped = stripAnsi(lined)
  if (view === undefined && stripped === undefined) return undefined
  return { text: stripped ?? lined, path: view?.path ?? null, cleaned: stripped !== undefined ? 'ANSI codes' : '' }
}

const deriveBody: DeriveBody = (text) => bodyOf(text, lineView(text))

/** What {@link BlobLayer.open} answers. */
export type Opened = { status: 'ok'; reader: BlobReader } | { status: 'absent' } | { status: 'damaged'; reason: string } | { status: 'locked'; reason: LockedReason }

/** The spill layer's side of the blob format: writes (deduplicated, repaired, compacted later) and opens blobs. */
export interface BlobLayer {
  /**
   * Stores `input` under the shortest free id prefix of its SHA-256 (12 hex, longer on a collision).
   * A stored copy is trusted only after it verifies; a damaged one is rewritten. Returns the id and
   * the bytes this call added (0 when a good copy was there).
   */
  write(input: BlobInput | Promise<BuiltBlob>, meta: Omit<BlobMeta, 'sha256'>): Promise<{ id: string; added: number }>
  /**
   * The digest ids are prefixes of, for `beginBlob`: SHA-256, or with encryption HMAC-SHA-256
   * under a subkey (a plain hash of the content would confirm a guess of it).
   */
  readonly digest: BlobDigest
  open(id: string): Promise<Opened>
  /** Forgets what this process knows of `id` (after a delete). */
  forget(id: string): void
  /** {@link forget} after an eviction or sweep removed `id`: a compression of it under way does not put it back. */
  removed(id: string): void
  /** Resolves when every background compaction has finished. */
  idle(): Promise<void>
  clear(): void
}

/** Options of {@link blobLayer}. */
export interface BlobLayerOptions {
  /** Compress chunks at rest, after the raw blob is stored. */
  compress: boolean
  /** Decoded chunks kept in memory, in chars. */
  cacheChars: number
  /** Told when a compaction changed a blob's stored size (`delta` bytes, negative when it shrank). */
  onResize?(id: string, delta: number): void
  /** Encrypt at rest with these keys (derived from `encryption.key`). */
  keys?: Promise<BlobKeys> | undefined
  /** With `keys`: still read blobs stored in clear (`encryption.readPlaintext`). */
  readPlaintext?: boolean
  /** Raw bytes that may wait for background compression at once. @default MAX_QUEUED_BYTES */
  maxQueuedBytes?: number
}

/** How long a blob found damaged is answered as damaged without being read again (ms). */
export const DAMAGED_MEMO_MS = 60_000

/** Raw bytes that may wait for background compression at once; a blob past it stays raw. */
export const MAX_QUEUED_BYTES = 256 * 1024 * 1024

/**
 * Writes go in two steps: the blob with raw chunks is stored before `write` resolves (so a handle
 * never leads nowhere, and a failing store is known at once); the compressed form replaces it in
 * the background, one blob at a time (every put is atomic, so a reader sees one whole form or the
 * other, and a reader that opened the raw form re-opens on the first chunk that fails to verify).
 */
export function blobLayer(store: StorageAdapter, opts: BlobLayerOptions): BlobLayer {
  const cache = chunkCache(opts.cacheChars)
  const keys = opts.keys
  keys?.catch(() => undefined) // a failed derivation is reported by the write or read that needs it
  const codec = codecOf(store)
  const plainDigest: BlobDigest = store.sha256Hex === undefined ? sha256Hex : async (utf8) => store.sha256Hex!(utf8)
  const digest: BlobDigest = keys === undefined ? plainDigest : async (utf8) => keyedDigestHex(await keys, utf8)
  /** What is stored for a plain blob: itself, or sealed when there is a key. */
  const stored = async (b: BuiltBlob): Promise<Uint8Array> => (keys === undefined ? b.bytes : sealBlob(b, await keys))
  const knownSha = new Map<string, string>() // id -> sha256 this process wrote or verified
  const readers = new Map<string, BlobReader>()
  let queue: Promise<void> = Promise.resolve()
  let queuedBytes = 0 // raw blobs waiting for (or in) background compression
  const compacting = new Map<string, Promise<void>>() // id -> its compaction while it runs (readers in this process wait for it)

  // Damaged verdicts, kept a short while: a forged blob that costs seconds to find damaged (a
  // version-1 payload inflating to its cap) is judged once, not on every fetch; the time limit
  // lets a copy another process rewrote be read again.
  const damagedSeen = new Map<string, { reason: string; at: number }>()
  const evicted = new Set<string>() // removed by an eviction or sweep of this process
  /**
   * Marks a stored duplicate as read now; false when it is gone (deleted since it was found), so
   * the caller stores it again rather than hand out an id that leads nowhere. The touch itself
   * protects it from an eviction decided on an earlier listing (see `StorageAdapter.touch`).
   */
  const touched = async (id: string, at: number): Promise<boolean> => {
    const r = store.touch === undefined ? undefined : await store.touch(id, at)
    return typeof r === 'boolean' ? r : store.has(id)
  }
  const remember = (id: string, sha: string): void => {
    if (knownSha.size > 10_000) knownSha.clear()
    knownSha.set(id, sha)
  }
  const forget = (id: string): void => {
    knownSha.delete(id)
    damagedSeen.delete(id)
    readers.delete(id)
    cache.drop(`${id}:`)
  }

  /** `openBlob`, with a store's own "this file is damaged" error (`integrity`) answered as damaged. */
  const openSafely = async (id: string): Promise<Awaited<ReturnType<typeof openBlob>>> => {
    try {
      return await openBlob(store, id, deriveBody, keys === undefined ? undefined : await keys, { readPlaintext: opts.readPlaintext === true })
    } catch (err) {
      if (SpillwayError.is(err) && err.code === 'integrity') return { status: 'damaged', reason: err.message }
      throw err
    }
  }

  const open = async (id: string): Promise<Opened> => {
    await compacting.get(id)
    const seen = damagedSeen.get(id)
    if (seen !== undefined && Date.now() - seen.at < DAMAGED_MEMO_MS) return { status: 'damaged', reason: seen.reason }
    const cached = readers.get(id)
    if (cached !== undefined) {
      if (await store.has(id)) return { status: 'ok', reader: cached }
      forget(id)
      return { status: 'absent' }
    }
    const o = await openSafely(id)
    if (o.status === 'damaged') {
      if (damagedSeen.size >= 1024) damagedSeen.clear()
      damagedSeen.set(id, { reason: o.reason, at: Date.now() })
    }
    if (o.status !== 'ok') return o
    const reader = blobReader(o.blob, cache)
    if (readers.size > 64) readers.clear()
    readers.set(id, reader)
    return { status: 'ok', reader }
  }

  return {
    async write(input, meta) {
      const built = input instanceof Promise ? await input : await buildBlob(input, undefined, digest)
      const sha = built.sha256
      for (let len = 12; len <= 64; len += 4) {
        const id = sha.slice(0, len)
        if (knownSha.get(id) === sha && (await touched(id, meta.createdAt))) return { id, added: 0 }
        if (await store.has(id)) {
          const o = await openSafely(id)
          // Same prefix, other content (or another key's blob, which is never overwritten): a longer id.
          if ((o.status === 'ok' && o.blob.manifest.sha256 !== sha) || o.status === 'locked') continue
          if (o.status === 'ok' && (await verifyAll(o.blob)) && (await touched(id, meta.createdAt))) {
            remember(id, sha)
            return { id, added: 0 }
          }
          // Damaged (or unreadable) copy: rewrite it below, so re-running the tool repairs it.
          forget(id)
        }
        const bytes = await stored(built) // sealed only when it is written (not for a duplicate)
        await store.put(id, bytes, { ...meta, sha256: sha })
        damagedSeen.delete(id)
        evicted.delete(id)
        remember(id, sha)
        readers.delete(id)
        cache.drop(`${id}:`)
        // Compression waits its turn holding the raw blob: past a bound of bytes waiting, a blob
        // stays raw (valid, only larger) rather than letting a burst of large results pile up.
        if (opts.compress && queuedBytes + bytes.length <= (opts.maxQueuedBytes ?? MAX_QUEUED_BYTES)) {
          queuedBytes += bytes.length
          queue = queue.then(async () => {
            // Readers wait only for the blob being compressed now (one blob's work), never for
            // the queue: a blob still waiting is read in its raw form, which is valid.
            let finish = (): void => undefined
            const done = new Promise<void>((r) => (finish = r))
            compacting.set(id, done)
            try {
              const packed = await stored(await compactBlob(built, codec.deflate))
              if (packed.length >= bytes.length || !(await store.has(id))) return
              await store.put(id, packed, { ...meta, sha256: sha })
              // Evicted between the check and the put: the put brought it back with nothing
              // pointing at it (another process's eviction is not seen here; its orphan goes at
              // the next sweep, least recently used first).
              if (evicted.has(id)) {
                await store.delete(id)
                return
              }
              readers.delete(id)
              opts.onResize?.(id, packed.length - bytes.length)
            } catch {
              // the raw form stays: valid, only larger
            } finally {
              queuedBytes -= bytes.length
              if (compacting.get(id) === done) compacting.delete(id)
              finish()
            }
          })
        }
        return { id, added: bytes.length }
      }
      throw new SpillwayError('integrity', 'every id prefix of this result is taken by other content')
    },
    digest,
    open,
    forget,
    removed(id) {
      forget(id)
      if (evicted.size >= 10_000) evicted.clear()
      evicted.add(id)
    },
    idle: () => queue,
    clear() {
      cache.clear()
      readers.clear()
      knownSha.clear()
    },
  }
}
