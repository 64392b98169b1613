import { assertBlobId, assertSessionId } from './ids.js'
import type { BlobInfo, BlobMeta, SessionEntry, StorageAdapter, UsageRange, UsageRow } from './types.js'
import { USAGE_DAY_PATTERN, assertUsageRange, decodeUsageDay, inUsageRange, sumUsageRows, usageWriter, writerId } from './usage.js'

/**
 * The part of an unstorage `Storage` (unstorage 1.x `createStorage()`) that {@link unstorageStore}
 * uses. Structural, so core does not depend on unstorage.
 */
export interface UnstorageLike {
  getItem(key: string): Promise<unknown>
  setItem(key: string, value: unknown): Promise<void>
  getItemRaw(key: string): Promise<unknown>
  setItemRaw(key: string, value: unknown): Promise<void>
  hasItem(key: string): Promise<boolean>
  removeItem(key: string): Promise<void>
  getKeys(base?: string): Promise<string[]>
}

/** Options of {@link unstorageStore}. */
export interface UnstorageStoreOptions {
  /** Key base, joined to the rest by `:`. @default 'spillway' */
  base?: string
  /** Name reported by the store. @default 'unstorage' */
  name?: string
  /** `cleanup` removes a blob's metadata left without its bytes once older than this, in ms (a put in progress writes the metadata first). @default 900000 (15 min) */
  staleWriteMs?: number
}

/** Defaults of {@link UnstorageStoreOptions}. */
export const DEFAULT_UNSTORAGE_STORE_OPTIONS = { base: 'spillway', name: 'unstorage', staleWriteMs: 15 * 60_000 } as const

