import { open, readFile, readdir, rm, stat, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import type { UsageRange, UsageRow } from '../types.js'
import { USAGE_DAY_PATTERN, USAGE_KEEP_DAYS, assertUsageRange, decodeUsageDay, encodeUsageDay, inUsageRange, sumUsageRows, usageWriter, utcDay, writerId } from '../usage.js'
import { FOLDERS, usagePath } from './layout.js'

/** How the fs store writes a file: temp file (0600) + rename, folders created 0700. */
type WriteAtomic = (path: string, data: Uint8Array, folder: string) => Promise<void>

/** A past day holding more writer files than this is merged into one by `cleanup` (each CLI run is a writer). */
export const USAGE_MERGE_MIN_FILES = 8
/** A merge lock older than this was left by a crashed merge: removed, and the day merged at the next cleanup. */
const STALE_MERGE_LOCK_MS = 10 * 60_000
const MERGE_LOCK = '.merge.lock'

/** One usage file's rows and, for a merged file, the names of the files it replaces. */
function readDayFile(bytes: Uint8Array, day: string): { rows: UsageRow[]; merged: string[] } | undefined {
  let value: unknown
  try {
    value = JSON.parse(new TextDecoder().decode(bytes))
  } catch {
    return undefined
  }
  const rows = decodeUsageDay(value)
  if (rows === undefined) return undefined
  const m = (value as { merged?: unknown }).merged
  return { rows: rows.filter((r) => r.day === day), merged: Array.isArray(m) ? m.filter((x): x is string => typeof x === 'string') : [] }
}

/**
 * Usage counters in an fs store folder: one file per (writer, UTC day) under `usage/<day>/`,
 * `<pid>-<random>.json`, holding that writer's running totals for the day. A writer (one
 * `fsStore` instance) only ever rewrites its own file, whole, by atomic rename, so processes
 * sharing the folder never lose each other's counts; a read sums every file of the days asked.
 * `cleanup` merges a past day's files into one (so a day of short CLI runs does not leave
 * thousands): the merged file names the files it replaces, and a read skips those, so a merge
 * that crashes before removing them counts nothing twice.
 */
export function fsUsage(dir: string, writeAtomic: WriteAtomic): { addUsage(rows: readonly UsageRow[]): Promise<void>; readUsage(range?: UsageRange): Promise<UsageRow[]>; expire(now: number): Promise<number> } {
  const writer = usageWriter()
  const me = `${process.pid}-${writerId()}`
  // The file this writer keeps per day. When a merge took it (the file is gone), the writer
  // starts a new file holding only what it counts from then on: the merged file names the old one.
  const mine = new Map<string, string>()
  let queue: Promise<void> = Promise.resolve()
  const root = join(dir, FOLDERS.usage)

  return {
    addUsage(rows) {
      // One write at a time per writer, so an older total never lands after a newer one.
      const run = queue.then(async () => {
        for (const day of new Set(rows.map((r) => r.day))) {
          const name = mine.get(day)
          if (name !== undefined && !(await stat(usagePath(dir, day, name)).then(() => true, () => false))) {
            writer.restart(day)
            mine.set(day, `${process.pid}-${writerId()}`)
          }
        }
        const staged = writer.stage(rows)
        for (const [day, json] of staged.days) {
          const name = mine.get(day) ?? me
          await writeAtomic(usagePath(dir, day, name), new TextEncoder().encode(json), join(root, day))
          mine.set(day, name)
        }
        staged.commit()
      })
      queue = run.catch(() => undefined)
      return run
    },
    async readUsage(range) {
      assertUsageRange(range)
      const days = (await readdir(root).catch(() => [] as string[])).filter((d) => USAGE_DAY_PATTERN.test(d) && inUsageRange(d, range))
      const rows: UsageRow[] = []
      for (const day of days) rows.push(...(await readDay(day)).rows)
      return sumUsageRows(rows, range)
    },
    /**
     * Removes day folders older than {@link USAGE_KEEP_DAYS} (returns how many), and merges the
     * files of each day before yesterday that has more than {@link USAGE_MERGE_MIN_FILES}.
     */
    async expire(now) {
      const oldest = utcDay(now - USAGE_KEEP_DAYS * 86_400_000)
      const settled = utcDay(now - 2 * 86_400_000) // writers flush within seconds: days up to this one are done
      let removed = 0
      for (const day of await readdir(root).catch(() => [] as string[])) {
        if (!USAGE_DAY_PATTERN.test(day)) continue
        if (day < oldest) {
          await rm(join(root, day), { recursive: true, force: true }).catch(() => undefined)
          removed++
        } else if (day <= settled) await mergeDay(day).catch(() => undefined)
      }
      return removed
    },
  }

  /** The day's rows from every file not replaced by a merged one, and the names of all files read. */
  async function readDay(day: string): Promise<{ rows: UsageRow[]; names: string[] }> {
    const files: Array<{ name: string; rows: UsageRow[] }> = []
    const replaced = new Set<string>()
    const names: string[] = []
    for (const name of await readdir(join(root, day)).catch(() => [] as string[])) {
      if (!name.endsWith('.json')) continue
      const file = await readFile(join(root, day, name)).catch(() => undefined)
      // A file of another day or a damaged one is skipped, never half-counted.
      const got = file === undefined ? undefined : readDayFile(new Uint8Array(file), day)
      if (got === undefined) continue
      names.push(name)
      files.push({ name, rows: got.rows })
      for (const m of got.merged) replaced.add(m)
    }
    return { rows: files.filter((f) => !replaced.has(f.name)).flatMap((f) => f.rows), names }
  }

  /** Merges one settled day's files into one, under an exclusive lock file; a day another merge holds is left. */
  async function mergeDay(day: string): Promise<void> {
    const folder = join(root, day)
    const count = (await readdir(folder).catch(() => [] as string[])).filter((n) => n.endsWith('.json')).length
    if (count <= USAGE_MERGE_MIN_FILES) return
    const lock = join(folder, MERGE_LOCK)
    const held = await open(lock, 'wx', 0o600).catch(async (err: unknown) => {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
      const age = Date.now() - (await stat(lock).then((s) => s.mtimeMs, () => Date.now()))
      if (age > STALE_MERGE_LOCK_MS) await unlink(lock).catch(() => undefined)
      return undefined
    })
    if (held === undefined) return
    try {
      await held.close()
      const { rows, names } = await readDay(day)
      const tools = new Map(sumUsageRows(rows).map((r) => [r.tool, r.counts]))
      const json = encodeUsageDay(day, tools, { merged: names })
      await writeAtomic(usagePath(dir, day, `merged-${writerId()}`), new TextEncoder().encode(json), folder)
      for (const name of names) await unlink(join(folder, name)).catch(() => undefined)
    } finally {
      await unlink(lock).catch(() => undefined)
    }
  }
}
