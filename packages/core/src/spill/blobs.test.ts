import { describe, expect, it } from 'vitest'
import { memoryStore } from '../store/memory.js'
import { blobLayer } from './blobs.js'
import { portableCodec } from './format/codec.js'
import { encodeLegacyEnvelope } from './format/index.js'

const meta = { tool: 't', kind: 'text' as const, chars: 0, lines: 0, createdAt: 0 }
const text = (n: number, tag: string): string => Array.from({ length: n }, (_, i) => `${tag} line ${i} ok, compiled module-${i}.js`).join('\n')

describe('background compression', () => {
  it('compresses what fits the waiting bound and leaves the rest raw (valid, readable), never piling up', async () => {
    const store = memoryStore()
    const blobs = blobLayer(store, { compress: true, cacheChars: 1 << 20, maxQueuedBytes: 150_000 })
    // ~110 KB raw each: the first waits for compression, the second would pass the bound.
    const a = await blobs.write({ text: text(3000, 'a') }, meta)
    const b = await blobs.write({ text: text(3000, 'b') }, meta)
    await blobs.idle()
    const sizeOf = async (id: string): Promise<number> => (await store.get(id))!.length
    expect(await sizeOf(a.id)).toBeLessThan(a.added / 2) // compressed
    expect(await sizeOf(b.id)).toBe(b.added) // stayed raw
    for (const [w, tag] of [[a, 'a'], [b, 'b']] as const) {
      const o = await blobs.open(w.id)
      expect(o.status).toBe('ok')
      if (o.status === 'ok') expect(await o.reader.line(2999)).toBe(`${tag} line 2999 ok, compiled module-2999.js`)
    }
    // Once the queue drained, the next blob is compressed again.
    const c = await blobs.write({ text: text(3000, 'c') }, meta)
    await blobs.idle()
    expect(await sizeOf(c.id)).toBeLessThan(c.added / 2)
  })
})

describe('reads during background compression', () => {
  it('a blob waiting in the queue is read raw at once; only the blob being compressed is waited for', async () => {
    // A codec whose deflate holds until released: the first blob's compression "runs" forever.
    let release = (): void => undefined
    const gate = new Promise<void>((r) => (release = r))
    const held = { deflate: async (b: Uint8Array) => (await gate, portableCodec.deflate(b)), inflate: portableCodec.inflate }
    const store = Object.assign(memoryStore(), { codec: held })
    const blobs = blobLayer(store, { compress: true, cacheChars: 1 << 20 })
    const a = await blobs.write({ text: text(2000, 'a') }, meta)
    const b = await blobs.write({ text: text(2000, 'b') }, meta)
    // b waits behind a's compression, which holds until release(): an open that waited for the
    // queue would never resolve here (the test would time out).
    const openB = await blobs.open(b.id)
    expect(openB.status === 'ok' ? await openB.reader.line(1999) : openB.status).toBe('b line 1999 ok, compiled module-1999.js')
    // a is being compressed: its open waits for that blob's own work, then reads the compressed form.
    let aDone = false
    const openA = blobs.open(a.id).then((o) => {
      aDone = true
      return o.status === 'ok' ? o.reader.line(0) : o.status
    })
    await new Promise((r) => setTimeout(r, 20))
    expect(aDone).toBe(false)
    release()
    expect(await openA).toBe('a line 0 ok, compiled module-0.js')
    await blobs.idle()
    expect((await store.get(a.id))!.length).toBeLessThan(a.added / 2)
  })
})

describe('damaged blobs', () => {
  /** A memory store that counts whole-value reads. */
  const counting = () => {
    const store = memoryStore()
    let gets = 0
    const get = store.get.bind(store)
    return { store: Object.assign(store, { get: (id: string) => (gets++, get(id)) }), gets: () => gets }
  }

  it('a value of neither format is judged on its first bytes, never read whole', async () => {
    const { store, gets } = counting()
    const blobs = blobLayer(store, { compress: false, cacheChars: 1 << 20 })
    await store.put('abcdefabcdef', new Uint8Array(5_000_000).fill(7), { ...meta, sha256: '' })
    expect(await blobs.open('abcdefabcdef')).toEqual({ status: 'damaged', reason: 'it is not a blob' })
    expect(gets()).toBe(0)
  })

  it('a forged version-1 blob is judged once, then answered from memory until it is rewritten', async () => {
    const { store, gets } = counting()
    const blobs = blobLayer(store, { compress: false, cacheChars: 1 << 20 })
    const utf8 = new TextEncoder().encode('x'.repeat(200_000))
    // A version-1 envelope whose hash does not match its payload.
    const forged = encodeLegacyEnvelope(utf8, 'abcdefabcdef'.padEnd(64, '0'), true)
    await store.put('abcdefabcdef', forged, { ...meta, sha256: '' })
    for (let i = 0; i < 3; i++) expect((await blobs.open('abcdefabcdef')).status).toBe('damaged')
    expect(gets()).toBe(1)
    // Forgetting the id (a rewrite) reads it again.
    blobs.forget('abcdefabcdef')
    expect((await blobs.open('abcdefabcdef')).status).toBe('damaged')
    expect(gets()).toBe(2)
  })
})

describe('eviction during background compression', () => {
  it('a blob evicted between the compression\'s check and its put is not brought back', async () => {
    const store = memoryStore()
    let evictNow = false
    let blobs: ReturnType<typeof blobLayer> | undefined
    const has = store.has.bind(store)
    // The eviction lands right after the compression saw the raw blob still there.
    const racing = Object.assign(store, {
      has: async (id: string) => {
        const there = await has(id)
        if (there && evictNow) {
          evictNow = false
          await store.delete(id)
          blobs!.removed(id)
        }
        return there
      },
    })
    blobs = blobLayer(racing, { compress: true, cacheChars: 1 << 20 })
    const a = await blobs.write({ text: text(3000, 'a') }, meta)
    evictNow = true
    await blobs.idle()
    expect(await has(a.id)).toBe(false)
    expect(evictNow).toBe(false) // the race did happen
    // Written again (the tool re-run), it is stored and compressed as usual.
    const again = await blobs.write({ text: text(3000, 'a') }, meta)
    await blobs.idle()
    expect(await has(again.id)).toBe(true)
    expect((await store.get(again.id))!.length).toBeLessThan(again.added / 2)
  })
})
