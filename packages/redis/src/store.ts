import { assertBlobId, assertSessionId, SpillwayError, type BlobInfo, type BlobMeta, type SessionEntry, type StorageAdapter } from '@spillway/core'
import { nodeSha256Hex, nodeZlibCodec } from '@spillway/core/fs'
import { clientHandle, type Connection, type RedisClient, type RedisCluster } from './client.js'
import { keyLayout } from './keys.js'
import { redisUsage } from './usage.js'

/** Options of {@link redisStore}. Give a `client` or a `url`. */
export interface RedisStoreOptions {
  /** A connected node-redis client (`createClient`) or cluster client (`createCluster`). Its lifecycle stays yours: the store never connects or closes it. */
  client?: RedisClient | RedisCluster
  /** `redis://[user:pass@]host:port/db` or `rediss://...`: the store creates its client on first use and closes it in `dispose`. */
  url?: string
  /** First part of every key, joined by `:` (1-64 of `A-Z a-z 0-9 _ . : -`). @default 'spillway' */
  prefix?: string
  /** Name reported by the store. @default 'redis' */
  name?: string
  /** Redis expiry of blobs, refreshed by every read (`touch`) and re-put, in seconds; unset leaves expiry to `sweep`. @default undefined */
  ttlSeconds?: number
  /** Redis expiry of tombstones (entries whose blob is gone), in seconds. @default 604800 (168 h, as `tombstoneTtlHours`) */
  tombstoneTtlSeconds?: number
  /** While Redis is down or reconnecting, how long a command waits before failing, in ms. @default 2000 */
  readyTimeoutMs?: number
  /** Time bound of one Redis command when the store creates the client (`url`), in ms; a command past it fails with a `store` error. @default 5000 */
  commandTimeoutMs?: number
  /** `COUNT` hint of each `SCAN` step. @default 500 */
  scanCount?: number
}

/** Defaults of {@link RedisStoreOptions}. */
export const DEFAULT_REDIS_STORE_OPTIONS = {
  prefix: 'spillway',
  name: 'redis',
  tombstoneTtlSeconds: 168 * 3600,
  readyTimeoutMs: 2000,
  commandTimeoutMs: 5000,
  scanCount: 500,
} as const

// Keeps the earliest createdAt and the latest access time when the same content is put again.
const PUT_META = `
redis.call('HSETNX', KEYS[1], 'c', ARGV[1])
local a = tonumber(redis.call('HGET', KEYS[1], 'a') or '0')
if a < tonumber(ARGV[1]) then redis.call('HSET', KEYS[1], 'a', ARGV[1]) end
redis.call('HSET', KEYS[1], 'n', ARGV[2], 'm', ARGV[3])
return 1`

// Deletes a blob only if its access time is not after ARGV[1] (the listing's): 1 deleted or absent, 0 kept.
const DELETE_IF_IDLE = `
local a = redis.call('HGET', KEYS[1], 'a')
if a and tonumber(a) > tonumber(ARGV[1]) then return 0 end
redis.call('DEL', KEYS[1], KEYS[2])
return 1`

// Moves the access time to max(previous + 1, ARGV[1]) on a blob that exists (never creates one), refreshing its expiry: 1, or 0 when absent.
const TOUCH = `
local a = redis.call('HGET', KEYS[1], 'a')
if not a then return 0 end
redis.call('HSET', KEYS[1], 'a', tostring(math.max(tonumber(a) + 1, tonumber(ARGV[1]))))
if ARGV[2] ~= '' then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  redis.call('PEXPIRE', KEYS[2], ARGV[2])
end
return 1`

const toBytes = (b: Buffer): Uint8Array => new Uint8Array(b.buffer, b.byteOffset, b.byteLength)
const str = (v: unknown): string | undefined => (v === null || v === undefined ? undefined : String(v))

function parseEntry(raw: string | null | undefined, id: string): SessionEntry | undefined {
  if (raw === null || raw === undefined) return undefined
  try {
    const e = JSON.parse(raw) as SessionEntry
    return typeof e === 'object' && e !== null && e.id === id ? e : undefined
  } catch {
    return undefined
  }
}

function checkRange(start: number, end: number): void {
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < 0) {
    throw new SpillwayError('invalid_argument', `invalid byte range [${start}, ${end}): expected non-negative integers`)
  }
}

/**
 * A {@link StorageAdapter} on Redis, shared by every process and replica that points at the same
 * Redis and prefix: blobs, the session index, access times (LRU) and tombstones all live there.
 * Implements every optional capability (`getRange`, `touch`, session index, usage counters, `cleanup`). Each put
 * is one `MULTI`, so a reader sees a whole blob or none, also when the writer dies mid-put.
 *
 * @example
 * ```ts
 * import { createSpillway } from '@spillway/core'
 * import { redisStore } from '@spillway/redis'
 * const sw = createSpillway({ store: redisStore({ url: 'redis://127.0.0.1:6379/0' }) })
 * ```
 */
