import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SpillwayError } from '../../errors.js'
import type { BlobMeta, SessionEntry, StorageAdapter } from '../types.js'
import { createSpillway } from '../../spill/spillway.js'
import { usageTests } from './usage.js'

/** Options of {@link testStorageAdapter}. */
export interface StorageAdapterTestOptions {
  /** Shown in the test names. */
  name: string
  /** A fresh, empty store for each test. */
  create(): StorageAdapter | Promise<StorageAdapter>
  /** Called after each test with the store (after its `dispose`), e.g. to remove a folder. */
  cleanup?(store: StorageAdapter): void | Promise<void>
  /**
   * Another adapter on the same backing storage, as a second process would open it (same folder,
   * same Redis prefix...): the usage tests add from both and read the sum. @default the store itself
   */
  peer?(store: StorageAdapter): StorageAdapter | Promise<StorageAdapter>
  /** The store must implement the usage capability (`addUsage` + `readUsage`). @default false */
  expectUsage?: boolean
  /** More tests of the backend, run in the same `describe` with a getter for the current store. */
  additionalTests?(current: () => StorageAdapter): void
}

const enc = (s: string): Uint8Array => new TextEncoder().encode(s)
const dec = (b: Uint8Array | undefined): string | undefined => (b === undefined ? undefined : new TextDecoder().decode(b))
const hexId = (n: number, len = 12): string => n.toString(16).padStart(len, '0')

/** Test metadata for `id` (the conformance suite does not check hashes: that is the spill layer's job). */
export function testMeta(createdAt = 1_700_000_000_000): BlobMeta {
  return { sha256: 'f'.repeat(64), tool: 'terminal', kind: 'log', chars: 3, lines: 1, createdAt }
}

const entry = (id: string, extra: Partial<SessionEntry> = {}): SessionEntry => ({ id, tool: 'terminal', kind: 'log', chars: 10, lines: 2, createdAt: 1_700_000_000_000, ...extra })

/** Ids and session names a store must refuse (`invalid_id`), so that none can reach a path. */
export const HOSTILE_IDS: readonly string[] = ['', '../etc/passwd', '..', 'ABCDEF012345', 'abc', '0123456789ab/..', '0123456789ab\0', 'g23456789abc', 'a'.repeat(65), ' 0123456789ab']

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const x of it) out.push(x)
  return out
}

async function expectInvalidId(p: Promise<unknown>): Promise<void> {
  const err = await p.then(() => undefined, (e: unknown) => e)
  expect(SpillwayError.is(err), `expected a SpillwayError, got ${String(err)}`).toBe(true)
  expect((err as SpillwayError).code).toBe('invalid_id')
}

/**
 * The conformance suite every {@link StorageAdapter} runs (vitest). Third-party stores can run it
 * too: `import { testStorageAdapter } from '@spillway/core/testing'`.
 *
 * @example
 * ```ts
 * testStorageAdapter({ name: 'memory', create: () => memoryStore() })
 * ```
 */