interface StoredMeta {
  /** createdAt */
  c: number
  /** lastAccessAt */
  a: number
  /** stored bytes */
  n: number
  /** written at (wall clock), for `cleanup` */
  w: number
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'))
/**
 * Hex of the UTF-8 bytes, in `:`-joined segments of at most 128 chars: any session name becomes
 * key segments no driver rewrites, each short enough to be a file name (fs driver).
 */
const hex = (s: string): string => (Array.from(new TextEncoder().encode(s), (b) => HEX[b]).join('').match(/.{1,128}/g) ?? []).join(':')
const unhex = (h: string): string => new TextDecoder('utf-8', { ignoreBOM: true }).decode(Uint8Array.from(h.replace(/:/g, '').match(/../g) ?? [], (x) => parseInt(x, 16)))
const last = (key: string): string => key.slice(key.lastIndexOf(':') + 1)

function bytesOf(raw: unknown): Uint8Array | undefined {
  if (raw === null || raw === undefined) return undefined
  if (raw instanceof Uint8Array) return raw.slice()
  if (raw instanceof ArrayBuffer) return new Uint8Array(raw.slice(0))
  if (typeof raw === 'string') return new TextEncoder().encode(raw) // a driver without raw support
  return undefined
}

function metaOf(raw: unknown): StoredMeta | undefined {
  const m = typeof raw === 'string' ? safeJson(raw) : raw
  return typeof m === 'object' && m !== null && typeof (m as StoredMeta).c === 'number' ? (m as StoredMeta) : undefined
}

function safeJson(s: string): unknown {
  try {
    return JSON.parse(s)
  } catch {
    return undefined
  }
}

/**
 * A {@link StorageAdapter} over an unstorage `Storage`, so its drivers (S3, R2, Vercel KV,
 * Cloudflare KV, Azure, MongoDB, fs, memory...) can hold spilled results. Implements touch, the
 * session index and cleanup; not `getRange` (unstorage reads whole values). Atomicity and
 * cross-process safety are the driver's: a driver whose writes are atomic (most KV services)
 * gives atomic puts. The storage's lifecycle stays the caller's (`dispose` leaves it open).
 *
 * @example
 * ```ts
 * import { createStorage } from 'unstorage'
 * import fsDriver from 'unstorage/drivers/fs'
 * const store = unstorageStore(createStorage({ driver: fsDriver({ base: './.spill' }) }))
 * ```
 */
export function unstorageStore(storage: UnstorageLike, options: UnstorageStoreOptions = {}): StorageAdapter {
  const o = { ...DEFAULT_UNSTORAGE_STORE_OPTIONS, ...options }
  // unstorage's key normalization, so that keys from getKeys can be parsed back.
  const b = o.base.replace(/[/\\]/g, ':').replace(/:+/g, ':').replace(/^:|:$/g, '')
  const dataKey = (id: string): string => `${b}:blob:${id}`
  const metaKey = (id: string): string => `${b}:meta:${id}`
  const entryBase = (sessionId: string): string => `${b}:entry:${hex(sessionId)}`
  const ids = async (base: string): Promise<string[]> => [...new Set((await storage.getKeys(base)).map(last))].filter((id) => /^[0-9a-f]{12,64}$/.test(id))

  // Usage: one value per (writer, day) at `<base>:usage:<day>:<writer>`, rewritten whole by its writer only.
  const usage = usageWriter()
  const me = writerId()
  let usageQueue: Promise<void> = Promise.resolve()

  const readEntry = async (sessionId: string, id: string): Promise<SessionEntry | undefined> => {
    const e = await storage.getItem(`${entryBase(sessionId)}:${id}`)
    const v = typeof e === 'string' ? safeJson(e) : e
    return typeof v === 'object' && v !== null && (v as SessionEntry).id === id ? { ...(v as SessionEntry) } : undefined
  }

  return {
    name: o.name,
    async put(id: string, data: Uint8Array, meta: BlobMeta): Promise<void> {
      assertBlobId(id)
      const old = metaOf(await storage.getItem(metaKey(id)))
      const m: StoredMeta = { c: old?.c ?? meta.createdAt, a: Math.max(old?.a ?? 0, meta.createdAt), n: data.length, w: Date.now() }
      // Metadata first: `list` may show a blob a moment before `get` does, never bytes nobody lists.
      await storage.setItem(metaKey(id), m)
      await storage.setItemRaw(dataKey(id), data.slice())
    },
    async get(id: string): Promise<Uint8Array | undefined> {
      assertBlobId(id)
      return bytesOf(await storage.getItemRaw(dataKey(id)))
    },
    async has(id: string): Promise<boolean> {
      assertBlobId(id)
      return storage.hasItem(dataKey(id))
    },
    async delete(id: string): Promise<void> {
      assertBlobId(id)
      await storage.removeItem(dataKey(id))
      await storage.removeItem(metaKey(id))
    },
    async *list(): AsyncIterable<BlobInfo> {
      for (const id of await ids(`${b}:meta`)) {
        const m = metaOf(await storage.getItem(metaKey(id)))
        if (m !== undefined) yield { id, bytes: m.n, createdAt: m.c, lastAccessAt: m.a }
      }
    },
    async deleteIfIdle(id: string, lastAccessAt: number): Promise<boolean> {
      assertBlobId(id)
      const m = metaOf(await storage.getItem(metaKey(id)))
      if (m !== undefined && m.a > lastAccessAt) return false
      await storage.removeItem(dataKey(id))
      await storage.removeItem(metaKey(id))
      return true
    },
    async touch(id: string, at: number): Promise<boolean> {
      assertBlobId(id)
      const m = metaOf(await storage.getItem(metaKey(id)))
      if (m === undefined) return false
      await storage.setItem(metaKey(id), { ...m, a: Math.max(m.a + 1, at) })
      return true
    },
    async putEntry(sessionId: string, entry: SessionEntry): Promise<void> {
      assertSessionId(sessionId)
      assertBlobId(entry.id)
      await storage.setItem(`${entryBase(sessionId)}:${entry.id}`, { ...entry })
    },
    async getEntry(sessionId: string, id: string): Promise<SessionEntry | undefined> {
      assertSessionId(sessionId)
      assertBlobId(id)
      return readEntry(sessionId, id)
    },
    async deleteEntry(sessionId: string, id: string): Promise<void> {
      assertSessionId(sessionId)
      assertBlobId(id)
      await storage.removeItem(`${entryBase(sessionId)}:${id}`)
    },
    async *listEntries(sessionId?: string): AsyncIterable<{ sessionId: string; entry: SessionEntry }> {
      if (sessionId !== undefined) assertSessionId(sessionId)
      const keys = await storage.getKeys(sessionId === undefined ? `${b}:entry` : entryBase(sessionId))
      for (const key of keys) {
        if (!key.startsWith(`${b}:entry:`)) continue
        const parts = key.slice(b.length + 7).split(':')
        const id = parts.pop() ?? ''
        if (parts.length === 0 || !parts.every((x) => /^[0-9a-f]+$/.test(x)) || !/^[0-9a-f]{12,64}$/.test(id)) continue
        const sid = unhex(parts.join(''))
        if (sessionId !== undefined && sid !== sessionId) continue
        const entry = await readEntry(sid, id)
        if (entry !== undefined) yield { sessionId: sid, entry }
      }
    },
    addUsage(rows: readonly UsageRow[]): Promise<void> {
      const run = usageQueue.then(async () => {
        const staged = usage.stage(rows)
        for (const [day, json] of staged.days) await storage.setItem(`${b}:usage:${day}:${me}`, json)
        staged.commit()
      })
      usageQueue = run.catch(() => undefined)
      return run
    },
    async readUsage(range?: UsageRange): Promise<UsageRow[]> {
      assertUsageRange(range)
      const rows: UsageRow[] = []
      for (const key of await storage.getKeys(`${b}:usage`)) {
        const [day, writer, ...rest] = key.startsWith(`${b}:usage:`) ? key.slice(b.length + 7).split(':') : []
        if (day === undefined || writer === undefined || rest.length > 0 || !USAGE_DAY_PATTERN.test(day) || !inUsageRange(day, range)) continue
        const got = decodeUsageDay(await storage.getItem(key))
        if (got !== undefined) rows.push(...got.filter((r) => r.day === day))
      }
      return sumUsageRows(rows, range)
    },
    async cleanup(): Promise<number> {
      let removed = 0
      const now = Date.now()
      for (const id of await ids(`${b}:meta`)) {
        const m = metaOf(await storage.getItem(metaKey(id)))
        if (m !== undefined && now - m.w > o.staleWriteMs && !(await storage.hasItem(dataKey(id)))) {
          await storage.removeItem(metaKey(id))
          removed++
        }
      }
      return removed
    },
  }
}
