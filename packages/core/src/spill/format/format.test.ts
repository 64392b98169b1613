import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { memoryStore } from '../../store/memory.js'
import { countLines } from '../../trim/text.js'
import { deflateSync } from 'fflate'
import { fflateInflateForTests } from './codec.js'
import { buildBlob, chunkEnds, compactBlob, openBlob, verifyAll } from './index.js'
import { MAX_CHUNK_CHARS, encodeHeader, type Manifest } from './layout.js'
import { encodeLegacyEnvelope, openLegacyEnvelope } from './legacy.js'
import { xxh } from './xxh.js'

const textArb = fc
  .array(fc.oneof(fc.constantFrom('a', 'line\n', '\r', '\r\n', '\n', '\0', 'é', '😀', '\ud800', '\udc00', ' '), fc.string({ unit: 'binary', maxLength: 4 })), { maxLength: 200 })
  .map((a) => a.join(''))

async function roundTrip(text: string, chunkChars: number, compact: boolean): Promise<string> {
  const built = await buildBlob({ text }, chunkChars)
  const store = memoryStore()
  const id = built.sha256.slice(0, 12)
  await store.put(id, compact ? (await compactBlob(built)).bytes : built.bytes, { sha256: built.sha256, tool: 't', kind: 'text', chars: 0, lines: 0, createdAt: 0 })
  const o = await openBlob(store, id, () => undefined)
  if (o.status !== 'ok') throw new Error(o.status)
  expect(await verifyAll(o.blob)).toBe(true)
  expect(o.blob.manifest.raw.lines).toBe(countLines(text))
  expect(o.blob.manifest.raw.chars).toBe(text.length)
  const parts: string[] = []
  for (let k = 0; k < o.blob.manifest.raw.chunks.length; k++) parts.push(await o.blob.chunkText(o.blob.manifest.raw, k))
  return parts.join('')
}

describe('chunked blob format', () => {
  it('chunk ends cover the text, in order, never between the halves of a surrogate pair', () => {
    fc.assert(
      fc.property(textArb, fc.integer({ min: 2, max: 40 }), (text, target) => {
        const ends = chunkEnds(text, target)
        let prev = 0
        for (const e of ends) {
          expect(e).toBeGreaterThan(prev)
          const hi = text.charCodeAt(e - 1)
          const lo = text.charCodeAt(e)
          expect(hi >= 0xd800 && hi <= 0xdbff && lo >= 0xdc00 && lo <= 0xdfff).toBe(false)
          prev = e
        }
        expect(prev).toBe(text.length)
      }),
    )
  })

  it('gives back every char of any text (\\r, NUL, pairs; lone surrogates as U+FFFD, as UTF-8 must), raw or compressed, in any chunking', async () => {
    await fc.assert(
      fc.asyncProperty(textArb, fc.integer({ min: 2, max: 64 }), fc.boolean(), async (text, chunkChars, compact) => {
        expect(await roundTrip(text, chunkChars, compact)).toBe(text.toWellFormed())
      }),
      { numRuns: 150 },
    )
  })

  it('reads of many chunks of one open blob at once each get their own bytes (the shared inflate buffer is never written twice at once)', async () => {
    const text = Array.from({ length: 20_000 }, (_, i) => `line ${i} value=${(i * 7919) % 100003} padding ok`).join('\n')
    const built = await buildBlob({ text }, 16_384)
    const store = memoryStore() // no codec of its own: the portable, asynchronous native inflate
    const id = built.sha256.slice(0, 12)
    await store.put(id, (await compactBlob(built)).bytes, { sha256: built.sha256, tool: 't', kind: 'text', chars: 0, lines: 0, createdAt: 0 })
    const o = await openBlob(store, id, () => undefined)
    if (o.status !== 'ok') throw new Error(o.status)
    const s = o.blob.manifest.raw
    expect(s.chunks.length).toBeGreaterThan(20)
    expect(s.chunks.every((c) => c.z !== 0)).toBe(true)
    for (let round = 0; round < 3; round++) {
      const texts = await Promise.all(s.chunks.map((_, k) => o.blob.chunkText(s, k)))
      expect(texts.join('')).toBe(text)
      const bytes = await Promise.all(s.chunks.map((_, k) => o.blob.chunkBytes(s, k)))
      expect(new TextDecoder().decode(Uint8Array.from(bytes.flatMap((b) => [...b])))).toBe(text)
    }
  })

  it('the id is the SHA-256 of the UTF-8 text, as before', async () => {
    const text = 'hello\nworld\n'.repeat(1000)
    const built = await buildBlob({ text }, 1000)
    const sha = Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))).toString('hex')
    expect(built.sha256).toBe(sha)
    expect(built.manifest.raw.chunks.length).toBeGreaterThan(10)
  })

  it('reports a damaged manifest or chunk instead of serving it', async () => {
    const built = await buildBlob({ text: 'x'.repeat(5000) + '\n' + 'y'.repeat(5000) }, 1024)
    const id = built.sha256.slice(0, 12)
    const meta = { sha256: built.sha256, tool: 't', kind: 'text' as const, chars: 0, lines: 0, createdAt: 0 }
    const store = memoryStore()
    const chunkFlip = built.bytes.slice()
    chunkFlip[20] = chunkFlip[20]! ^ 1 // inside the first chunk
    await store.put(id, chunkFlip, meta)
    const o = await openBlob(store, id, () => undefined)
    expect(o.status).toBe('ok') // the manifest is fine ...
    if (o.status === 'ok') {
      await expect(o.blob.chunkText(o.blob.manifest.raw, 0)).rejects.toThrow(/chunk 0 fails its checksum/) // ... the chunk is not
      expect(await o.blob.chunkText(o.blob.manifest.raw, 1)).toMatch(/^x+$/) // others still read
    }
    const manifestFlip = built.bytes.slice()
    manifestFlip[manifestFlip.length - 5] = manifestFlip[manifestFlip.length - 5]! ^ 1
    await store.put(id, manifestFlip, meta)
    expect(await openBlob(store, id, () => undefined)).toEqual({ status: 'damaged', reason: 'its manifest is truncated or fails its checksum' })
    await store.put(id, built.bytes.slice(0, built.bytes.length - 100), meta)
    expect((await openBlob(store, id, () => undefined)).status).toBe('damaged')
  })
})

