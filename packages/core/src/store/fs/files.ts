import { chmod, mkdir, open, stat } from 'node:fs/promises'
import { dirname } from 'node:path'
import { SpillwayError } from '../../errors.js'

const isCode = (err: unknown, code: string): boolean => (err as NodeJS.ErrnoException)?.code === code

/** Writes `parts` one after the other into a new file (mode 0600), without joining them. */
export async function writeParts(path: string, parts: readonly Uint8Array[]): Promise<void> {
  const fh = await open(path, 'wx', 0o600)
  try {
    let at = 0
    for (const p of parts) {
      for (let done = 0; done < p.length; ) {
        const { bytesWritten } = await fh.write(p, done, p.length - done, at)
        done += bytesWritten
        at += bytesWritten
      }
    }
  } finally {
    await fh.close()
  }
}

export const damagedFile = (id: string): SpillwayError => new SpillwayError('integrity', `blob ${id} is damaged: its file is not whole`)

/**
 * Creates `path` and any missing parent (mode 0700) one level at a time: Node's recursive `mkdir`
 * spins forever on some virtual file systems (`/proc/x`); this fails with a clear error instead.
 * Existing folders are left as they are (never chmodded).
 */
export async function makeDir(path: string): Promise<void> {
  try {
    if ((await stat(path)).isDirectory()) return
    throw new SpillwayError('store', `the store path ${path} exists but is not a folder`)
  } catch (err) {
    if (SpillwayError.is(err)) throw err
    if (!isCode(err, 'ENOENT')) throw new SpillwayError('store', `cannot use the store folder ${path}: ${(err as Error).message}`, { cause: err })
  }
  const parent = dirname(path)
  if (parent !== path) await makeDir(parent)
  try {
    await mkdir(path, { mode: 0o700 })
    await chmod(path, 0o700) // mkdir's mode is masked by the umask; this folder is ours
  } catch (err) {
    if (isCode(err, 'EEXIST')) return
    throw new SpillwayError('store', `could not create the store folder ${path}: ${(err as Error).message}`, { cause: err })
  }
}

/** Refuses a store folder other users may write to (they could plant or swap blobs). */
export async function assertPrivate(dir: string): Promise<void> {
  if (process.platform === 'win32') return
  const mode = (await stat(dir)).mode & 0o777
  if ((mode & 0o022) !== 0) {
    throw new SpillwayError('store', `the store folder ${dir} is writable by other users (mode ${mode.toString(8).padStart(4, '0')}); use a private folder (chmod 700 ${dir}, or another dir)`)
  }
}

