import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { createSpillway } from '../src/index.js'
import { sha256Hex } from '../src/spill/hash.js'
import { openBlob, verifyAll } from '../src/spill/format/index.js'
import { fsStore } from '../src/store/fs/index.js'
import { bigResult } from './fixtures/big-result.js'

const PKG = join(dirname(fileURLToPath(import.meta.url)), '..')
const child = (script: string, args: string[]) =>
  spawn(process.execPath, ['--conditions=@spillway/source', '--import', 'tsx', join(PKG, 'test/fixtures', script), ...args], { cwd: PKG, stdio: ['ignore', 'pipe', 'pipe'] })

function run(script: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const p = child(script, args)
    let out = ''
    let err = ''
    p.stdout.on('data', (d) => (out += d))
    p.stderr.on('data', (d) => (err += d))
    p.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${script} exited ${code}: ${err}`))))
  })
}

const resultFor = (w: number, i: number): string =>
  Array.from({ length: 120 }, (_, n) => `worker ${w} result ${i} line ${n}: ${n % 17 === 0 ? 'ERROR something failed' : 'ok'}`).join('\n')

describe('fs store shared by several processes', () => {
  it('4 processes x 100 concurrent spills into one folder: all 400 readable afterwards', { timeout: 120_000 }, async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'spillway-mp-')), 'store')
    try {
      const outs = await Promise.all([0, 1, 2, 3].map((w) => run('spill-writer.ts', [dir, String(w), '100', 'shared'])))
      const ids = outs.flatMap((o) => JSON.parse(o) as string[])
      expect(ids).toHaveLength(400)
      expect(new Set(ids).size).toBe(400)
      const sw = createSpillway({ store: fsStore({ dir }), maxChars: 2_000, answerMaxChars: 20_000 })
      let readable = 0
      for (const [k, id] of ids.entries()) {
        const w = Math.floor(k / 100)
        const res = await sw.fetch({ id, mode: 'range', start: 1, count: 200 }, { sessionId: 'shared' })
        if (res.ok && res.text === `[lines 1-120 of 120]\n${resultFor(w, k % 100)}`) readable++
      }
      expect(readable).toBe(400)
      expect((await sw.stats({ sessionId: 'shared' })).blobs).toBe(400)
      expect(readdirSync(join(dir, 'tmp'))).toEqual([])
    } finally {
      rmSync(join(dir, '..'), { recursive: true, force: true })
    }
  })

  it('a writer killed with SIGKILL mid-write leaves each blob absent or whole and verified', { timeout: 120_000 }, async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'spillway-kill-')), 'store')
    try {
      // Kill the writer the moment a temp file of its own exists (the first, second or third it
      // starts): mid-write. On a loaded machine the rename may win the race, so writers are
      // started (at least three, at most 15) until the last one's kill left its temp file behind.
      // (Each writer's store removes the temp files of dead writers when it starts; the last
      // one's are left for the store opened below.)
      let landed = false
      for (let run = 0; run < 15 && (run < 3 || !landed); run++) {
        const before = new Set(existsSync(join(dir, 'tmp')) ? readdirSync(join(dir, 'tmp')) : [])
        const p = child('slow-writer.ts', [dir, 'victim'])
        await new Promise<void>((resolve, reject) => {
          p.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve())
          p.on('exit', (code) => reject(new Error(`slow-writer exited early (${code})`)))
        })
        const fresh = (): string[] => readdirSync(join(dir, 'tmp')).filter((n) => !before.has(n))
        let seen = 0
        let last = ''
        for (const until = Date.now() + 20_000; Date.now() < until; await new Promise((r) => setImmediate(r))) {
          const tmp = fresh()
          if (tmp.length > 0 && tmp[0] !== last) {
            last = tmp[0]!
            if (seen++ === run % 3) break
          }
        }
        p.kill('SIGKILL')
        await new Promise((r) => p.once('exit', r))
        landed = fresh().length > 0
      }
      expect(landed).toBe(true) // the last kill did land mid-write
      const store = fsStore({ dir })
      const sw = createSpillway({ store, maxChars: 2_000 })
      let whole = 0
      for (let i = -1; i < 40; i++) {
        const text = i < 0 ? bigResult(-1, 10_000) : bigResult(i)
        const id = (await sha256Hex(new TextEncoder().encode(text))).slice(0, 12)
        const opened = await openBlob(store, id, () => undefined)
        if (opened.status === 'absent') continue
        expect(opened.status).toBe('ok') // never a torn blob
        if (opened.status === 'ok') expect(await verifyAll(opened.blob)).toBe(true)
        const stat = await sw.fetch({ id, mode: 'stat' }, { sessionId: 'victim' })
        // The entry is written after the blob: a blob without its entry reads as "not available".
        expect(stat.text).toMatch(new RegExp(`chars: ${text.length}\\n|not available in this session`))
        whole++
      }
      expect(whole).toBeGreaterThan(0) // the small first spill, at least
      expect(await store.cleanup!()).toBeGreaterThan(0) // the last dead writer's temp file, removed when the store started
      expect(readdirSync(join(dir, 'tmp'))).toEqual([]) // the dead writer's temp file is gone
    } finally {
      rmSync(join(dir, '..'), { recursive: true, force: true })
    }
  })
})
