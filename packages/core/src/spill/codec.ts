import { deflateSync, inflateSync } from 'fflate'

// Envelope of every stored blob: "SW" | version 1 | codec | 32-byte SHA-256 | payload.
// The hash travels with the bytes, so any store (even one that drops `meta`) lets us verify reads.
const V = 1
const RAW = 0
const DEFLATE = 1
const HEAD = 4 + 32

/**
 * fflate level 1: on the corpus logs + JSON (81 files, 12.3 MB) it compresses 7.2x at ~130 MB/s;
 * level 6 gains 13% size for 1.7x the time on every spill (see spill/README.md).
 */
export const COMPRESSION_LEVEL = 1

/** Results shorter than this are stored raw: deflate saves nothing worth its header there. */
const MIN_COMPRESS_BYTES = 512

/** Wraps the UTF-8 bytes of a result with its hash, compressed when asked. */
export function encodeEnvelope(utf8: Uint8Array, sha256: string, compress: boolean): Uint8Array {
  const packed = compress && utf8.length >= MIN_COMPRESS_BYTES ? deflateSync(utf8, { level: COMPRESSION_LEVEL }) : undefined
  const payload = packed !== undefined && packed.length < utf8.length ? packed : utf8
  const out = new Uint8Array(HEAD + payload.length)
  out[0] = 0x53
  out[1] = 0x57
  out[2] = V
  out[3] = payload === utf8 ? RAW : DEFLATE
  for (let i = 0; i < 32; i++) out[4 + i] = parseInt(sha256.slice(i * 2, i * 2 + 2), 16)
  out.set(payload, HEAD)
  return out
}

/** The SHA-256 recorded in an envelope, or `undefined` when `data` is not one. */
export function envelopeHash(data: Uint8Array): string | undefined {
  if (data.length < HEAD || data[0] !== 0x53 || data[1] !== 0x57 || data[2] !== V) return undefined
  let hex = ''
  for (let i = 4; i < HEAD; i++) hex += data[i]!.toString(16).padStart(2, '0')
  return hex
}

/** The UTF-8 bytes inside an envelope, or `undefined` when it is malformed. The caller verifies the hash. */
export function openEnvelope(data: Uint8Array): { sha256: string; utf8: Uint8Array } | undefined {
  const sha256 = envelopeHash(data)
  if (sha256 === undefined) return undefined
  const payload = data.subarray(HEAD)
  try {
    if (data[3] === RAW) return { sha256, utf8: payload }
    if (data[3] === DEFLATE) return { sha256, utf8: inflateSync(payload) }
  } catch {
    // corrupt deflate stream
  }
  return undefined
}
