// A line a tool printed in red is salient (round 14 of issue 16): read from the colour codes by the
// scan when it sees them, and from the source when the `ansi` filter has stripped them.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { trimResult } from '../pipeline/trim-result.js'
import { raiseLines, redLines } from './colour.js'
import { scanLines } from './salient.js'
import { RED_SCORE, redStart, shapeScore } from './shapes.js'

const ESC = '\x1b'

describe('redStart (shapes.ts)', () => {
  it.each([
    [`${ESC}[31mX`, true],
    [`${ESC}[1;31mX`, true],
    [`${ESC}[31;1mX`, true],
    [`${ESC}[0;31mX`, true],
    [`${ESC}[1m${ESC}[31mX`, true],
    [`${ESC}[1;31;42mX`, true],
    [`${ESC}[38;5;196;31mX`, true], // a 256-colour foreground, then red
    [`${ESC}[31m  1) Calculator adds`, true], // indented text in red
    [`${ESC}[91mX`, false], // bright red: Docker's stderr
    [`${ESC}[32mX`, false],
    [`${ESC}[31m${ESC}[0mX`, false], // reset before the text
    [`${ESC}[38;5;31mX`, false], // colour 31 of the 256: a blue
    [`${ESC}[38;2;31;31;31mX`, false], // an RGB colour
    [`${ESC}[31m`, false], // no text: a colour set for the lines below
    [`${ESC}[31m   `, false],
    [`${ESC}[31m\r`, false],
    [`${ESC}[31`, false],
    [`${ESC}[mX`, false],
    ['X', false],
  ])('%j: %s', (s, red) => expect(redStart(s, 0, s.length)).toBe(red))

  it('gives a red line a failure word\'s score', () => {
    const line = `${ESC}[1;31mUse IO::Interactive::is_interactive() instead of -t at line 69, column 28.${ESC}[0m`
    expect(shapeScore(line, 0, line.length)).toBe(RED_SCORE)
    expect(scanLines(`ok\n${line}\nok\n`, true).salient.map((s) => [s.line, s.score])).toEqual([[2, RED_SCORE]])
    const green = `${ESC}[32mUse IO::Interactive::is_interactive() instead of -t${ESC}[0m`
    expect(scanLines(`ok\n${green}\n`, true).salient).toEqual([])
  })
})

/** Lines a log may hold: red at its start (behind a prefix, indented), red later on, other colours, none. */
const LINES = [
  'plain line',
  `${ESC}[31mred line`,
  `    ${ESC}[1;31mindented red line${ESC}[0m`,
  `2024-01-02T03:04:05.1234567Z ${ESC}[31mred behind a stamp`,
  `web-1  | ${ESC}[31mred behind a container's name`,
  `text then ${ESC}[31mred`,
  `${ESC}[32mgreen`,
  `${ESC}[91mbright red`,
  `${ESC}[31m`,
  `${ESC}[31mred with a CR\r`,
  '',
  `${' '.repeat(12)}${ESC}[31mtoo deeply indented`,
]
/** The lines {@link redLines} should find, one test per line (the reference). */
const isRed = (line: string): boolean => /^(?:2024-01-02T03:04:05\.1234567Z |web-1 {2}\| )?[ \t]{0,8}\x1b\[(?:1;)?31m(?![\r]?$)/.test(line) && !/^\x1b\[31m\r$/.test(line)

describe('redLines (colour.ts)', () => {
  it('finds the lines whose content starts in red, as a per-line test does (fast-check)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...LINES), { minLength: 1, maxLength: 40 }), fc.boolean(), (lines, crlf) => {
        const text = lines.join(crlf ? '\r\n' : '\n')
        const want = lines.flatMap((l, i) => (isRed(crlf ? `${l}\r` : l) ? [i + 1] : []))
        expect(redLines(text)).toEqual(want)
      }),
      { numRuns: 500 },
    )
  })

  it('reads nothing in a text without colour codes', () => {
    expect(redLines('a\nb\nc')).toEqual([])
    expect(redLines('')).toEqual([])
  })
})

describe('raiseLines (colour.ts)', () => {
  it('raises a salient line, adds a quiet one, keeps the order, skips lines past the end', () => {
    const text = 'ok\nerror: boom\nquiet one\r\nok\nwarning: slow'
    const scan = scanLines(text, true)
    const raised = raiseLines(text, scan, [2, 3, 5, 9], 3)
    const rows = raised.salient.map((s) => [s.line, s.score, text.slice(s.start, s.end)])
    expect(rows).toEqual([
      [2, Math.max(3, scan.salient.find((s) => s.line === 2)!.score), 'error: boom'],
      [3, 3, 'quiet one'],
      [5, 3, 'warning: slow'],
    ])
    expect(raised.salientTotal).toBe(scan.salientTotal + 1)
    expect(scan.salient.find((s) => s.line === 5)!.score).toBeLessThan(3) // the scan it was given is left as it was
  })
})

describe('a red line survives the ansi filter', () => {
  // Perl::Critic prints each violation in bold red, with no failure word: read from the colour
  // before the `ansi` filter strips it, the violation outranks prose that only mentions an error.
  const lines: string[] = []
  for (let i = 0; i < 400; i++) {
    lines.push(`Setting up package-${i} (1.${i}.0) ...`)
    if (i % 40 === 0) lines.push(`Allow some information gathering to give useful error messages ${i}`)
    if (i === 200) {
      lines.push('$ perlcritic mysqltuner.pl')
      lines.push(`${ESC}[1;31mUse IO::Interactive::is_interactive() instead of -t at line 69, column 28.  See page 218 of PBP.  (Severity: 5)${ESC}[0m`)
      lines.push(`${ESC}[1;31mUse IO::Interactive::is_interactive() instead of -t at line 203, column 28.  See page 218 of PBP.  (Severity: 5)${ESC}[0m`)
    }
  }
  const text = lines.join('\n')

  it('keeps the red lines, without their colour codes', () => {
    const out = trimResult(text, { tool: 'terminal', maxChars: 2500 })
    expect(out.applied).toContain('ansi')
    expect(out.text).toContain('Use IO::Interactive::is_interactive() instead of -t at line 69')
    expect(out.text).toContain('instead of -t at line 203')
    expect(out.text).not.toContain(ESC)
    expect(out.text.length).toBeLessThanOrEqual(2500)
  })

  it('keeps them when the same lines are not coloured only if they are salient otherwise', () => {
    // (the reference: without colour, the violations are plain prose and the error mentions win)
    const plain = trimResult(text.replaceAll(`${ESC}[1;31m`, '').replaceAll(`${ESC}[0m`, ''), { tool: 'terminal', maxChars: 2500 })
    expect(plain.text).not.toContain('instead of -t at line 203')
  })
})
