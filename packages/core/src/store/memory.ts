import { assertBlobId, assertSessionId } from './ids.js'
import type { BlobInfo, BlobMeta, SessionEntry, StorageAdapter, UsageRange, UsageRow } from './types.js'
import { addRows, assertUsageRange, assertUsageRows, totalsToRows, type UsageTotals } from './usage.js'

/** Options of {@link memoryStore}. */
export interface MemoryStoreOptions {
  /** Name reported by the store. @default 'memory' */
  name?: string
}

interface Slot {
  data: Uint8Array
  meta: BlobMeta
  lastAccessAt: number
}

/**
 * A store that keeps everything in this process's memory: for tests, browsers, edge workers and
 * short-lived agents. Implements every optional capability, so several spillways sharing one
 * memory store share their session index.
 *
 * @example
 * ```ts
 * const sw = createSpillway({ store: memoryStore(), maxChars: 8000 })
 * ```
 */
export function memoryStore(options: MemoryStoreOptions = {}): StorageAdapter {
  const blobs = new Map<string, Slot>()
  const sessions = new Map<string, Map<string, SessionEntry>>()
  const usage: UsageTotals = new Map()
  return {
    name: options.name ?? 'memory',
    async put(id: string, data: Uint8Array, meta: BlobMeta): Promise<void> {
      assertBlobId(id)
      // Copy: the caller may reuse its buffer, and a reader must never see it change.
      // A re-put (the compressed form replacing the raw one) keeps the reads made in between.
      blobs.set(id, { data: data.slice(), meta: { ...meta }, lastAccessAt: Math.max(blobs.get(id)?.lastAccessAt ?? 0, meta.createdAt) })
    },
    async get(id: string): Promise<Uint8Array | undefined> {
      assertBlobId(id)
      return blobs.get(id)?.data.slice()
    },
    async getRange(id: string, start: number, end: number): Promise<Uint8Array | undefined> {
      assertBlobId(id)
      return blobs.get(id)?.data.slice(Math.max(0, start), Math.max(0, end))
    },
    async has(id: string): Promise<boolean> {
      assertBlobId(id)
      return blobs.has(id)
    },
    async delete(id: string): Promise<void> {
      assertBlobId(id)
      blobs.delete(id)
    },
    async *list(): AsyncIterable<BlobInfo> {
      for (const [id, s] of [...blobs]) yield { id, bytes: s.data.length, createdAt: s.meta.createdAt, lastAccessAt: s.lastAccessAt }
    },
    async deleteIfIdle(id: string, lastAccessAt: number): Promise<boolean> {
      assertBlobId(id)
      const slot = blobs.get(id)
      if (slot !== undefined && slot.lastAccessAt > lastAccessAt) return false
      blobs.delete(id)
      return true
    },
    async touch(id: string, at: number): Promise<boolean> {
      assertBlobId(id)
      const slot = blobs.get(id)
      if (slot !== undefined) slot.lastAccessAt = Math.max(slot.lastAccessAt + 1, at)
      return slot !== undefined
    },
    async putEntry(sessionId: string, entry: SessionEntry): Promise<void> {
      assertSessionId(sessionId)
      assertBlobId(entry.id)
      let m = sessions.get(sessionId)
      if (m === undefined) sessions.set(sessionId, (m = new Map()))
      m.set(entry.id, { ...entry })
    },
    async getEntry(sessionId: string, id: string): Promise<SessionEntry | undefined> {
      assertSessionId(sessionId)
      assertBlobId(id)
      const e = sessions.get(sessionId)?.get(id)
      return e === undefined ? undefined : { ...e }
    },
    async deleteEntry(sessionId: string, id: string): Promise<void> {
      assertSessionId(sessionId)
      assertBlobId(id)
      const m = sessions.get(sessionId)
      m?.delete(id)
      if (m?.size === 0) sessions.delete(sessionId)
    },
    async *listEntries(sessionId?: string): AsyncIterable<{ sessionId: string; entry: SessionEntry }> {
      if (sessionId !== undefined) assertSessionId(sessionId)
      const picked = sessionId === undefined ? [...sessions] : sessions.has(sessionId) ? [[sessionId, sessions.get(sessionId)!] as const] : []
      for (const [s, m] of picked) for (const e of [...m.values()]) yield { sessionId: s, entry: { ...e } }
    },
    async addUsage(rows: readonly UsageRow[]): Promise<void> {
      assertUsageRows(rows)
      addRows(usage, rows)
    },
    async readUsage(range?: UsageRange): Promise<UsageRow[]> {
      assertUsageRange(range)
      return totalsToRows(usage, range)
    },
    async dispose(): Promise<void> {
      blobs.clear()
      usage.clear()
      sessions.clear()
    },
  }
}
