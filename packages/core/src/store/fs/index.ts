import { randomBytes } from 'node:crypto'
import { open, readFile, readdir, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { SpillwayError } from '../../errors.js'
import { assertSessionId, isBlobId } from '../ids.js'
import type { BlobInfo, BlobMeta, SessionEntry, StorageAdapter } from '../types.js'
import { blobFileParts, decodeBlobFile, headerLength, parseHeader } from './format.js'
import { assertPrivate, damagedFile, makeDir, writeParts } from './files.js'
import { FOLDERS, blobPath, entryPath, sessionFolder } from './layout.js'
import { nodeSha256Hex, nodeZlibCodec } from './codec.js'
import { fsUsage } from './usage.js'

export { nodeSha256Hex, nodeZlibCodec } from './codec.js'

/** Options of {@link fsStore}. */
export interface FsStoreOptions {
  /**
   * Store folder; created (mode 0700, as are its sub-folders) when missing. An existing folder is
   * used as it is (never chmodded), but refused when other users may write to it (group/world
   * writable). Several processes may share it.
   */
  dir: string
  /** A temp file of a live process older than this is removed by `cleanup`, in ms. @default 3600000 (1 h) */
  staleTempMs?: number
}

/** Defaults of {@link FsStoreOptions}. */
export const DEFAULT_FS_STORE_OPTIONS = Object.freeze({ staleTempMs: 3_600_000 })

const isCode = (err: unknown, code: string): boolean => (err as NodeJS.ErrnoException)?.code === code

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return isCode(err, 'EPERM') // exists, owned by someone else
  }
}

/**
 * A store in a folder, safe for several processes sharing it:
 * - every write goes to a temp file (mode 0600) then `rename`s into place, so a reader sees a
 *   whole file or none, even when the writer is killed mid-write;
 * - folders are created with mode 0700;
 * - the session index is one small file per (session, blob) pair, so concurrent writers never
 *   read-modify-write a shared index and no entry can be lost;
 * - blob ids and session names are validated (`invalid_id`), so no path can be smuggled in;
 * - `cleanup()` (run once on first use and by `sweep`) removes temp files of dead writers.
 *
 * @example
 * ```ts
 * import { fsStore } from '@spillway/core/fs'
 * const sw = createSpillway({ store: fsStore({ dir: '/home/me/.cache/spillway' }) })
 * ```
 */
