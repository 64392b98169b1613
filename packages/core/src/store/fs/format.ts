import type { BlobMeta } from '../types.js'

const MAGIC = 0x53505742 // "SPWB"

/** Header of a blob file. `bytes` lets a reader refuse a file that is not whole. */
export interface BlobHeader {
  v: 1
  bytes: number
  meta: BlobMeta
}

/** `SPWB` + u32 header length + header JSON, then the data: the two parts of a blob file (written one after the other, then renamed into place). */
export function blobFileParts(data: Uint8Array, meta: BlobMeta): [Uint8Array, Uint8Array] {
  const header = new TextEncoder().encode(JSON.stringify({ v: 1, bytes: data.length, meta } satisfies BlobHeader))
  const head = new Uint8Array(8 + header.length)
  const view = new DataView(head.buffer)
  view.setUint32(0, MAGIC)
  view.setUint32(4, header.length)
  head.set(header, 8)
  return [head, data]
}

/** Length of the header JSON, or `undefined` when the first 8 bytes are not a blob file's. */
export function headerLength(first8: Uint8Array): number | undefined {
  if (first8.length < 8) return undefined
  const view = new DataView(first8.buffer, first8.byteOffset, 8)
  if (view.getUint32(0) !== MAGIC) return undefined
  const n = view.getUint32(4)
  return n > 0 && n < 1 << 20 ? n : undefined
}

/** Parses a header; `undefined` when it is not one. */
export function parseHeader(bytes: Uint8Array): BlobHeader | undefined {
  try {
    const h = JSON.parse(new TextDecoder().decode(bytes)) as BlobHeader
    return h?.v === 1 && Number.isInteger(h.bytes) && typeof h.meta === 'object' && h.meta !== null ? h : undefined
  } catch {
    return undefined
  }
}

/** The data of a whole blob file, or `undefined` when the file is not whole or not a blob file. */
export function decodeBlobFile(file: Uint8Array): { data: Uint8Array; header: BlobHeader } | undefined {
  const n = headerLength(file.subarray(0, 8))
  if (n === undefined || file.length < 8 + n) return undefined
  const header = parseHeader(file.subarray(8, 8 + n))
  if (header === undefined || file.length !== 8 + n + header.bytes) return undefined
  return { data: file.subarray(8 + n), header }
}
