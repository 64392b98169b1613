import { testStorageAdapter, testMeta } from '@spillway/core/testing'
import { createClient, type RedisClientType } from 'redis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { redisStore } from './store.js'
import { startRedisServer, type RedisServer } from './testing/redis-server.js'

let server: RedisServer
let shared: RedisClientType
beforeAll(async () => {
  server = await startRedisServer()
  shared = createClient({ url: server.url })
  await shared.connect()
})
afterAll(async () => {
  await shared?.close().catch(() => undefined)
  await server?.stop()
})

let n = 0
const enc = (s: string): Uint8Array => new TextEncoder().encode(s)
const dec = (b: Uint8Array | undefined): string | undefined => (b === undefined ? undefined : new TextDecoder().decode(b))

// The store creating its own client from a URL (closed by dispose) ...
const prefixes = new Map<object, string>()
testStorageAdapter({
  name: 'redis (url)',
  create: () => {
    const prefix = `url${++n}`
    const store = redisStore({ url: server.url, prefix })
    prefixes.set(store, prefix)
    return store
  },
  // A second replica: its own connection, same server and prefix.
  peer: (store) => redisStore({ url: server.url, prefix: prefixes.get(store)! }),
  expectUsage: true,
})

// ... and on the caller's client, which dispose leaves open.
testStorageAdapter({
  name: 'redis (client)',
  create: () => {
    const prefix = `cl${++n}`
    const store = redisStore({ client: shared, prefix })
    prefixes.set(store, prefix)
    return store
  },
  peer: (store) => redisStore({ client: shared, prefix: prefixes.get(store)! }),
  expectUsage: true,
  additionalTests(current) {
    it('dispose leaves a caller client open', async () => {
      await current().dispose?.()
      expect(shared.isReady).toBe(true)
      expect(await shared.ping()).toBe('PONG')
    })

    it('getRange reads bytes [start, end) of one blob, and tells absent from empty', async () => {
      const s = current()
      await s.put('0123456789ab', enc('hello world'), testMeta())
      expect(dec(await s.getRange!('0123456789ab', 6, 11))).toBe('world')
      expect(dec(await s.getRange!('0123456789ab', 6, 1000))).toBe('world')
      expect(await s.getRange!('0123456789ab', 20, 30)).toEqual(new Uint8Array(0))
      expect(await s.getRange!('0123456789ab', 3, 3)).toEqual(new Uint8Array(0))
      expect(await s.getRange!('ffffffffffff', 0, 5)).toBeUndefined()
      expect(await s.getRange!('ffffffffffff', 0, 0)).toBeUndefined()
      await s.put('0123456789ac', new Uint8Array(0), testMeta())
      expect(await s.getRange!('0123456789ac', 0, 10)).toEqual(new Uint8Array(0))
    })
  },
})