/** `built` with its manifest replaced by `edit(manifest)`, header and checksum rewritten (a forger who knows the format). */
async function forged(built: Awaited<ReturnType<typeof buildBlob>>, edit: (m: Manifest) => void): Promise<Uint8Array> {
  const h = await xxh()
  const at = new DataView(built.bytes.buffer, built.bytes.byteOffset).getUint32(4, true)
  const m = JSON.parse(new TextDecoder().decode(built.bytes.subarray(at))) as Manifest
  edit(m)
  const region = new TextEncoder().encode(JSON.stringify(m))
  const out = new Uint8Array(at + region.length)
  out.set(built.bytes.subarray(0, at))
  out.set(region, at)
  encodeHeader(out, at, region.length, h.h32Raw(region))
  return out
}

describe('a forged or damaged manifest cannot make a reader allocate or inflate past what a chunk holds', () => {
  const meta = (sha256: string) => ({ sha256, tool: 't', kind: 'text' as const, chars: 0, lines: 0, createdAt: 0 })
  const text = Array.from({ length: 400 }, (_, i) => `line ${i} ${'abc '.repeat(i % 7)}`).join('\n')

  it('refuses sizes that do not fit together, before reading a chunk', async () => {
    const built = await compactBlob(await buildBlob({ text }, 1024))
    const id = built.sha256.slice(0, 12)
    const edits: Array<[string, (m: Manifest) => void]> = [
      ['a 1.2 GB inflated size', (m) => (m.raw.chunks[0]!.b = 1.2e9)],
      ['more bytes than 3 per char', (m) => (m.raw.chunks[0]!.b = m.raw.chunks[0]!.l * 3 + 1)],
      ['a chunk over the largest a writer makes', (m) => ((m.raw.chunks[0]!.l = MAX_CHUNK_CHARS + 1), (m.raw.chunks[0]!.b = MAX_CHUNK_CHARS + 1))],
      ['a raw chunk stored in other than its size', (m) => ((m.raw.chunks[0]!.z = 0), (m.raw.chunks[0]!.n = m.raw.chunks[0]!.b - 1))],
      ['a line count that does not follow the newlines', (m) => (m.raw.lines += 5)],
    ]
    for (const [what, edit] of edits) {
      const store = memoryStore()
      await store.put(id, await forged(built, edit), meta(built.sha256))
      expect(await openBlob(store, id, () => undefined), what).toEqual({ status: 'damaged', reason: 'its manifest is malformed' })
    }
    // The unedited manifest passes the same checks.
    const store = memoryStore()
    await store.put(id, await forged(built, () => undefined), meta(built.sha256))
    expect((await openBlob(store, id, () => undefined)).status).toBe('ok')
  })

  it('checks each chunk\'s newline count when it is read (the line index trusts it)', async () => {
    const built = await buildBlob({ text }, 1024)
    const id = built.sha256.slice(0, 12)
    const store = memoryStore()
    // Move one newline from chunk 0 to chunk 1: totals still add up, so only reading finds it.
    await store.put(id, await forged(built, (m) => ((m.raw.chunks[0]!.nc -= 1), (m.raw.chunks[1]!.nb -= 1), (m.raw.chunks[1]!.nc += 1))), meta(built.sha256))
    const o = await openBlob(store, id, () => undefined)
    expect(o.status).toBe('ok')
    if (o.status === 'ok') await expect(o.blob.chunkText(o.blob.manifest.raw, 0)).rejects.toThrow(/chunk 0 has the wrong number of lines/)
  })

  it('a version-1 payload that inflates past the cap is damaged, not inflated without end', async () => {
    const zeros = new Uint8Array(4 << 20)
    const sha = Buffer.from(await crypto.subtle.digest('SHA-256', zeros)).toString('hex')
    const v1 = encodeLegacyEnvelope(zeros, sha, true)
    expect(v1.length).toBeLessThan(64 * 1024) // 4 MiB of zeros deflate to a few KB
    expect(await openLegacyEnvelope(v1, 1 << 20)).toBeUndefined()
    expect((await openLegacyEnvelope(v1))?.utf8.length).toBe(4 << 20) // under the default cap it reads
  })

  it('the fflate path (runtimes without DecompressionStream) refuses past the size and reads exact sizes', () => {
    const raw = new TextEncoder().encode(text.repeat(20))
    const z = deflateSync(raw, { level: 1 })
    expect(fflateInflateForTests(z, raw.length)).toEqual(raw)
    expect(fflateInflateForTests(z, raw.length, new Uint8Array(raw.length + 1))).toEqual(raw)
    expect(() => fflateInflateForTests(z, raw.length - 1)).toThrow(/past its size/)
    const bomb = deflateSync(new Uint8Array(64 << 20))
    expect(() => fflateInflateForTests(bomb, 1 << 20)).toThrow(/past its size/)
  })
})
