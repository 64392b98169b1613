import type { ContentKind } from '../trim/types.js'

/** What the spill layer knows about a blob when it stores it. */
export interface BlobMeta {
  /** Full SHA-256 (64 lower-case hex) of the UTF-8 text; the id is a prefix of it. */
  sha256: string
  /** Tool that produced the text. */
  tool: string
  kind: ContentKind
  /** Length of the text in UTF-16 code units. */
  chars: number
  lines: number
  /** Milliseconds since the epoch (the spillway clock). */
  createdAt: number
}

/** One stored blob as {@link StorageAdapter.list} reports it. */
export interface BlobInfo {
  id: string
  /** Stored size in bytes (after compression). */
  bytes: number
  createdAt: number
  /** Last `put`, or last `touch` when the store supports it; drives LRU eviction. */
  lastAccessAt: number
}

/**
 * A session's right to read one blob, kept by the store when it supports the session-index
 * capability. When the blob is gone (swept, evicted) the entry remains as a tombstone.
 */
export interface SessionEntry {
  id: string
  tool: string
  kind: ContentKind
  chars: number
  lines: number
  createdAt: number
  /** Set when the blob was found gone; the tombstone itself expires after `tombstoneTtlHours`. */
  goneAt?: number
}

/**
 * A pluggable blob store (factory functions return plain objects, unstorage style). Only the
 * first six members are required; the rest are optional capabilities the spill layer uses when
 * present (else it keeps the session index in memory, per process).
 *
 * Ids match {@link BLOB_ID_PATTERN}; a store must reject anything else with a
 * `SpillwayError` of code `invalid_id`.
 */
export interface StorageAdapter {
  readonly name: string
  /** Stores `data` under `id`. Idempotent and atomic: a reader sees all of it or nothing. */
  put(id: string, data: Uint8Array, meta: BlobMeta): Promise<void>
  /** The bytes stored under `id`, or `undefined` when absent. */
  get(id: string): Promise<Uint8Array | undefined>
  has(id: string): Promise<boolean>
  /**
   * Capability: bytes `[start, end)` of what is stored under `id` (fewer when `end` passes the
   * end; empty when `start` does), or `undefined` when absent. Lets the spill layer read a blob's
   * manifest and only the chunks a fetch spans. Same atomicity as `get`: the bytes of one put.
   */
  getRange?(id: string, start: number, end: number): Promise<Uint8Array | undefined>
  /** Removes `id`; removing an absent id is not an error. */
  delete(id: string): Promise<void>
  list(): AsyncIterable<BlobInfo>
  dispose?(): Promise<void>
  /** Capability: mark `id` as read at `at` (ms) for LRU eviction. */
  touch?(id: string, at: number): Promise<void>
  /** Capability (session index): record or replace `entry` for `sessionId`. */
  putEntry?(sessionId: string, entry: SessionEntry): Promise<void>
  /** Capability (session index): the entry of `id` in `sessionId`, if any. */
  getEntry?(sessionId: string, id: string): Promise<SessionEntry | undefined>
  /** Capability (session index): removes one entry; absent is not an error. */
  deleteEntry?(sessionId: string, id: string): Promise<void>
  /** Capability (session index): entries of one session, or of all sessions. */
  listEntries?(sessionId?: string): AsyncIterable<{ sessionId: string; entry: SessionEntry }>
  /** Capability: removes leftovers of crashed writers; returns how many were removed. */
  cleanup?(): Promise<number>
}
