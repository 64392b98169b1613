/**
 * The colour a tool gave a line, read before the `ansi` filter strips it: most tools print an
 * error in red (RSpec's and Cucumber's failures, Perl::Critic's violations, a shell's `The
 * command "x" failed`), often with no failure word on the line. The salience scan reads a red
 * line start itself (`shapes.ts`, 3) when it sees the colours; when the `ansi` filter has taken
 * them away from a text whose lines it kept one for one, {@link redLines} finds those lines in
 * the source and {@link raiseLines} gives them their score in the stripped text's scan.
 */
import { afterLinePrefix, redStart } from './shapes.js'
import type { LineScan, SalientLine } from './salient.js'

/** Spaces and tabs of indentation read before a line's colour code. */
const MAX_INDENT = 8
/** Chars of SGR codes {@link redStart} reads at a line's content start. */
const SGR_PROBE = 48

/**
 * 1-based numbers of the lines of `text` whose content (after a line prefix and at most
 * {@link MAX_INDENT} spaces) starts with a red foreground code and text in it (`shapes.ts`
 * redStart: `\x1b[31m`, `\x1b[1;31m`; not Docker's bright red stderr). Linear: a search for the
 * escape char, and a newline count up to each line that has one.
 */
export function redLines(text: string): number[] {
  const out: number[] = []
  let esc = text.indexOf('\x1b[')
  let line = 1
  let start = 0
  while (esc !== -1) {
    // the line that holds the escape: count the newlines before it
    let nl = text.indexOf('\n', start)
    while (nl !== -1 && nl < esc) {
      line++
      start = nl + 1
      nl = text.indexOf('\n', start)
    }
    const end = nl === -1 ? text.length : nl
    let i = afterLinePrefix(text, start, end)
    const from = i
    while (i < end && i - from < MAX_INDENT && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++
    if (i === esc && redStart(text, i, Math.min(end, i + SGR_PROBE))) out.push(line)
    if (nl === -1) break
    esc = text.indexOf('\x1b[', end)
  }
  return out
}

/**
 * `scan` of `text` with each line of `lines` (1-based, ascending) scored at least `score`: a
 * salient line's score raised, a line that was not salient added. Reads `text` up to the last
 * of them, once.
 */
export function raiseLines(text: string, scan: LineScan, lines: readonly number[], score: number): LineScan {
  if (lines.length === 0) return scan
  const byLine = new Map(scan.salient.map((s, k) => [s.line, k]))
  const salient: SalientLine[] = scan.salient.map((s) => ({ ...s }))
  let added = 0
  let line = 1
  let start = 0
  for (const n of lines) {
    if (n > scan.lines) break
    while (line < n) {
      const nl = text.indexOf('\n', start)
      if (nl === -1) return done()
      start = nl + 1
      line++
    }
    const k = byLine.get(n)
    if (k !== undefined) {
      salient[k]!.score = Math.max(salient[k]!.score, score)
      continue
    }
    const nl = text.indexOf('\n', start)
    let end = nl === -1 ? text.length : nl
    if (end > start && text.charCodeAt(end - 1) === 13) end--
    if (end > start) {
      salient.push({ line: n, start, end, score })
      added++
    }
  }
  return done()

  function done(): LineScan {
    if (added > 0) salient.sort((a, b) => a.line - b.line)
    return { lines: scan.lines, salient, salientTotal: scan.salientTotal + added }
  }
}
