import { deflateSync } from 'fflate'
import { inflateBounded } from './codec.js'

// Format version 1 (before chunked blobs): "SW" | 0x01 | codec | 32-byte SHA-256 | payload, the
// payload the whole UTF-8 text, raw or one fflate deflate stream. Still read; no longer written.
const V1 = 1
const RAW = 0
const DEFLATE = 1
const HEAD = 4 + 32

/** True when `head` (a value's first bytes, 3 or more) starts like a version-1 envelope: "SW" 0x01. */
export function hasLegacyMagic(head: Uint8Array): boolean {
  return head[0] === 0x53 && head[1] === 0x57 && head[2] === V1
}

/** True when the first bytes are those of a version-1 envelope. */
export function isLegacyEnvelope(data: Uint8Array): boolean {
  return data.length >= HEAD && hasLegacyMagic(data)
}

/**
 * Most a version-1 payload may inflate to. The envelope does not say its size, so a damaged or
 * forged one (a few hundred KB of deflated zeros) could otherwise inflate to gigabytes; version-1
 * blobs were written for single tool results, far below this.
 */
export const LEGACY_MAX_BYTES = 256 * 1024 * 1024

/**
 * The SHA-256 and UTF-8 bytes inside a version-1 envelope, or `undefined` when it is malformed or
 * inflates past `max` bytes. The caller verifies the hash.
 */
export async function openLegacyEnvelope(data: Uint8Array, max = LEGACY_MAX_BYTES): Promise<{ sha256: string; utf8: Uint8Array } | undefined> {
  if (!isLegacyEnvelope(data)) return undefined
  let sha256 = ''
  for (let i = 4; i < HEAD; i++) sha256 += data[i]!.toString(16).padStart(2, '0')
  const payload = data.subarray(HEAD)
  try {
    if (data[3] === RAW) return { sha256, utf8: payload }
    if (data[3] === DEFLATE) return { sha256, utf8: await inflateBounded(payload, max) }
  } catch {
    // corrupt deflate stream, or past `max`
  }
  return undefined
}

/**
 * The version-1 encoder, kept only so tests can write a blob exactly as earlier releases did and
 * check that it stays readable. Not used to store anything.
 */
export function encodeLegacyEnvelope(utf8: Uint8Array, sha256: string, compress: boolean): Uint8Array {
  const packed = compress && utf8.length >= 512 ? deflateSync(utf8, { level: 1 }) : undefined
  const payload = packed !== undefined && packed.length < utf8.length ? packed : utf8
  const out = new Uint8Array(HEAD + payload.length)
  out.set([0x53, 0x57, V1, payload === utf8 ? RAW : DEFLATE])
  for (let i = 0; i < 32; i++) out[4 + i] = parseInt(sha256.slice(i * 2, i * 2 + 2), 16)
  out.set(payload, HEAD)
  return out
}
