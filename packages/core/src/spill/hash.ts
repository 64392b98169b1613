import { SpillwayError } from '../errors.js'

/** SHA-256 of `bytes` as 64 lower-case hex chars, with WebCrypto (Node 20, browsers, edge). */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const subtle = globalThis.crypto?.subtle
  if (subtle === undefined) throw new SpillwayError('store', 'WebCrypto (globalThis.crypto.subtle) is not available in this runtime')
  const digest = new Uint8Array(await subtle.digest('SHA-256', bytes))
  let hex = ''
  for (const b of digest) hex += b.toString(16).padStart(2, '0')
  return hex
}
