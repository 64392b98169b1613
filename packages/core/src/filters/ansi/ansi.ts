import { lineSalience } from '../../trim/salient.js'

/**
 * ANSI escape sequences and carriage-return progress bars: one linear pass each, no regex.
 */

/**
 * `text` without ANSI escape sequences (CSI `ESC [ ... final`, OSC `ESC ] ... BEL|ESC \`, and
 * two-char `ESC X`), or `undefined` when it holds none. Keeps every line at its line number.
 */
export function stripAnsi(text: string): string | undefined {
  let i = text.indexOf('\x1b')
  if (i === -1) return undefined
  const out: string[] = []
  let from = 0
  while (i !== -1) {
    out.push(text.slice(from, i))
    let j = i + 1
    const c = text.charCodeAt(j)
    if (c === 91 /* [ */) {
      j++
      // parameter and intermediate bytes 0x20-0x3f, then one final byte 0x40-0x7e
      while (j < text.length) {
        const d = text.charCodeAt(j)
        if (d < 0x20 || d > 0x3f) break
        j++
      }
      if (j < text.length && text.charCodeAt(j) >= 0x40 && text.charCodeAt(j) <= 0x7e) j++
    } else if (c === 93 /* ] */) {
      // OSC: up to BEL or ESC \, never past the end of the line
      j++
      while (j < text.length) {
        const d = text.charCodeAt(j)
        if (d === 7) { j++; break }
        if (d === 27 && text.charCodeAt(j + 1) === 92) { j += 2; break }
        if (d === 10) break
        j++
      }
    } else if (j < text.length && c !== 10) {
      j++
    }
    from = j
    i = text.indexOf('\x1b', j)
  }
  out.push(text.slice(from))
  return out.join('')
}

/**
 * Lines rewritten in place with `\r` (progress bars, spinners) reduced to what a terminal shows
 * last: the final non-empty segment of each line, plus earlier segments that hold an error or
 * warning (kept, in order, separated by `\r`). A `\r` right before `\n` (CRLF) is kept.
 * Returns `undefined` when no line has a bare `\r`. Keeps every line at its line number.
 */
export function collapseProgress(text: string): string | undefined {
  let cr = text.indexOf('\r')
  while (cr !== -1 && text.charCodeAt(cr + 1) === 10) cr = text.indexOf('\r', cr + 1)
  if (cr === -1) return undefined
  const out: string[] = []
  let lineStart = 0
  let changed = false
  let nextCr = cr // first `\r` at or after `lineStart` (a cursor, so the whole pass stays linear)
  for (;;) {
    const nl = text.indexOf('\n', lineStart)
    const end = nl === -1 ? text.length : nl
    let bodyEnd = end
    if (bodyEnd > lineStart && text.charCodeAt(bodyEnd - 1) === 13) bodyEnd--
    if (nextCr !== -1 && nextCr < lineStart) nextCr = text.indexOf('\r', lineStart)
    const next = nl === -1 ? text.length : nl + 1
    if (nextCr !== -1 && nextCr < bodyEnd) {
      // the last segment with something in it, stepping back over empty ones
      let segEnd = bodyEnd
      let segStart = text.lastIndexOf('\r', bodyEnd - 1) + 1
      while (segStart === segEnd && segStart > lineStart) {
        segEnd = segStart - 1
        const prev = text.lastIndexOf('\r', segEnd - 1)
        segStart = prev >= lineStart ? prev + 1 : lineStart
      }
      // Earlier segments that report a problem stay too (a `\r` can end a real line, not only a frame).
      const kept: string[] = []
      let at = lineStart
      while (at < segStart - 1) {
        const cut = text.indexOf('\r', at)
        const seg = text.slice(at, cut)
        if (seg.length > 0 && lineSalience(seg) > 0) kept.push(seg)
        at = cut + 1
      }
      kept.push(text.slice(segStart, segEnd))
      out.push(kept.join('\r'), text.slice(bodyEnd, next))
      changed = true
    } else {
      out.push(text.slice(lineStart, next))
    }
    if (nl === -1 || next >= text.length) break
    lineStart = next
  }
  return changed ? out.join('') : undefined
}
