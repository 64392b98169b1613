import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync, readFileSync, truncateSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { SpillwayError } from '../../errors.js'
import { testStorageAdapter, testMeta } from '../testing/index.js'
import type { StorageAdapter } from '../types.js'
import { fsStore } from './index.js'

const dirs = new Map<StorageAdapter, string>()
const fresh = (): { store: StorageAdapter; dir: string } => {
  const dir = join(mkdtempSync(join(tmpdir(), 'spillway-fs-')), 'store')
  const store = fsStore({ dir })
  dirs.set(store, dir)
  return { store, dir }
}
const walk = (d: string): string[] => readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? [join(d, f), ...walk(join(d, f))] : [join(d, f)]))
const enc = (s: string): Uint8Array => new TextEncoder().encode(s)

testStorageAdapter({
  name: 'fsStore',
  create: () => fresh().store,
  cleanup: (store) => rmSync(join(dirs.get(store)!, '..'), { recursive: true, force: true }),
  peer: (store) => fsStore({ dir: dirs.get(store)! }),
  expectUsage: true,
  additionalTests: (current) => {
    it('writes files 0600 in folders 0700, and only inside its folder', async () => {
      const store = current()
      const dir = dirs.get(store)!
      await store.put('0123456789ab', enc('secret'), testMeta())
      await store.putEntry!('../../evil', { id: '0123456789ab', tool: 't', kind: 'text', chars: 6, lines: 1, createdAt: 1 })
      await store.addUsage!([{ day: '2026-01-02', tool: '../../evil', counts: { seen: 1 } }])
      expect(walk(dir).some((p) => p.includes(join('usage', '2026-01-02')))).toBe(true)
      expect(statSync(dir).mode & 0o777).toBe(0o700)
      for (const p of walk(dir)) {
        expect(relative(dir, p).startsWith('..')).toBe(false)
        expect(statSync(p).mode & 0o777).toBe(statSync(p).isDirectory() ? 0o700 : 0o600)
      }
      expect(readdirSync(join(dir, '..'))).toEqual(['store']) // nothing escaped next to it
    })

    it('leaves no temp files behind', async () => {
      const store = current()
      await Promise.all(Array.from({ length: 20 }, (_, i) => store.put(i.toString(16).padStart(12, '0'), enc(`v${i}`), testMeta())))
      expect(readdirSync(join(dirs.get(store)!, 'tmp'))).toEqual([])
    })
  },
})

