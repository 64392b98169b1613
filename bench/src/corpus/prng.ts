/** A seeded PRNG (mulberry32): same seed, same sequence, on every machine. */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number
  /** Integer in [lo, hi] inclusive. */
  int(lo: number, hi: number): number
  pick<T>(items: readonly T[]): T
}

/** Creates a {@link Rng} from a 32-bit seed. */
export function createRng(seed: number): Rng {
  let a = seed >>> 0
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (lo: number, hi: number): number => lo + Math.floor(next() * (hi - lo + 1))
  return { next, int, pick: (items) => items[int(0, items.length - 1)]! }
}
