import xxhash from 'xxhash-wasm'

type XXHashAPI = Awaited<ReturnType<typeof xxhash>>

let api: Promise<XXHashAPI> | undefined

/** The xxhash-wasm instance, instantiated once per process on first use. */
export function xxh(): Promise<XXHashAPI> {
  return (api ??= xxhash())
}

/** xxh64 of `bytes` as 16 lower-case hex chars (the per-chunk checksum of the blob format). */
export function xxh64Hex(h: XXHashAPI, bytes: Uint8Array): string {
  return h.h64Raw(bytes).toString(16).padStart(16, '0')
}