export function redisStore(options: RedisStoreOptions): StorageAdapter {
  const o = { ...DEFAULT_REDIS_STORE_OPTIONS, ...options }
  if (options.client === undefined && options.url === undefined) throw new SpillwayError('invalid_argument', 'redisStore needs a `client` or a `url`')
  if (o.ttlSeconds !== undefined && !(o.ttlSeconds > 0)) throw new SpillwayError('invalid_argument', 'redisStore: ttlSeconds must be > 0')
  if (!(o.tombstoneTtlSeconds > 0)) throw new SpillwayError('invalid_argument', 'redisStore: tombstoneTtlSeconds must be > 0')
  const k = keyLayout(o.prefix)
  const h = clientHandle({ client: options.client, url: options.url, readyTimeoutMs: o.readyTimeoutMs, commandTimeoutMs: o.commandTimeoutMs })
  const ttlMs = o.ttlSeconds === undefined ? '' : String(Math.round(o.ttlSeconds * 1000))
  const usage = redisUsage(h, k, o.scanCount)

  async function* scan(c: Connection, match: string): AsyncIterable<string> {
    const seen = new Set<string>() // SCAN may return a key twice
    for await (const keys of c.scan(match, o.scanCount)) {
      for (const key of keys) {
        if (seen.has(key)) continue
        seen.add(key)
        yield key
      }
    }
  }

  async function sessionEntries(c: Connection, sessionId: string): Promise<SessionEntry[]> {
    const ids = (await c.text.sMembers(k.session(sessionId))) as string[]
    if (ids.length === 0) return []
    ids.sort()
    const raws = (await c.text.mGet(ids.map((id) => k.entry(sessionId, id)))) as (string | null)[]
    const out: SessionEntry[] = []
    const stale: string[] = []
    ids.forEach((id, i) => {
      const e = parseEntry(raws[i], id)
      if (e === undefined) stale.push(id)
      else out.push(e)
    })
    // Tombstones expire by themselves; drop their ids from the set (re-checked atomically per id).
    for (const id of stale) await c.text.eval("if redis.call('EXISTS', KEYS[1]) == 0 then return redis.call('SREM', KEYS[2], ARGV[1]) end return 0", { keys: [k.entry(sessionId, id), k.session(sessionId)], arguments: [id] })
    return out
  }

  /** One full listing: SCAN the meta keys, then the sizes and times of each blob. */
  const listAll = (): Promise<BlobInfo[]> =>
    h.run('list', async (c) => {
      const out: BlobInfo[] = []
      const batch: string[] = []
      const flush = async (): Promise<void> => {
        const ids = batch.splice(0)
        const metas = await Promise.all(ids.map((id) => c.text.hmGet(k.meta(id), ['c', 'a', 'n']) as Promise<(string | null)[]>))
        metas.forEach(([cr, a, n], i) => {
          if (str(cr) !== undefined && str(n) !== undefined) out.push({ id: ids[i]!, bytes: Number(n), createdAt: Number(cr), lastAccessAt: Number(a ?? cr) })
        })
      }
      for await (const key of scan(c, k.metaPattern)) {
        const id = k.idOf(key)
        if (id !== undefined) batch.push(id)
        if (batch.length >= o.scanCount) await flush()
      }
      await flush()
      return out
    })

  // Concurrent `list` calls share listings: a caller arriving while one runs waits for it and then
  // joins the one next listing, which starts after every waiter's call. At most two listings per
  // store are under way however many callers ask (the spill layer lists on many concurrent puts).
  let running: Promise<BlobInfo[]> | undefined
  let queued: Promise<BlobInfo[]> | undefined
  const listing = (): Promise<BlobInfo[]> => {
    if (running === undefined) {
      running = listAll().finally(() => {
        running = undefined
      })
      return running
    }
    queued ??= running
      .catch(() => undefined)
      .then(() => {
        queued = undefined
        return listing()
      })
    return queued
  }

  return {
    name: o.name,
    // Node's own primitives, as the fs store offers them: node:zlib inflates a chunk in ~0.7 ms
    // where the portable codec pays JIT warm-up in a new replica; node:crypto hashes without a copy.
    codec: nodeZlibCodec,
    sha256Hex: nodeSha256Hex,
    async put(id: string, data: Uint8Array, meta: BlobMeta): Promise<void> {
      assertBlobId(id)
      // A copy: node-redis may write the buffer after this call returns, and the caller may reuse it.
      const bytes = Buffer.from(data)
      const m = JSON.stringify(meta)
      await h.run('put', async (c) => {
        const tx = c.bytes.multi().set(k.data(id), bytes)
        tx.eval(PUT_META, { keys: [k.meta(id)], arguments: [String(meta.createdAt), String(bytes.length), m] })
        if (ttlMs !== '') tx.pExpire(k.data(id), Number(ttlMs)).pExpire(k.meta(id), Number(ttlMs))
        await tx.exec()
      })
    },
    async get(id: string): Promise<Uint8Array | undefined> {
      assertBlobId(id)
      const b = (await h.run('get', (c) => c.bytes.get(k.data(id)))) as Buffer | null
      return b === null ? undefined : toBytes(b)
    },
    async getRange(id: string, start: number, end: number): Promise<Uint8Array | undefined> {
      assertBlobId(id)
      checkRange(start, end)
      return h.run('getRange', async (c) => {
        if (end > start) {
          const b = (await c.bytes.getRange(k.data(id), start, end - 1)) as Buffer
          if (b.length > 0) return toBytes(b)
        }
        // GETRANGE answers "" for an absent key too: tell the two apart in one atomic step.
        const [exists, b] = (await c.bytes.multi().exists(k.data(id)).getRange(k.data(id), start, Math.max(start, end - 1)).exec()) as unknown as [number, Buffer]
        if (Number(exists) === 0) return undefined
        return end > start ? toBytes(b) : new Uint8Array(0)
      })
    },
    async has(id: string): Promise<boolean> {
      assertBlobId(id)
      return (await h.run('has', (c) => c.text.exists(k.data(id)))) === 1
    },
    async delete(id: string): Promise<void> {
      assertBlobId(id)
      await h.run('delete', (c) => c.text.del([k.data(id), k.meta(id)]))
    },
    async *list(): AsyncIterable<BlobInfo> {
      for (const b of await listing()) yield { ...b }
    },
    async deleteIfIdle(id: string, lastAccessAt: number): Promise<boolean> {
      assertBlobId(id)
      return Number(await h.run('deleteIfIdle', (c) => c.text.eval(DELETE_IF_IDLE, { keys: [k.meta(id), k.data(id)], arguments: [String(lastAccessAt)] }))) === 1
    },
    async touch(id: string, at: number): Promise<boolean> {
      assertBlobId(id)
      return Number(await h.run('touch', (c) => c.text.eval(TOUCH, { keys: [k.meta(id), k.data(id)], arguments: [String(at), ttlMs] }))) === 1
    },
    async putEntry(sessionId: string, entry: SessionEntry): Promise<void> {
      assertSessionId(sessionId)
      assertBlobId(entry.id)
      const key = k.entry(sessionId, entry.id)
      const json = JSON.stringify(entry)
      await h.run('putEntry', async (c) => {
        const tx = c.text.multi()
        // A tombstone expires by itself; a live entry does not (SET without an expiry clears one).
        if (entry.goneAt !== undefined) tx.set(key, json, { expiration: { type: 'PX', value: o.tombstoneTtlSeconds * 1000 } })
        else tx.set(key, json)
        await tx.sAdd(k.session(sessionId), entry.id).exec()
      })
    },
    async getEntry(sessionId: string, id: string): Promise<SessionEntry | undefined> {
      assertSessionId(sessionId)
      assertBlobId(id)
      return parseEntry((await h.run('getEntry', (c) => c.text.get(k.entry(sessionId, id)))) as string | null, id)
    },
    async deleteEntry(sessionId: string, id: string): Promise<void> {
      assertSessionId(sessionId)
      assertBlobId(id)
      await h.run('deleteEntry', (c) => c.text.multi().del(k.entry(sessionId, id)).sRem(k.session(sessionId), id).exec())
    },
    async *listEntries(sessionId?: string): AsyncIterable<{ sessionId: string; entry: SessionEntry }> {
      if (sessionId !== undefined) assertSessionId(sessionId)
      const out: { sessionId: string; entry: SessionEntry }[] = []
      await h.run('listEntries', async (c) => {
        const sessions: string[] = []
        if (sessionId !== undefined) sessions.push(sessionId)
        else for await (const key of scan(c, k.sessionPattern)) {
          const s = k.sessionOf(key)
          if (s !== undefined) sessions.push(s)
        }
        for (const s of sessions) for (const entry of await sessionEntries(c, s)) out.push({ sessionId: s, entry })
      })
      yield* out
    },
    addUsage: (rows) => usage.addUsage(rows),
    readUsage: (range) => usage.readUsage(range),
    async cleanup(): Promise<number> {
      // Puts are atomic, so the only leftovers are halves of a blob whose two keys expired or
      // were evicted (maxmemory) one before the other.
      return h.run('cleanup', async (c) => {
        let removed = 0
        for (const [pattern, other] of [
          [k.metaPattern, k.data],
          [k.dataPattern, k.meta],
        ] as const) {
          for await (const key of scan(c, pattern)) {
            const id = k.idOf(key)
            if (id === undefined) continue
            const n = await c.text.eval("if redis.call('EXISTS', KEYS[2]) == 0 then return redis.call('DEL', KEYS[1]) end return 0", { keys: [key, other(id)], arguments: [] })
            removed += Number(n)
          }
        }
        return removed
      })
    },
    async dispose(): Promise<void> {
      await h.close()
    },
  }
}