export function testStorageAdapter(opts: StorageAdapterTestOptions): void {
  describe(`StorageAdapter conformance: ${opts.name}`, () => {
    let store: StorageAdapter
    beforeEach(async () => {
      store = await opts.create()
    })
    afterEach(async () => {
      await store.dispose?.()
      await opts.cleanup?.(store)
    })

    it('has a name', () => {
      expect(typeof store.name).toBe('string')
      expect(store.name.length).toBeGreaterThan(0)
    })

    it('round-trips bytes, and reports absent ids as absent', async () => {
      const id = hexId(1)
      expect(await store.get(id)).toBeUndefined()
      expect(await store.has(id)).toBe(false)
      await store.put(id, enc('héllo\n\u{1F600}'), testMeta())
      expect(await store.has(id)).toBe(true)
      expect(dec(await store.get(id))).toBe('héllo\n\u{1F600}')
    })

    it('stores empty data and a 3 MB blob exactly', async () => {
      await store.put(hexId(2), new Uint8Array(0), testMeta())
      expect((await store.get(hexId(2)))?.length).toBe(0)
      const big = new Uint8Array(3 * 1024 * 1024)
      for (let i = 0; i < big.length; i++) big[i] = (i * 7919) & 255
      await store.put(hexId(3), big, testMeta())
      const back = await store.get(hexId(3))
      expect(back?.length).toBe(big.length)
      expect(back!.every((b, i) => b === big[i])).toBe(true)
    })

    it('keeps what was stored when the caller later changes its buffer', async () => {
      const data = enc('abc')
      await store.put(hexId(4), data, testMeta())
      data[0] = 0x7a
      expect(dec(await store.get(hexId(4)))).toBe('abc')
    })

    it('put is idempotent and list reports each blob once with its sizes and times', async () => {
      await store.put(hexId(5), enc('five'), testMeta(1000))
      await store.put(hexId(5), enc('five'), testMeta(1000))
      await store.put(hexId(6), enc('six!!'), testMeta(2000))
      const list = (await collect(store.list())).sort((a, b) => (a.id < b.id ? -1 : 1))
      expect(list.map((b) => b.id)).toEqual([hexId(5), hexId(6)])
      expect(list[0]!.bytes).toBeGreaterThanOrEqual(4)
      expect(list[1]!.bytes).toBeGreaterThanOrEqual(5)
      expect(list[1]!.bytes - list[0]!.bytes).toBe(1) // stored size grows with the data
      expect(list[0]!.createdAt).toBe(1000)
      expect(list[1]!.createdAt).toBe(2000)
      for (const b of list) expect(b.lastAccessAt).toBeGreaterThanOrEqual(b.createdAt)
    })

    it('delete removes a blob; deleting an absent id is fine', async () => {
      await store.put(hexId(7), enc('x'), testMeta())
      await store.delete(hexId(7))
      await store.delete(hexId(7))
      expect(await store.get(hexId(7))).toBeUndefined()
      expect(await store.has(hexId(7))).toBe(false)
      expect((await collect(store.list())).map((b) => b.id)).not.toContain(hexId(7))
    })

    it('refuses malformed ids in every method (no path can hide in an id)', async () => {
      for (const id of HOSTILE_IDS) {
        await expectInvalidId(store.put(id, enc('x'), testMeta()))
        await expectInvalidId(store.get(id))
        await expectInvalidId(store.has(id))
        await expectInvalidId(store.delete(id))
      }
    })

    it('accepts ids of 12 to 64 hex chars', async () => {
      for (const len of [12, 16, 64]) {
        await store.put(hexId(8, len), enc(`len${len}`), testMeta())
        expect(dec(await store.get(hexId(8, len)))).toBe(`len${len}`)
      }
    })

    it('keeps every one of 60 concurrent puts', async () => {
      await Promise.all(Array.from({ length: 60 }, (_, i) => store.put(hexId(100 + i), enc(`blob ${i}`), testMeta())))
      const got = await Promise.all(Array.from({ length: 60 }, (_, i) => store.get(hexId(100 + i))))
      expect(got.map(dec)).toEqual(Array.from({ length: 60 }, (_, i) => `blob ${i}`))
    })

    it('touch (when supported) moves lastAccessAt forward', async () => {
      if (store.touch === undefined) return
      await store.put(hexId(9), enc('t'), testMeta(1_000_000))
      await store.touch(hexId(9), 5_000_000)
      const info = (await collect(store.list())).find((b) => b.id === hexId(9))
      expect(info?.lastAccessAt).toBeGreaterThanOrEqual(5_000_000 - 1)
      expect(info?.createdAt).toBe(1_000_000)
    })

    it('touch (when supported) always moves lastAccessAt past what a listing gave, whatever the toucher\'s clock, and says whether the blob exists', async () => {
      if (store.touch === undefined) return
      const id = hexId(13)
      await store.put(id, enc('skew'), testMeta(3_000_000))
      const listed = (await collect(store.list())).find((b) => b.id === id)!
      // A replica whose clock is behind hands the blob out as a duplicate after the listing.
      expect([true, undefined]).toContain(await store.touch(id, listed.lastAccessAt - 1_000_000))
      const after = (await collect(store.list())).find((b) => b.id === id)!
      expect(after.lastAccessAt).toBeGreaterThan(listed.lastAccessAt)
      if (store.deleteIfIdle !== undefined) expect(await store.deleteIfIdle(id, listed.lastAccessAt)).toBe(false)
      expect(await store.has(id)).toBe(true)
      expect([false, undefined]).toContain(await store.touch(hexId(14), 5_000_000))
      expect(await store.has(hexId(14))).toBe(false)
    })

    it('a re-put of the same id (the compressed form replacing the raw one) keeps a later touch', async () => {
      if (store.touch === undefined) return
      await store.put(hexId(12), enc('raw form'), testMeta(1_000_000))
      await store.touch(hexId(12), 5_000_000)
      await store.put(hexId(12), enc('packed'), testMeta(1_000_000))
      const info = (await collect(store.list())).find((b) => b.id === hexId(12))
      expect(info?.lastAccessAt).toBeGreaterThanOrEqual(5_000_000 - 1)
      expect(dec((await store.get(hexId(12)))!)).toBe('packed')
    })

    it('deleteIfIdle (when supported) keeps a blob used since the listing and removes one that was not', async () => {
      if (store.deleteIfIdle === undefined) return
      const id = hexId(11)
      await store.put(id, enc('lru'), testMeta(1_000_000))
      const listed = (await collect(store.list())).find((b) => b.id === id)!
      if (store.touch !== undefined) {
        await store.touch(id, listed.lastAccessAt + 10_000)
        expect(await store.deleteIfIdle(id, listed.lastAccessAt)).toBe(false)
        expect(await store.has(id)).toBe(true)
      }
      const now = (await collect(store.list())).find((b) => b.id === id)!
      expect(await store.deleteIfIdle(id, now.lastAccessAt)).toBe(true)
      expect(await store.has(id)).toBe(false)
      expect(await store.deleteIfIdle(id, now.lastAccessAt)).toBe(true) // absent: nothing to keep
    })

    it('holds encrypted spills (encryption: { key }): the same answers, no plaintext stored, nothing without the key', async () => {
      const key = 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=' // 32 bytes, base64
      const text = Array.from({ length: 12_000 }, (_, i) => `row ${i} conformance-secret-${i % 7} ok`).join('\n')
      const s = { sessionId: 'conformance' }
      const sw = createSpillway({ store, maxChars: 2000, encryption: { key } })
      const { handle } = await sw.handle({ tool: 'terminal', result: text, ...s })
      await sw.dispose()
      const id = handle!.id
      expect(new TextDecoder().decode(await store.get(id))).not.toContain('conformance-secret')
      // A store without a session index keeps entries in the spillway that wrote them: read with that one.
      const reader = store.getEntry !== undefined ? createSpillway({ store, maxChars: 2000, encryption: { key } }) : sw
      const r = await reader.fetch({ id, mode: 'range', start: 6001, count: 2 }, s)
      expect(r.text).toContain('row 6000 conformance-secret-1 ok\nrow 6001 conformance-secret-2 ok')
      const g = await reader.fetch({ id, mode: 'grep', pattern: 'row 11999 ' }, s)
      expect(g.text).toContain('12000: row 11999 conformance-secret-1 ok')
      if (store.getEntry !== undefined) expect((await createSpillway({ store, maxChars: 2000 }).fetch({ id, mode: 'stat' }, s)).text).toMatch(/encrypted at rest.*SPILLWAY_KEY/)
    })

    describe('getRange (when supported)', () => {
      it('returns exactly bytes [start, end) of what was put, shorter at the end, empty past it', async () => {
        if (store.getRange === undefined) return
        const id = hexId(20)
        expect(await store.getRange(id, 0, 10)).toBeUndefined()
        const big = new Uint8Array(1_000_003)
        for (let i = 0; i < big.length; i++) big[i] = (i * 31 + 7) & 255
        await store.put(id, big, testMeta())
        for (const [a, b] of [[0, 16], [16, 4096], [999_990, 1_000_003], [500_000, 500_001], [0, 1_000_003]] as const) {
          const got = await store.getRange(id, a, b)
          expect(got?.length, `${a}-${b}`).toBe(b - a)
          expect(got!.every((x, i) => x === big[a + i]), `${a}-${b}`).toBe(true)
        }
        expect((await store.getRange(id, 999_999, 2_000_000))?.length).toBe(4)
        expect((await store.getRange(id, 2_000_000, 2_000_010))?.length).toBe(0)
        await store.put(hexId(21), new Uint8Array(0), testMeta())
        expect((await store.getRange(hexId(21), 0, 16))?.length).toBe(0)
      })

      it('refuses malformed ids', async () => {
        if (store.getRange === undefined) return
        for (const id of HOSTILE_IDS) await expectInvalidId(store.getRange(id, 0, 1))
      })

      it('each call sees the bytes of one put while the value is rewritten', async () => {
        if (store.getRange === undefined) return
        const id = hexId(22)
        const a = new Uint8Array(300_000).fill(0x61)
        const b = new Uint8Array(300_000).fill(0x62)
        await store.put(id, a, testMeta())
        const reads = async (): Promise<void> => {
          for (let i = 0; i < 30; i++) {
            const got = await store.getRange!(id, 1_000, 200_000)
            expect(got?.length).toBe(199_000)
            expect(got!.every((x) => x === got![0])).toBe(true)
          }
        }
        const writes = async (): Promise<void> => {
          for (let i = 0; i < 30; i++) await store.put(id, i % 2 ? a : b, testMeta())
        }
        await Promise.all([reads(), writes(), reads()])
      })
    })

    describe('session index (when supported)', () => {
      const supported = (): boolean => store.putEntry !== undefined && store.getEntry !== undefined && store.deleteEntry !== undefined && store.listEntries !== undefined

      it('keeps entries per session, never across sessions', async () => {
        if (!supported()) return
        await store.putEntry!('alice', entry(hexId(10)))
        await store.putEntry!('bob', entry(hexId(11), { tool: 'grep' }))
        expect(await store.getEntry!('alice', hexId(10))).toEqual(entry(hexId(10)))
        expect(await store.getEntry!('bob', hexId(10))).toBeUndefined()
        expect(await store.getEntry!('alice', hexId(11))).toBeUndefined()
        expect((await collect(store.listEntries!('alice'))).map((e) => [e.sessionId, e.entry.id])).toEqual([['alice', hexId(10)]])
        const all = (await collect(store.listEntries!())).map((e) => `${e.sessionId}:${e.entry.id}`).sort()
        expect(all).toEqual([`alice:${hexId(10)}`, `bob:${hexId(11)}`])
      })

      it('replaces an entry (tombstone mark) and deletes it', async () => {
        if (!supported()) return
        await store.putEntry!('s', entry(hexId(12)))
        await store.putEntry!('s', entry(hexId(12), { goneAt: 42 }))
        expect((await store.getEntry!('s', hexId(12)))?.goneAt).toBe(42)
        expect(await collect(store.listEntries!('s'))).toHaveLength(1)
        await store.deleteEntry!('s', hexId(12))
        await store.deleteEntry!('s', hexId(12))
        expect(await store.getEntry!('s', hexId(12))).toBeUndefined()
      })

      it('treats path-like session names as plain names, each isolated', async () => {
        if (!supported()) return
        const names = ['../../etc', '..', '.', 'a/b', 'a\\b', 'C:\\x', '%2e%2e', 'ü ñ 😀', 'blobs', 'x'.repeat(128)]
        for (const [i, s] of names.entries()) await store.putEntry!(s, entry(hexId(200 + i)))
        for (const [i, s] of names.entries()) {
          const own = await collect(store.listEntries!(s))
          expect(own.map((e) => [e.sessionId, e.entry.id])).toEqual([[s, hexId(200 + i)]])
        }
        expect(await collect(store.listEntries!())).toHaveLength(names.length)
        expect(await collect(store.list())).toHaveLength(0) // no entry leaked into the blob space
      })

      it('refuses malformed session names and ids', async () => {
        if (!supported()) return
        for (const s of ['', 'x'.repeat(129), 'a\nb', 'a\0b']) await expectInvalidId(store.putEntry!(s, entry(hexId(13))))
        for (const id of HOSTILE_IDS) {
          await expectInvalidId(store.putEntry!('s', entry(id)))
          await expectInvalidId(store.getEntry!('s', id))
        }
      })
    })

    usageTests(() => store, opts)

    opts.additionalTests?.(() => store)
  })
}
