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
 * Usage counters of one tool on one day: counter name -> a non-negative integer. Names match
 * {@link USAGE_COUNTER_PATTERN} (e.g. `seen`, `chars.kept`, `fetch.grep`); stores treat them as
 * opaque and only ever add them up.
 */
export type UsageCounts = Record<string, number>

/** One (UTC day, tool) row of usage counters, as stores add and read them. */
export interface UsageRow {
  /** UTC day, `YYYY-MM-DD`. */
  day: string
  /** Tool name (1-256 chars). */
  tool: string
  counts: UsageCounts
}

/** Days to read with {@link StorageAdapter.readUsage}, both inclusive (`YYYY-MM-DD`); unset: unbounded. */
export interface UsageRange {
  from?: string
  to?: string
}

/**
 * A raw-deflate (RFC 1951) codec a store may offer the spill layer (see `StorageAdapter.codec`).
 * Every codec reads and writes plain raw deflate, so a blob written with one reads with any other.
 */
export interface ChunkCodec {
  readonly name: string
  /** Compresses one chunk (may run off the main thread). */
  deflate(bytes: Uint8Array): Promise<Uint8Array> | Uint8Array
  /**
   * Inflates one chunk of `size` bytes once inflated; throws when it does not inflate or would
   * exceed `size`. May write into `out` (a reused buffer) when it is given and large enough.
   */
  inflate(bytes: Uint8Array, size: number, out?: Uint8Array): Promise<Uint8Array> | Uint8Array
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
  /**
   * Capability: mark `id` as read at `at` (ms) for LRU eviction. The access time becomes
   * `max(at, previous + 1)`: always later than any a listing gave, so `deleteIfIdle` keeps a blob
   * touched after the listing even when the toucher's clock is behind. Resolves `true` when the
   * blob exists and `false` when it does not (a store may resolve nothing; then `has` decides).
   */
  touch?(id: string, at: number): Promise<boolean | void>
  /**
   * Capability: removes `id` only if it was not put or touched after `lastAccessAt` (the value a
   * listing gave); true when removed (or already absent). Eviction and sweeps decide on a listing
   * taken earlier: without it, a blob another process (or another call) has just handed out as a
   * duplicate could be removed under it.
   */
  deleteIfIdle?(id: string, lastAccessAt: number): Promise<boolean>
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
  /**
   * Capability (usage counters): adds `rows` to the persisted counters. Atomic per call where the
   * backend allows it, and additive across processes: two writers adding concurrently never lose
   * each other's counts. Rows are checked with `assertUsageRows` (`invalid_argument`).
   */
  addUsage?(rows: readonly UsageRow[]): Promise<void>
  /** Capability (usage counters): the sums over every writer, one row per (day, tool), sorted by day then tool. */
  readUsage?(range?: UsageRange): Promise<UsageRow[]>
  /** Capability: a native raw-deflate codec for chunks (the fs store offers node:zlib's); else the spill layer uses a portable one. */
  readonly codec?: ChunkCodec
  /**
   * Capability: SHA-256 of `bytes` as 64 lower-case hex, without copying them (the fs store offers
   * node:crypto's). Else the spill layer uses WebCrypto, whose digest copies its input: a 10 MB
   * result then costs another 10 MB at peak. Must equal SHA-256: ids are prefixes of it.
   */
  sha256Hex?(bytes: Uint8Array): Promise<string> | string
}