export function fsStore(options: FsStoreOptions): StorageAdapter {
  if (typeof options?.dir !== 'string' || options.dir === '') throw new SpillwayError('invalid_argument', 'fsStore needs { dir } (a folder path)')
  const dir = options.dir
  const staleTempMs = options.staleTempMs ?? DEFAULT_FS_STORE_OPTIONS.staleTempMs
  const tmpDir = join(dir, FOLDERS.tmp)
  const made = new Set<string>()
  let seq = 0
  let ready: Promise<void> | undefined
  let removedAtInit = 0

  const ensureDir = async (path: string): Promise<void> => {
    if (made.has(path)) return
    await makeDir(path)
    made.add(path)
  }

  const cleanup = async (): Promise<number> => {
    let removed = 0
    let names: string[]
    try {
      names = await readdir(tmpDir)
    } catch {
      return 0
    }
    const now = Date.now()
    for (const name of names) {
      const pid = Number(name.split('-')[0])
      const path = join(tmpDir, name)
      try {
        const dead = !Number.isInteger(pid) || (pid !== process.pid && !pidAlive(pid))
        if (!dead && now - (await stat(path)).mtimeMs < staleTempMs) continue
        await unlink(path)
        removed++
      } catch {
        // gone already, or removed by another process
      }
    }
    return removed
  }

  // A failed first use is not cached: the next call tries again (the folder may be back).
  const init = (): Promise<void> =>
    (ready ??= (async () => {
      await ensureDir(dir)
      await assertPrivate(dir)
      for (const f of Object.values(FOLDERS)) await ensureDir(join(dir, f))
      removedAtInit = await cleanup()
    })().catch((err: unknown) => {
      ready = undefined
      made.clear()
      throw err
    }))

  const writeOnce = async (path: string, data: Uint8Array | readonly Uint8Array[], folder: string): Promise<void> => {
    await init()
    await ensureDir(folder)
    const tmp = join(tmpDir, `${process.pid}-${++seq}-${randomBytes(6).toString('hex')}.tmp`)
    try {
      if (data instanceof Uint8Array) await writeFile(tmp, data, { mode: 0o600, flag: 'wx' })
      else await writeParts(tmp, data) // no joined copy of a large blob
      await rename(tmp, path)
    } catch (err) {
      await unlink(tmp).catch(() => undefined)
      throw err
    }
  }

  /** Writes `data` to `path` atomically; when a folder vanished (ENOENT), re-creates the folders and tries once more. */
  const writeAtomic = async (path: string, data: Uint8Array | readonly Uint8Array[], folder: string): Promise<void> => {
    try {
      await writeOnce(path, data, folder)
    } catch (err) {
      if (SpillwayError.is(err)) throw err
      if (isCode(err, 'ENOENT')) {
        made.clear()
        ready = undefined
        try {
          await writeOnce(path, data, folder)
          return
        } catch (again) {
          if (SpillwayError.is(again)) throw again
          err = again
        }
      }
      throw new SpillwayError('store', `could not write ${path}: ${(err as Error).message}`, { cause: err })
    }
  }

  const readOrUndefined = async (path: string): Promise<Uint8Array | undefined> => {
    try {
      return await readFile(path)
    } catch (err) {
      if (isCode(err, 'ENOENT')) return undefined
      throw new SpillwayError('store', `could not read ${path}: ${(err as Error).message}`, { cause: err })
    }
  }

  const readHeader = async (path: string): Promise<{ createdAt: number | undefined; bytes: number; mtimeMs: number } | undefined> => {
    const fh = await open(path, 'r').catch(() => undefined)
    if (fh === undefined) return undefined
    try {
      const st = await fh.stat()
      const first = new Uint8Array(8)
      await fh.read(first, 0, 8, 0)
      const n = headerLength(first)
      const buf = new Uint8Array(n ?? 0)
      if (n !== undefined) await fh.read(buf, 0, n, 8)
      const h = n === undefined ? undefined : parseHeader(buf)
      const createdAt = typeof h?.meta.createdAt === 'number' ? h.meta.createdAt : undefined
      return { createdAt, bytes: st.size, mtimeMs: st.mtimeMs }
    } finally {
      await fh.close()
    }
  }

  /** A blob file's access time as `list` gives it: its mtime (moved by `touch`), never before its creation. */
  const accessedAt = (h: { createdAt: number | undefined; mtimeMs: number }): number => Math.max(h.createdAt ?? 0, h.mtimeMs)

  const usage = fsUsage(dir, async (path, data, folder) => writeAtomic(path, data, folder))

  const removeBlob = async (id: string): Promise<void> => {
    await unlink(blobPath(dir, id)).catch((err: unknown) => {
      if (!isCode(err, 'ENOENT')) throw new SpillwayError('store', `could not delete blob ${id}`, { cause: err })
    })
  }
  return {
    name: `fs:${dir}`,
    codec: nodeZlibCodec,
    sha256Hex: nodeSha256Hex,
    async put(id: string, data: Uint8Array, meta: BlobMeta): Promise<void> {
      const path = blobPath(dir, id)
      // A re-put (the compressed form replacing the raw one) keeps the reads made in between,
      // also those made while it writes: the old file stays open, so its access time is read
      // after the rename (a touch meanwhile went to the old file).
      const old = await open(path, 'r').catch(() => undefined)
      try {
        await writeAtomic(path, blobFileParts(data, meta), join(dir, FOLDERS.blobs))
        const before = old === undefined ? 0 : await old.stat().then((s) => s.mtimeMs, () => 0)
        const at = Math.max(before, meta.createdAt) / 1000
        await utimes(path, at, at).catch(() => undefined)
      } finally {
        await old?.close()
      }
    },
    async get(id: string): Promise<Uint8Array | undefined> {
      const file = await readOrUndefined(blobPath(dir, id))
      if (file === undefined) return undefined
      const whole = decodeBlobFile(file)
      // A file that is not whole (truncated, emptied, overwritten) is damaged, not absent.
      if (whole === undefined) throw damagedFile(id)
      return whole.data
    },
    async getRange(id: string, start: number, end: number): Promise<Uint8Array | undefined> {
      const fh = await open(blobPath(dir, id), 'r').catch((err: unknown) => {
        if (isCode(err, 'ENOENT')) return undefined
        throw new SpillwayError('store', `could not read blob ${id}: ${(err as Error).message}`, { cause: err })
      })
      if (fh === undefined) return undefined
      try {
        // One open file: a concurrent rename replaces the name, not what this handle reads.
        const size = (await fh.stat()).size
        const first = new Uint8Array(8)
        await fh.read(first, 0, 8, 0)
        const n = headerLength(first)
        if (n === undefined || size < 8 + n) throw damagedFile(id)
        const hbuf = new Uint8Array(n)
        await fh.read(hbuf, 0, n, 8)
        const header = parseHeader(hbuf)
        if (header === undefined || size !== 8 + n + header.bytes) throw damagedFile(id)
        const from = Math.min(Math.max(0, start), header.bytes)
        const to = Math.min(Math.max(from, end), header.bytes)
        const out = new Uint8Array(to - from)
        let got = 0
        while (got < out.length) {
          const { bytesRead } = await fh.read(out, got, out.length - got, 8 + n + from + got)
          if (bytesRead === 0) throw damagedFile(id)
          got += bytesRead
        }
        return out
      } finally {
        await fh.close()
      }
    },
    async has(id: string): Promise<boolean> {
      try {
        await stat(blobPath(dir, id))
        return true
      } catch (err) {
        if (SpillwayError.is(err)) throw err
        return false
      }
    },
    delete: removeBlob,
    async *list(): AsyncIterable<BlobInfo> {
      const names = await readdir(join(dir, FOLDERS.blobs)).catch(() => [] as string[])
      for (const id of names) {
        if (!isBlobId(id)) continue
        const h = await readHeader(join(dir, FOLDERS.blobs, id))
        // A damaged file is listed too (size and time from the file), so sweeps and the cap remove it.
        if (h !== undefined) yield { id, bytes: h.bytes, createdAt: h.createdAt ?? h.mtimeMs, lastAccessAt: accessedAt(h) }
      }
    },
    async deleteIfIdle(id: string, lastAccessAt: number): Promise<boolean> {
      // The file's access time (as `list` computes it) against the listing's: a touch or re-put
      // since moves it forward. A touch landing between this stat and the unlink is not seen
      // (POSIX has no conditional unlink); the window is one syscall wide.
      const h = await readHeader(blobPath(dir, id))
      if (h !== undefined && accessedAt(h) > lastAccessAt) return false
      await removeBlob(id)
      return true
    },
    async touch(id: string, at: number): Promise<boolean> {
      const path = blobPath(dir, id)
      const h = await readHeader(path)
      if (h === undefined) return false
      // Strictly later than the time `list` gave (see `StorageAdapter.touch`).
      const s = Math.max(at, accessedAt(h) + 1) / 1000
      return utimes(path, s, s).then(
        () => true,
        () => false,
      )
    },
    async putEntry(sessionId: string, entry: SessionEntry): Promise<void> {
      const path = entryPath(dir, sessionId, entry.id)
      await writeAtomic(path, new TextEncoder().encode(JSON.stringify({ sessionId, entry })), join(dir, FOLDERS.sessions, sessionFolder(sessionId)))
    },
    async getEntry(sessionId: string, id: string): Promise<SessionEntry | undefined> {
      const file = await readOrUndefined(entryPath(dir, sessionId, id))
      const rec = file === undefined ? undefined : parseEntry(file)
      return rec !== undefined && rec.sessionId === sessionId && rec.entry.id === id ? rec.entry : undefined
    },
    async deleteEntry(sessionId: string, id: string): Promise<void> {
      await unlink(entryPath(dir, sessionId, id)).catch(() => undefined)
    },
    async *listEntries(sessionId?: string): AsyncIterable<{ sessionId: string; entry: SessionEntry }> {
      if (sessionId !== undefined) assertSessionId(sessionId)
      const root = join(dir, FOLDERS.sessions)
      const folders = sessionId === undefined ? await readdir(root).catch(() => [] as string[]) : [sessionFolder(sessionId)]
      for (const folder of folders) {
        const ids = await readdir(join(root, folder)).catch(() => [] as string[])
        for (const id of ids) {
          if (!isBlobId(id)) continue
          const file = await readOrUndefined(join(root, folder, id)).catch(() => undefined)
          const rec = file === undefined ? undefined : parseEntry(file)
          if (rec === undefined || rec.entry.id !== id || (sessionId !== undefined && rec.sessionId !== sessionId)) continue
          yield rec
        }
      }
    },
    addUsage: (rows) => usage.addUsage(rows),
    readUsage: (range) => usage.readUsage(range),
    cleanup: async () => {
      await init()
      await usage.expire(Date.now())
      const early = removedAtInit
      removedAtInit = 0
      return early + (await cleanup())
    },
    async dispose(): Promise<void> {
      made.clear()
    },
  }
}

function parseEntry(file: Uint8Array): { sessionId: string; entry: SessionEntry } | undefined {
  try {
    const rec = JSON.parse(new TextDecoder().decode(file)) as { sessionId: string; entry: SessionEntry }
    return typeof rec?.sessionId === 'string' && typeof rec.entry?.id === 'string' && typeof rec.entry.tool === 'string' ? rec : undefined
  } catch {
    return undefined
  }
}