describe('fsStore specifics', () => {
  it('never serves a truncated, emptied or foreign file as a blob: it reads as damaged (integrity), not absent', async () => {
    const { store, dir } = fresh()
    const damaged = async (p: Promise<unknown>): Promise<void> => {
      const err = await p.then(() => undefined, (e: unknown) => e)
      expect(SpillwayError.is(err) && err.code === 'integrity', String(err)).toBe(true)
    }
    await store.put('0123456789ab', enc('x'.repeat(1000)), testMeta())
    truncateSync(join(dir, 'blobs', '0123456789ab'), 500)
    await damaged(store.get('0123456789ab'))
    await damaged(store.getRange!('0123456789ab', 0, 10))
    writeFileSync(join(dir, 'blobs', 'abcdefabcdef'), 'not a blob file', { mode: 0o600 })
    await damaged(store.get('abcdefabcdef'))
    writeFileSync(join(dir, 'blobs', 'abcdefabcde0'), '', { mode: 0o600 })
    await damaged(store.get('abcdefabcde0'))
    // Damaged files are listed (with their file size), so sweeps and the cap can remove them.
    const listed = new Set<string>()
    for await (const b of store.list()) listed.add(b.id)
    expect([...listed].sort()).toEqual(['0123456789ab', 'abcdefabcde0', 'abcdefabcdef'])
    rmSync(join(dir, '..'), { recursive: true, force: true })
  })

  it('cleanup removes temp files of dead writers and keeps fresh ones of live writers', async () => {
    const { store, dir } = fresh()
    await store.put('0123456789ab', enc('x'), testMeta())
    const dead = join(dir, 'tmp', '999999999-1-aaaa.tmp') // no such pid
    const live = join(dir, 'tmp', `${process.pid}-77-bbbb.tmp`)
    writeFileSync(dead, 'half a blob')
    writeFileSync(live, 'being written')
    expect(await store.cleanup!()).toBe(1)
    expect(readdirSync(join(dir, 'tmp'))).toEqual([`${process.pid}-77-bbbb.tmp`])
    // A stale temp file of a live writer goes after staleTempMs.
    const strict = fsStore({ dir, staleTempMs: 0 })
    await new Promise((r) => setTimeout(r, 5))
    expect(await strict.cleanup!()).toBe(1)
    rmSync(join(dir, '..'), { recursive: true, force: true })
  })

  it('two stores on one folder see each other\'s blobs and entries', async () => {
    const { store, dir } = fresh()
    const other = fsStore({ dir })
    await store.put('0123456789ab', enc('shared'), testMeta())
    await store.putEntry!('s', { id: '0123456789ab', tool: 't', kind: 'text', chars: 6, lines: 1, createdAt: 1 })
    expect(new TextDecoder().decode(await other.get('0123456789ab'))).toBe('shared')
    expect((await other.getEntry!('s', '0123456789ab'))?.tool).toBe('t')
    rmSync(join(dir, '..'), { recursive: true, force: true })
  })

  it('reads concurrent with rewrites of one id always see a whole value', async () => {
    const { store, dir } = fresh()
    const a = enc('a'.repeat(200_000))
    const b = enc('b'.repeat(300_000))
    await store.put('0123456789ab', a, testMeta())
    const seen = new Set<string>()
    const reads = async (): Promise<void> => {
      for (let i = 0; i < 40; i++) {
        const got = await store.get('0123456789ab')
        expect(got).toBeDefined()
        const s = new TextDecoder().decode(got)
        expect(s === 'a'.repeat(200_000) || s === 'b'.repeat(300_000)).toBe(true)
        seen.add(s[0]!)
      }
    }
    const writes = async (): Promise<void> => {
      for (let i = 0; i < 40; i++) await store.put('0123456789ab', i % 2 ? a : b, testMeta())
    }
    await Promise.all([reads(), writes(), reads()])
    expect(readFileSync(join(dir, 'blobs', '0123456789ab')).length).toBeGreaterThan(200_000)
    rmSync(join(dir, '..'), { recursive: true, force: true })
  })

  it('refuses a missing dir option', () => {
    expect(() => fsStore({} as never)).toThrow(/dir/)
  })
})

