import { SpillwayError } from '../errors.js'
import type { Embedder, PersistedVectors } from './types.js'

/** Texts sent to the embedder per call when building an index. Range >= 1. */
export const DEFAULT_EMBED_BATCH = 64

/** Unit-length copy, so cosine similarity is a dot product. A zero vector stays zero. */
export function normalize(v: ArrayLike<number>): Float32Array {
  let sum = 0
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!
  const out = new Float32Array(v.length)
  const inv = sum > 0 && Number.isFinite(sum) ? 1 / Math.sqrt(sum) : 0
  for (let i = 0; i < v.length; i++) out[i] = v[i]! * inv
  return out
}

/** Dot product of two equal-length vectors (cosine for unit vectors). */
export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!
  return s
}

/** Calls the embedder and checks it returned one finite vector of `dims` (or any, if undefined) per text. */
export async function embedChecked(embedder: Embedder, texts: string[], dims: number | undefined): Promise<Float32Array[]> {
  const out = await embedder(texts)
  if (!Array.isArray(out) || out.length !== texts.length) {
    throw new SpillwayError('invalid_argument', `embedder returned ${Array.isArray(out) ? out.length : 'no'} vectors for ${texts.length} texts`)
  }
  const vectors = out.map((v) => normalize(v))
  const want = dims ?? vectors[0]?.length
  for (const v of vectors) {
    if (v.length === 0 || v.length !== want) throw new SpillwayError('invalid_argument', `embedder returned vectors of mixed or zero length (${v.length}, expected ${want})`)
  }
  return vectors
}

/** Result of {@link embedTools}: one unit vector per tool, and how many were embedded afresh. */
export interface ToolVectors {
  vectors: Float32Array[]
  dims: number
  embedded: number
}

/**
 * One vector per tool: reused from `persisted` when the tool's checksum and the embedder id match,
 * embedded in batches otherwise. Only tools that changed cost an embedder call.
 */
export async function embedTools(
  texts: readonly string[],
  checksums: readonly string[],
  embedder: Embedder,
  embedderId: string,
  persisted: PersistedVectors | undefined,
  batch: number = DEFAULT_EMBED_BATCH,
): Promise<ToolVectors> {
  const usable = persisted !== undefined && persisted.version === 1 && persisted.embedderId === embedderId
  let dims = usable ? persisted.dims : undefined
  const vectors: Array<Float32Array | undefined> = checksums.map((c) => {
    const v = usable ? persisted.vectors[c] : undefined
    return Array.isArray(v) && v.length === dims ? normalize(v) : undefined
  })
  const missing = vectors.flatMap((v, i) => (v === undefined ? [i] : []))
  for (let start = 0; start < missing.length; start += Math.max(1, batch)) {
    const ids = missing.slice(start, start + Math.max(1, batch))
    const got = await embedChecked(embedder, ids.map((i) => texts[i]!), dims)
    dims ??= got[0]?.length
    ids.forEach((i, j) => (vectors[i] = got[j]))
  }
  return { vectors: vectors.map((v) => v ?? new Float32Array(dims ?? 0)), dims: dims ?? 0, embedded: missing.length }
}

/** Vectors as plain JSON, keyed by tool checksum. */
export function exportToolVectors(checksums: readonly string[], vectors: readonly Float32Array[], dims: number, embedderId: string): PersistedVectors {
  const out: Record<string, number[]> = {}
  checksums.forEach((c, i) => (out[c] = Array.from(vectors[i] ?? [])))
  return { version: 1, embedderId, dims, vectors: out }
}
