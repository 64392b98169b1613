/** Line lookups by offset, shared by the fitter and the middle picker. */

/** A line of the text: its 1-based number and its offsets. */
export interface Line {
  n: number
  start: number
  /** End offset, excluding the `\n` (and a `\r` before it). */
  end: number
}

/** Bounds of the line starting at `start`. */
export function lineAt(text: string, n: number, start: number): Line {
  const nl = text.indexOf('\n', start)
  let end = nl === -1 ? text.length : nl
  if (end > start && text.charCodeAt(end - 1) === 13) end--
  return { n, start, end }
}

/** Start offset of the line before the one starting at `start` (which must be > 0). */
export const prevStart = (text: string, start: number): number => text.lastIndexOf('\n', start - 2) + 1

/** Offset just past the line's `\n`, or the text length. */
export function nextStart(text: string, start: number): number {
  const nl = text.indexOf('\n', start)
  return nl === -1 ? text.length : nl + 1
}

/** True when `text[from, to)` is one blank line: spaces, tabs or a `\r`, then its `\n` as the span's last char. */
export function isBlankLine(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i)
    if (c === 10) return i === to - 1
    if (c !== 32 && c !== 9 && c !== 13) return false
  }
  return false
}
