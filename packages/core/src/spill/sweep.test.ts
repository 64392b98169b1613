import { describe, expect, it } from 'vitest'
import { memoryStore } from '../store/memory.js'
import type { BlobInfo, StorageAdapter } from '../store/types.js'
import { entryIndex } from './entries.js'
import { sweepStore } from './sweep.js'

const meta = (createdAt: number) => ({ sha256: '0'.repeat(64), tool: 't', kind: 'text' as const, chars: 0, lines: 0, createdAt })
const ID_X = 'aaaaaaaaaaaa'
const ID_Y = 'bbbbbbbbbbbb'

/** A store whose listing is taken, then `afterListing` runs (another process using a blob) before anyone acts on it. */
function staleListing(store: StorageAdapter, afterListing: () => Promise<void>): StorageAdapter {
  return {
    ...store,
    async *list(): AsyncIterable<BlobInfo> {
      const snapshot: BlobInfo[] = []
      for await (const b of store.list()) snapshot.push(b)
      await afterListing()
      yield* snapshot
    },
  }
}

describe('sweep acts on a listing taken earlier', () => {
  it('never evicts a blob touched after the listing (handed out as a duplicate meanwhile): the next least recent goes', async () => {
    const base = memoryStore()
    await base.put(ID_X, new Uint8Array(1000), meta(1)) // least recently used in the listing
    await base.put(ID_Y, new Uint8Array(1000), meta(2))
    const store = staleListing(base, async () => void (await base.touch!(ID_X, 10)))
    const report = await sweepStore(store, entryIndex(store), { now: 11, ttlHours: 1, tombstoneTtlHours: 1, maxStoreBytes: 1500 })
    expect(await base.has(ID_X)).toBe(true)
    expect(await base.has(ID_Y)).toBe(false)
    expect(report.removedIds).toEqual([ID_Y])
  })

  it('never expires a blob touched after the listing', async () => {
    const base = memoryStore()
    await base.put(ID_X, new Uint8Array(10), meta(1))
    const store = staleListing(base, async () => void (await base.touch!(ID_X, 7_200_000)))
    const report = await sweepStore(store, entryIndex(store), { now: 7_200_001, ttlHours: 1, tombstoneTtlHours: 1, maxStoreBytes: 1e9 })
    expect(report.expired).toBe(0)
    expect(await base.has(ID_X)).toBe(true)
  })
})
