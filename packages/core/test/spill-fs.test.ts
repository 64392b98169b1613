// The spill layer over the fs store: sessions, tombstones and the LRU cap across instances.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createSpillway } from '../src/index.js'
import { fsStore } from '../src/store/fs/index.js'

const tmp = mkdtempSync(join(tmpdir(), 'spillway-spillfs-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))
const HOUR = 3_600_000
const log = (n: number, tag: string): string => Array.from({ length: n }, (_, i) => `[${tag}] line ${i + 1}${i === 50 ? ' FAILED: assertion error' : ''}`).join('\n')

describe('createSpillway over fsStore', () => {
  it('isolates sessions across spillway instances sharing a folder, with odd session names', async () => {
    const dir = join(tmp, 'iso')
    const a = createSpillway({ store: fsStore({ dir }), maxChars: 1_500 })
    const b = createSpillway({ store: fsStore({ dir }), maxChars: 1_500 })
    const { handle } = await a.handle({ tool: 'terminal', result: log(400, 'x'), sessionId: '../../x/../y' })
    expect((await b.fetch({ id: handle!.id, mode: 'grep', pattern: 'FAILED' }, { sessionId: '../../x/../y' })).text).toContain('51: [x] line 51 FAILED')
    expect((await b.fetch({ id: handle!.id, mode: 'stat' }, { sessionId: 'y' })).text).toMatch(/not available in this session/)
    expect((await b.fetch({ id: handle!.id, mode: 'stat' }, { sessionId: '../../x/../y/' })).text).toMatch(/not available in this session/)
    expect(readdirSync(tmp)).not.toContain('y')
  })

  it('sweeps by TTL into tombstones that name the tool, then forgets them', async () => {
    let now = 100 * HOUR
    const sw = createSpillway({ store: fsStore({ dir: join(tmp, 'ttl') }), maxChars: 1_500, clock: () => now, ttlHours: 1, tombstoneTtlHours: 1 })
    const { handle } = await sw.handle({ tool: 'read_file', result: log(400, 'f'), sessionId: 's' })
    now += 2 * HOUR
    expect(await sw.sweep()).toMatchObject({ expired: 1 })
    expect((await sw.fetch({ id: handle!.id, mode: 'range', start: 1 }, { sessionId: 's' })).text).toMatch(/from `read_file`\) is no longer stored.*Re-run `read_file`/)
    now += 2 * HOUR
    expect(await sw.sweep()).toMatchObject({ tombstonesRemoved: 1 })
    expect((await sw.fetch({ id: handle!.id, mode: 'stat' }, { sessionId: 's' })).text).toMatch(/not available in this session/)
  })

  it('keeps the folder under the cap (plus at most the newest blob), evicting the least recently used', async () => {
    let now = 1_000_000_000
    const store = fsStore({ dir: join(tmp, 'lru') })
    const sw = createSpillway({ store, maxChars: 1_000, maxStoreBytes: 6_000, clock: () => (now += 1_000), compress: false })
    const ids: string[] = []
    for (let i = 0; i < 10; i++) {
      ids.push((await sw.handle({ tool: 't', result: log(100, `j${i}`), sessionId: 's' })).handle!.id)
      if (i === 2) await sw.fetch({ id: ids[0]!, mode: 'stat' }, { sessionId: 's' })
      let total = 0
      let newest = 0
      for await (const b of store.list()) {
        total += b.bytes
        if (b.id === ids[i]) newest = b.bytes
      }
      expect(total - newest).toBeLessThanOrEqual(6_000)
    }
    const left = new Set<string>()
    for await (const b of store.list()) left.add(b.id)
    expect(left.has(ids[9]!)).toBe(true)
    expect(left.has(ids[1]!)).toBe(false)
  })
})
