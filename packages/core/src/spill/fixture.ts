import { memoryStore } from '../store/memory.js'
import { bodyOf } from './blobs.js'
import { buildBlob, openBlob, DEFAULT_CHUNK_CHARS } from './format/index.js'
import { blobReader, chunkCache, type BlobReader } from './reader.js'
import { lineView } from '../trim/view.js'

/**
 * A {@link BlobReader} over `text` stored the way `handle` stores it (for tests of `range` / `grep`
 * that need no spillway): small `chunkChars` make every read cross chunk edges.
 */
export async function readerOf(text: string, chunkChars = DEFAULT_CHUNK_CHARS): Promise<BlobReader> {
  const built = await buildBlob({ text, body: bodyOf(text, lineView(text)) }, chunkChars)
  const store = memoryStore()
  const id = built.sha256.slice(0, 12)
  await store.put(id, built.bytes, { sha256: built.sha256, tool: 't', kind: 'text', chars: text.length, lines: 0, createdAt: 0 })
  const o = await openBlob(store, id, () => undefined)
  if (o.status !== 'ok') throw new Error(`fixture blob did not open: ${o.status}`)
  return blobReader(o.blob, chunkCache(1 << 20))
}
