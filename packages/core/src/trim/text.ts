/** Small string helpers shared by the fitter and the filters. All are surrogate-pair safe. */

const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff
const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff

/** A cut position at or before `i` that does not fall between the halves of a surrogate pair. */
export function safeEnd(text: string, i: number): number {
  if (i <= 0) return 0
  if (i >= text.length) return text.length
  return isHigh(text.charCodeAt(i - 1)) && isLow(text.charCodeAt(i)) ? i - 1 : i
}

/** A cut position at or after `i` that does not fall between the halves of a surrogate pair. */
export function safeStart(text: string, i: number): number {
  if (i <= 0) return 0
  if (i >= text.length) return text.length
  return isLow(text.charCodeAt(i)) && isHigh(text.charCodeAt(i - 1)) ? i + 1 : i
}

/** The first `n` code units of `text`, never ending on half a surrogate pair. */
export function headChars(text: string, n: number): string {
  return text.slice(0, safeEnd(text, n))
}

/** The last `n` code units of `text`, never starting on half a surrogate pair. */
export function tailChars(text: string, n: number): string {
  return n <= 0 ? '' : text.slice(safeStart(text, text.length - n))
}

/**
 * Lines as spillway counts them everywhere (trim markers, `fetch_result` ranges): split on `\n`;
 * a trailing `\n` does not open a new line; the empty string has 0 lines.
 */
export function countLines(text: string): number {
  if (text.length === 0) return 0
  let n = 0
  let i = -1
  while ((i = text.indexOf('\n', i + 1)) !== -1) n++
  return text.charCodeAt(text.length - 1) === 10 ? n : n + 1
}

/** `text` cut to `max` code units with a visible count of what was cut: `abc… [+123 chars]`. */
export function clipLine(text: string, max: number): string {
  if (text.length <= max) return text
  const note = (n: number): string => `… [+${n} chars]`
  let keep = Math.max(0, max - note(text.length).length)
  keep = safeEnd(text, keep)
  return text.slice(0, keep) + note(text.length - keep)
}