describe('fsStore recovery and folder safety (issue 12)', () => {
  it('recovers when its folder is removed while running: later puts re-create it and store', async () => {
    const { store, dir } = fresh()
    await store.put('0123456789ab', enc('first'), testMeta())
    rmSync(dir, { recursive: true, force: true })
    await store.put('0123456789ac', enc('second'), testMeta())
    await store.putEntry!('s', { id: '0123456789ac', tool: 't', kind: 'text', chars: 6, lines: 1, createdAt: 1 })
    expect(new TextDecoder().decode(await store.get('0123456789ac'))).toBe('second')
    expect((await store.getEntry!('s', '0123456789ac'))?.tool).toBe('t')
    expect(statSync(dir).mode & 0o777).toBe(0o700)
    rmSync(join(dir, '..'), { recursive: true, force: true })
  })

  it('retries a failed first use instead of caching the failure', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'spillway-fs-'))
    const blocker = join(parent, 'file')
    writeFileSync(blocker, 'x')
    const dir = join(blocker, 'store') // under a file: the first use fails
    const store = fsStore({ dir })
    await expect(store.put('0123456789ab', enc('v'), testMeta())).rejects.toThrow(/store/)
    rmSync(blocker)
    await store.put('0123456789ab', enc('v'), testMeta())
    expect(new TextDecoder().decode(await store.get('0123456789ab'))).toBe('v')
    rmSync(parent, { recursive: true, force: true })
  })

  it('never chmods a folder it did not create, and refuses one other users can write to', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'spillway-fs-'))
    const mine = join(parent, 'mine')
    mkdirSync(mine, { mode: 0o755 })
    chmodSync(mine, 0o755)
    await fsStore({ dir: mine }).put('0123456789ab', enc('v'), testMeta())
    expect(statSync(mine).mode & 0o777).toBe(0o755) // left as it was
    expect(statSync(join(mine, 'blobs')).mode & 0o777).toBe(0o700) // what it made is private
    const open = join(parent, 'open')
    mkdirSync(open)
    chmodSync(open, 0o777)
    await expect(fsStore({ dir: open }).put('0123456789ab', enc('v'), testMeta())).rejects.toThrow(/writable by other users \(mode 0777\)/)
    expect(readdirSync(open)).toEqual([]) // nothing written there
    rmSync(parent, { recursive: true, force: true })
  })

  it('fails with a clear error, fast, on a folder that cannot be made (/proc/x)', async () => {
    if (process.platform !== 'linux') return
    // "Fast" is the test's own time-out: a store that retried forever would not answer within it.
    await expect(fsStore({ dir: '/proc/spillway-x/store' }).put('0123456789ab', enc('v'), testMeta())).rejects.toThrow(/could not create the store folder \/proc\/spillway-x/)
  }, 10_000)
})

describe('session folder names', () => {
  it('are escaped, case-distinct, never reserved, and bounded in length', async () => {
    const { sessionFolder } = await import('./layout.js')
    expect(sessionFolder('alice')).toBe('s-alice')
    expect(sessionFolder('Alice')).toBe('s-%41lice')
    expect(sessionFolder('../x')).toBe('s-%2e%2e%2fx')
    expect(sessionFolder('CON')).toBe('s-%43%4f%4e')
    expect(sessionFolder('é')).toBe('s-%c3%a9')
    expect(sessionFolder('x'.repeat(128))).toMatch(/^h-[0-9a-f]{64}$/)
    expect(() => sessionFolder('')).toThrow(/invalid session id/)
  })

  it('keep sessions that differ only in case apart', async () => {
    const { store, dir } = fresh()
    await store.putEntry!('Alice', { id: '0123456789ab', tool: 'upper', kind: 'text', chars: 1, lines: 1, createdAt: 1 })
    await store.putEntry!('alice', { id: '0123456789ab', tool: 'lower', kind: 'text', chars: 1, lines: 1, createdAt: 1 })
    expect((await store.getEntry!('Alice', '0123456789ab'))?.tool).toBe('upper')
    expect((await store.getEntry!('alice', '0123456789ab'))?.tool).toBe('lower')
    rmSync(join(dir, '..'), { recursive: true, force: true })
  })

  it('refuse session ids with lone surrogates (issue 12 item 7: user\\uD800 and user\\uDC00 shared one folder)', async () => {
    const { store, dir } = fresh()
    const entry = (tool: string) => ({ id: '0123456789ab', tool, kind: 'text' as const, chars: 1, lines: 1, createdAt: 1 })
    const invalid = expect.objectContaining({ code: 'invalid_id' })
    await expect(store.putEntry!('user\uD800', entry('high'))).rejects.toThrow(invalid)
    await expect(store.putEntry!('user\uDC00', entry('low'))).rejects.toThrow(invalid)
    await expect(store.getEntry!('user\uDC00', '0123456789ab')).rejects.toThrow(invalid)
    await store.putEntry!('user\uD83D\uDE00', entry('pair')) // a whole surrogate pair is fine
    expect((await store.getEntry!('user\uD83D\uDE00', '0123456789ab'))?.tool).toBe('pair')
    expect(readdirSync(join(dir, 'sessions'))).toEqual(['s-user%f0%9f%98%80'])
    rmSync(join(dir, '..'), { recursive: true, force: true })
  })
})

