/**
 * The colour a tool gave a line, read before the `ansi` filter strips it: most tools print an
 * error in red (RSpec's and Cucumber's failures, Perl::Critic's violations), often with no failure
 * word on the line. The salience scan reads a red
 * line start itself (`shapes.ts`, RED_SCORE) when it sees the colours; when the `ansi` filter has
 * taken them away from a text whose lines it kept one for one, {@link redLines} finds those lines
 * in the source and the scan of the stripped text scores them (`salient.ts` scanLines' `red`).
 */
import { afterLinePrefix, redStart } from './shapes.js'

/** Spaces and tabs of indentation read before a line's colour code. */
const MAX_INDENT = 8
/** Chars of SGR codes {@link redStart} reads at a line's content start. */
const SGR_PROBE = 48

/**
 * 1-based numbers of the lines of `text` whose content (after a line prefix and at most
 * {@link MAX_INDENT} spaces) starts with a red foreground code and text in it (`shapes.ts`
 * redStart: `\x1b[31m`, `\x1b[1;31m`; not Docker's bright-red stderr). A line a carriage return
 * overwrote is read from its last part, as a terminal and the `progress` filter show it (a red
 * spinner overwritten by a green `✔ db ready` is not red). Linear: a search for the escape char,
 * and a newline count up to each line that has one (each line read once).
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
    // (the part after the line's last carriage return, a `\r\n` ending aside)
    let cr = end - (end > start && text.charCodeAt(end - 1) === 13 ? 2 : 1)
    while (cr >= start && text.charCodeAt(cr) !== 13) cr--
    let i = cr >= start ? cr + 1 : afterLinePrefix(text, start, end)
    const from = i
    while (i < end && i - from < MAX_INDENT && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++
    if (text.charCodeAt(i) === 27 && redStart(text, i, Math.min(end, i + SGR_PROBE))) out.push(line)
    if (nl === -1) break
    esc = text.indexOf('\x1b[', end)
  }
  return out
}
