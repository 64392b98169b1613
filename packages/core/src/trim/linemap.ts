/**
 * Line maps: which lines of the original a filtered text's lines stand for. Filters that only
 * merge runs of consecutive lines (exact dedup, blank-run collapse) keep line order, so the map
 * is one ascending number per output line, and the fitter can number kept lines, and report
 * omitted ranges, in the original's line numbers.
 */
import type { LineRange } from './types.js'

/** How the lines of a filtered text relate to the lines of the text it was made from. */
export interface LineMap {
  /**
   * `starts[i]` is the 1-based line of the source where line `i + 1` of the filtered text
   * begins; strictly ascending, `starts[0] === 1`. Line `i + 1` stands for source lines
   * `starts[i]` .. `starts[i + 1] - 1` (the last one up to `lines`).
   */
  starts: readonly number[]
  /** The source text: the original (or its line view), whose lines the numbers are. */
  source: string
  /** Line count of `source` (as `countLines`). */
  lines: number
  /** Salient lines of `source` (1-based, ascending), for the marker's count. */
  salient: readonly number[]
}

/** First source line behind filtered line `n` (1-based). */
export function firstLine(map: LineMap, n: number): number {
  return map.starts[n - 1] ?? map.lines
}

/** Last source line behind filtered line `n` (1-based). */
export function lastLine(map: LineMap, n: number): number {
  const next = map.starts[n]
  return next !== undefined ? next - 1 : map.lines
}

/**
 * True when `starts` is a usable map from a text of `outLines` lines to one of `inLines`:
 * one entry per line, integers strictly ascending from 1, none past `inLines`. A filter's map
 * that fails this is ignored (its output is then treated like any line-rewriting filter's).
 */
export function validStarts(starts: readonly unknown[], outLines: number, inLines: number): starts is readonly number[] {
  if (starts.length !== outLines || (outLines > 0 && starts[0] !== 1)) return false
  let prev = 0
  for (const s of starts) {
    if (typeof s !== 'number' || !Number.isInteger(s) || s <= prev || s > inLines) return false
    prev = s
  }
  return true
}

/** `outer` applied after `inner`: for each line of the outer text, the first line of the inner text's source. */
export function composeStarts(inner: readonly number[], outer: readonly number[]): number[] {
  return outer.map((s) => inner[s - 1] ?? inner[inner.length - 1] ?? 1)
}

/** Start offsets of every line of `text`, plus `text.length` at the end (so line `n` is `[o[n-1], o[n])`). */
export function lineOffsets(text: string): number[] {
  const out = [0]
  for (let i = text.indexOf('\n'); i !== -1 && i + 1 < text.length; i = text.indexOf('\n', i + 1)) out.push(i + 1)
  out.push(text.length)
  return out
}

/**
 * A function mapping ranges of the filtered text to the source: lines through {@link firstLine} /
 * {@link lastLine}, chars as the source span's length minus what the excerpt kept of the
 * filtered span (so a merged run `x (x3000)` left out counts all 3000 lines' chars). Builds the
 * two offset tables once (linear), then answers each range in constant time.
 */
export function rangeMapper(map: LineMap, filtered: string): (r: LineRange) => LineRange {
  const src = lineOffsets(map.source)
  const flt = lineOffsets(filtered)
  const at = (o: number[], n: number): number => o[Math.min(Math.max(0, n), o.length - 1)]!
  return (r) => {
    const start = firstLine(map, r.start)
    const end = Math.max(start, lastLine(map, r.end))
    const kept = Math.max(0, at(flt, r.end) - at(flt, r.start - 1) - r.chars)
    return { start, end, chars: Math.max(0, at(src, end) - at(src, start - 1) - kept) }
  }
}