describe('fsStore usage files: a past day of many writers is merged into one, nothing counted twice', () => {
  const day = new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10) // settled (before yesterday), well within the 400 days kept
  const files = (dir: string): string[] => readdirSync(join(dir, 'usage', day)).filter((n) => n.endsWith('.json'))

  it('cleanup merges 20 writers\' files into one with the same sums; a later writer is added on top', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spillway-usage-merge-'))
    try {
      for (let w = 0; w < 20; w++) await fsStore({ dir }).addUsage!([{ day, tool: 'terminal', counts: { seen: 1, spilled: w % 2 } }, { day, tool: `t${w % 3}`, counts: { seen: 2 } }])
      const reader = fsStore({ dir })
      const before = await reader.readUsage!()
      expect(files(dir)).toHaveLength(20)
      await reader.cleanup!()
      expect(files(dir)).toHaveLength(1)
      expect(await reader.readUsage!()).toEqual(before)
      expect(before.find((r) => r.tool === 'terminal')?.counts).toEqual({ seen: 20, spilled: 10 })
      await fsStore({ dir }).addUsage!([{ day, tool: 'terminal', counts: { seen: 5 } }])
      expect((await reader.readUsage!()).find((r) => r.tool === 'terminal')?.counts).toEqual({ seen: 25, spilled: 10 })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('a long-lived writer whose file was merged keeps counting: its later flush of that day starts a new file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spillway-usage-late-'))
    try {
      const w = fsStore({ dir }) // a sidecar or MCP proxy that recorded on that day and lives on
      await w.addUsage!([{ day, tool: 'terminal', counts: { seen: 1 } }])
      for (let i = 0; i < 10; i++) await fsStore({ dir }).addUsage!([{ day, tool: 'terminal', counts: { seen: 1 } }])
      await fsStore({ dir }).cleanup!() // another process merges the settled day
      expect(files(dir)).toHaveLength(1)
      await w.addUsage!([{ day, tool: 'terminal', counts: { seen: 1 } }]) // a late flush (a retried write, a laptop that slept)
      await w.addUsage!([{ day, tool: 'terminal', counts: { seen: 2 } }])
      expect((await fsStore({ dir }).readUsage!())[0]?.counts).toEqual({ seen: 14 })
      expect(files(dir)).toHaveLength(2)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('a merge that crashed before removing the files it replaced counts them once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spillway-usage-crash-'))
    try {
      for (let w = 0; w < 12; w++) await fsStore({ dir }).addUsage!([{ day, tool: 'terminal', counts: { seen: 1 } }])
      const names = files(dir)
      await fsStore({ dir }).cleanup!()
      const merged = files(dir)[0]!
      // Put the replaced files back, as if the merge had stopped right after writing its file.
      for (const [i, name] of names.entries()) writeFileSync(join(dir, 'usage', day, name), JSON.stringify({ v: 1, day, tools: { terminal: { seen: 1 } } }) + ' '.repeat(i % 2))
      expect(files(dir)).toHaveLength(13)
      expect(files(dir)).toContain(merged)
      expect((await fsStore({ dir }).readUsage!())[0]?.counts).toEqual({ seen: 12 })
      await fsStore({ dir }).cleanup!() // the next cleanup removes them
      expect(files(dir)).toHaveLength(1)
      expect((await fsStore({ dir }).readUsage!())[0]?.counts).toEqual({ seen: 12 })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('leaves today and yesterday alone (writers may still be adding to them)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spillway-usage-today-'))
    try {
      const today = new Date().toISOString().slice(0, 10)
      for (let w = 0; w < 12; w++) await fsStore({ dir }).addUsage!([{ day: today, tool: 'terminal', counts: { seen: 1 } }])
      await fsStore({ dir }).cleanup!()
      expect(readdirSync(join(dir, 'usage', today)).filter((n) => n.endsWith('.json'))).toHaveLength(12)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