describe('redisStore keys and expiry', () => {
  it('writes only keys under its prefix, one hash tag per blob and per session', async () => {
    const s = redisStore({ client: shared, prefix: 'layout' })
    await s.put('aaaaaaaaaaaa', enc('x'), testMeta())
    await s.putEntry!('ü/..', { id: 'aaaaaaaaaaaa', tool: 't', kind: 'log', chars: 1, lines: 1, createdAt: 1 })
    const keys = (await shared.keys('layout:*')).sort()
    const sess = Buffer.from('ü/..').toString('hex')
    expect(keys).toEqual(['layout:b:{aaaaaaaaaaaa}', `layout:e:{s${sess}}:aaaaaaaaaaaa`, 'layout:m:{aaaaaaaaaaaa}', `layout:s:{s${sess}}`])
  })

  it('keeps usage in one hash per UTC day (field counter|tool), one hash tag for every day, expiring after 400 days', async () => {
    const s = redisStore({ client: shared, prefix: 'use.x' })
    await s.addUsage!([
      { day: '2026-03-01', tool: 'a|b', counts: { seen: 2, 'fetch.grep': 1 } },
      { day: '2026-03-02', tool: 'terminal', counts: { seen: 1, passed: 0 } },
    ])
    expect((await shared.keys('use.x:*')).sort()).toEqual(['use.x:u:{use.x}:2026-03-01', 'use.x:u:{use.x}:2026-03-02'])
    expect(await shared.hGetAll('use.x:u:{use.x}:2026-03-01')).toEqual({ 'seen|a|b': '2', 'fetch.grep|a|b': '1' })
    expect(await shared.hGetAll('use.x:u:{use.x}:2026-03-02')).toEqual({ 'seen|terminal': '1' }) // zero counts write nothing
    const ttl = await shared.ttl('use.x:u:{use.x}:2026-03-01')
    expect(ttl).toBeGreaterThan(399 * 86_400)
    expect(ttl).toBeLessThanOrEqual(400 * 86_400)
    // Read back through an explicit range (days enumerated) and an open one (SCAN): the same rows.
    const want = [
      { day: '2026-03-01', tool: 'a|b', counts: { seen: 2, 'fetch.grep': 1 } },
      { day: '2026-03-02', tool: 'terminal', counts: { seen: 1 } },
    ]
    expect(await s.readUsage!({ from: '2026-02-27', to: '2026-03-05' })).toEqual(want)
    expect(await s.readUsage!()).toEqual(want)
    expect(await s.readUsage!({ from: '2026-03-02' })).toEqual([want[1]])
  })

  it('refuses a prefix with glob or hash-tag characters', () => {
    for (const prefix of ['a*', 'a{b}', '', 'a b', 'x?']) expect(() => redisStore({ client: shared, prefix })).toThrow(/prefix/)
  })

  it('refuses a URL with another scheme or a database that is not a number, in words and without the password', () => {
    expect(() => redisStore({ url: 'redis://:s3cret@127.0.0.1:1/abc' })).toThrow('redis store: the database in the URL must be a number (redis://127.0.0.1:1/0), not "abc"')
    expect(() => redisStore({ url: 'http://127.0.0.1:6379/0' })).toThrow(/must start with redis:\/\/ or rediss:\/\//)
    expect(() => redisStore({ url: 'redis://:s3cret@[bad' })).toThrow(/URL is not valid/)
    for (const url of ['redis://:s3cret@127.0.0.1:1/abc', 'redis://:s3cret@[bad']) {
      try {
        redisStore({ url })
      } catch (e) {
        expect(String((e as Error).message)).not.toContain('s3cret')
      }
    }
    expect(() => redisStore({ url: 'redis://127.0.0.1:1/3' })).not.toThrow()
  })

  it('tombstones expire by themselves, live entries do not', async () => {
    const s = redisStore({ client: shared, prefix: 'tomb', tombstoneTtlSeconds: 0.2 })
    const e = { id: 'bbbbbbbbbbbb', tool: 't', kind: 'log' as const, chars: 1, lines: 1, createdAt: 1 }
    await s.putEntry!('s', e)
    await s.putEntry!('s', { ...e, id: 'cccccccccccc', goneAt: 5 })
    await new Promise((r) => setTimeout(r, 400))
    expect(await s.getEntry!('s', 'cccccccccccc')).toBeUndefined()
    expect(await s.getEntry!('s', 'bbbbbbbbbbbb')).toEqual(e)
    const listed = []
    for await (const x of s.listEntries!('s')) listed.push(x.entry.id)
    expect(listed).toEqual(['bbbbbbbbbbbb'])
    expect(await shared.sMembers(`tomb:s:{s${Buffer.from('s').toString('hex')}}`)).toEqual(['bbbbbbbbbbbb']) // the expired id was dropped from the set
  })

  it('ttlSeconds expires blobs in Redis, and touch pushes the expiry back', async () => {
    const s = redisStore({ client: shared, prefix: 'ttl', ttlSeconds: 0.5 })
    await s.put('dddddddddddd', enc('d'), testMeta())
    await s.put('eeeeeeeeeeee', enc('e'), testMeta())
    await new Promise((r) => setTimeout(r, 300))
    await s.touch!('eeeeeeeeeeee', Date.now())
    await new Promise((r) => setTimeout(r, 350))
    expect(await s.has('dddddddddddd')).toBe(false)
    expect(await s.has('eeeeeeeeeeee')).toBe(true)
    expect(await s.cleanup!()).toBe(0)
  })

  it('touch never creates a blob, and cleanup removes a half left by eviction', async () => {
    const s = redisStore({ client: shared, prefix: 'half' })
    await s.touch!('abababababab', 5)
    expect(await shared.keys('half:*')).toEqual([])
    await s.put('abababababab', enc('x'), testMeta())
    await shared.del('half:b:{abababababab}') // as maxmemory eviction of one key would
    expect(await s.cleanup!()).toBe(1)
    expect(await shared.keys('half:*')).toEqual([])
  })
})

describe('redisStore shared by replicas', () => {
  it('LRU is global: a blob read on one replica survives an eviction run by another', async () => {
    const { createSpillway } = await import('@spillway/core')
    const text = (n: number): string => Array.from({ length: 400 }, (_, i) => `line ${i} of result ${n} ${(i * n * 7919).toString(36)}`).join('\n')
    const storeA = redisStore({ client: shared, prefix: 'lru' })
    const a = createSpillway({ store: storeA, maxChars: 1000, clock: () => 1000 })
    const ids: string[] = []
    for (const n of [1, 2, 3]) ids.push((await a.handle({ tool: 'terminal', result: text(n), sessionId: 's' })).handle!.id)
    await a.dispose() // background compression done: the sizes below stay as they are
    await storeA.touch!(ids[1]!, 2000)
    await storeA.touch!(ids[2]!, 3000)
    // Replica B reads the oldest blob: its access time moves in Redis, not in B's memory.
    const b = createSpillway({ store: redisStore({ client: shared, prefix: 'lru' }), maxChars: 1000, clock: () => 4000 })
    expect((await b.fetch({ id: ids[0]!, mode: 'range', start: 1, count: 2 }, { sessionId: 's' })).ok).toBe(true)
    let total = 0
    for await (const x of storeA.list()) total += x.bytes
    // Replica C sweeps with a cap one byte short: exactly one blob goes, the least recently used.
    const c = createSpillway({ store: redisStore({ client: shared, prefix: 'lru' }), maxChars: 1000, maxStoreBytes: total - 1, clock: () => 5000 })
    expect((await c.sweep()).evicted).toBe(1)
    expect(await storeA.has(ids[0]!)).toBe(true)
    expect(await storeA.has(ids[1]!)).toBe(false)
    expect(await storeA.has(ids[2]!)).toBe(true)
  })
})

describe('redisStore under many concurrent callers', () => {
  const prefill = async (prefix: string, n: number): Promise<ReturnType<typeof redisStore>> => {
    const s = redisStore({ client: shared, prefix })
    await Promise.all(Array.from({ length: n }, (_, i) => s.put(i.toString(16).padStart(12, '0'), enc(`blob ${i}`), testMeta(1000 + i))))
    return s
  }
  const scans = async (): Promise<number> => Number(/cmdstat_scan:calls=(\d+)/.exec(String(await shared.info('commandstats')))?.[1] ?? 0)

  it('100 concurrent list() calls share listings, and each sees every blob put before it was called', async () => {
    const s = await prefill('many', 1000)
    const before = await scans()
    const lists = await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        await new Promise((r) => setTimeout(r, i % 7))
        const id = `f${i.toString(16).padStart(11, '0')}`
        await s.put(id, enc('late'), testMeta())
        const ids = new Set<string>()
        for await (const b of s.list()) ids.add(b.id)
        return { id, ids }
      }),
    )
    for (const { id, ids } of lists) {
      expect(ids.has(id)).toBe(true) // its own put, finished before the call
      expect(ids.size).toBeGreaterThanOrEqual(1001)
    }
    // About 2000 keys at COUNT 500 is a handful of SCAN steps per listing; 100 separate listings would be hundreds.
    expect((await scans()) - before).toBeLessThan(60)
  })

  it('100 concurrent spills into a store of 3000 blobs all get a handle', async () => {
    const { createSpillway } = await import('@spillway/core')
    const s = await prefill('busy', 3000)
    const sw = createSpillway({ store: s, maxChars: 1000 })
    const text = (n: number): string => Array.from({ length: 300 }, (_, i) => `busy ${n} line ${i}`).join('\n')
    const outs = await Promise.all(Array.from({ length: 100 }, (_, n) => sw.handle({ tool: 'terminal', result: text(n), sessionId: 's' })))
    expect(outs.filter((o) => o.handle === undefined)).toHaveLength(0)
  })
})
