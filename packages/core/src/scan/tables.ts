/**
 * The wasm scanner's tables for one literal set (layout in `literals.wat`): Teddy nibble masks
 * over the first 1-3 bytes of each literal, up to 8 buckets, and the literals for exact
 * verification. Pure: built once per set, copied into the module's memory before a scan.
 */

/** Offsets and limits of the module's memory layout (see `literals.wat`). */
export const LAYOUT = {
  buckets: 128,
  entries: 256,
  literalBytes: 65536,
  hits: 131072,
  text: 196608,
  /** Bytes read past the end of a chunk's text (unaligned 16-byte loads at +0..+2). */
  slack: 32,
  /** Hits one call can write. */
  hitCap: 8192,
} as const

/** Most literals and literal bytes the tables hold; a bigger set is scanned by the JS path. */
export const MAX_WASM_LITERALS = Math.floor((LAYOUT.literalBytes - LAYOUT.entries) / 12)
export const MAX_WASM_LITERAL_BYTES = LAYOUT.hits - LAYOUT.literalBytes

/** The bytes to copy to offset 0 (`head`) and to {@link LAYOUT}.literalBytes (`bytes`). */
export interface WasmTables {
  head: Uint8Array
  bytes: Uint8Array
}

const isLetter = (c: number): boolean => (c | 32) >= 97 && (c | 32) <= 122
const fold = (c: number, ignoreCase: boolean): number => (ignoreCase && isLetter(c) ? c | 32 : c)

/**
 * Bucket of each literal: the distinct first bytes (as the masks see them) in order, cut into up
 * to 8 runs of neighbours, so a bucket's first bytes share their high nibble and its masks
 * admit few other bytes; a first byte shared by many literals still takes one bucket.
 */
function buckets(literals: readonly string[], ignoreCase: boolean): number[] {
  const first = literals.map((l) => maskByte(l.charCodeAt(0), ignoreCase))
  const distinct = [...new Set(first)].sort((a, b) => a - b)
  const count = Math.min(8, distinct.length)
  const bucketOfByte = new Map(distinct.map((b, rank) => [b, Math.floor((rank * count) / distinct.length)]))
  return first.map((b) => bucketOfByte.get(b)!)
}

/** A literal byte as the masks hold it: ORed with 0x20 when folding (the scan folds text bytes so). */
const maskByte = (c: number, ignoreCase: boolean): number => (ignoreCase ? c | 32 : c)

/** Tables of `literals` (ASCII, non-empty, at most {@link MAX_WASM_LITERALS}; checked by the caller). */
export function buildTables(literals: readonly string[], ignoreCase: boolean): WasmTables {
  const fingerprint = Math.min(3, ...literals.map((l) => l.length))
  const bucketOf = buckets(literals, ignoreCase)
  const head = new Uint8Array(LAYOUT.entries + 12 * literals.length)
  const view = new DataView(head.buffer)
  for (let k = fingerprint; k < 3; k++) head.fill(0xff, 32 * k, 32 * k + 32)
  literals.forEach((l, i) => {
    const bit = 1 << bucketOf[i]!
    for (let k = 0; k < fingerprint; k++) {
      const v = maskByte(l.charCodeAt(k), ignoreCase)
      head[32 * k + (v & 15)]! |= bit
      head[32 * k + 16 + (v >> 4)]! |= bit
    }
  })
  const bytes = new Uint8Array(literals.reduce((s, l) => s + l.length, 0))
  const offsets: number[] = []
  let at = 0
  literals.forEach((l, i) => {
    offsets[i] = LAYOUT.literalBytes + at
    for (let k = 0; k < l.length; k++) bytes[at++] = fold(l.charCodeAt(k), ignoreCase)
  })
  let entry = 0
  for (let b = 0; b < 8; b++) {
    view.setInt32(LAYOUT.buckets + 8 * b, entry, true)
    let count = 0
    literals.forEach((l, i) => {
      if (bucketOf[i] !== b) return
      const e = LAYOUT.entries + 12 * (entry + count++)
      view.setInt32(e, offsets[i]!, true)
      view.setInt32(e + 4, l.length, true)
      view.setInt32(e + 8, i, true)
    })
    view.setInt32(LAYOUT.buckets + 8 * b + 4, count, true)
    entry += count
  }
  return { head, bytes }
}
