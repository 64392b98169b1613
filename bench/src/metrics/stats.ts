/** The q-quantile (0..1) of numbers, nearest-rank on the sorted copy; NaN for none. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))
  return sorted[idx]!
}

/** Median (upper median for an even count, like nearest-rank). */
export const median = (values: readonly number[]): number => quantile(values, 0.5)

/** Arithmetic mean; NaN for none. */
export function mean(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN
  let s = 0
  for (const v of values) s += v
  return s / values.length
}
