// A line a tool printed in red is salient (round 14 of issue 16): read from the colour codes by the
// scan when it sees them, and from the source when the `ansi` filter has stripped them.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { trimResult } from '../pipeline/trim-result.js'
import { redLines } from './colour.js'
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
    [`${ESC}[0K${ESC}[31;1mThe command "make test" exited with 2.`, false], // an erase code first (Travis): not read past
    [`${ESC}[2K${ESC}[1G${ESC}[31mX`, false],
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

/** Lines a log may hold, and whether each is red (the reference): red at its start (behind a prefix, indented, after an erase code, after a carriage return), red later on, other colours, none. */
const LINES: Array<[string, boolean]> = [
  ['plain line', false],
  [`${ESC}[31mred line`, true],
  [`    ${ESC}[1;31mindented red line${ESC}[0m`, true],
  [`2024-01-02T03:04:05.1234567Z ${ESC}[31mred behind a stamp`, true],
  [`web-1  | ${ESC}[31mred behind a container's name`, true],
  [`text then ${ESC}[31mred`, false],
  [`${ESC}[32mgreen`, false],
  [`${ESC}[91mbright red`, false],
  [`${ESC}[31m`, false],
  ['', false],
  [`${' '.repeat(12)}${ESC}[31mtoo deeply indented`, false],
  [`travis_time:end:0e1\r${ESC}[31;1mThe command "make" exited with 2.${ESC}[0m`, true], // its last part, after the carriage return
  [`travis_time:end:0e1\r${ESC}[0K${ESC}[31;1mThe command "make" exited with 2.${ESC}[0m`, false], // (an erase code first)
  [`${ESC}[31m⠋ waiting for db\r${ESC}[32m✔ db ready`, false], // overwritten: what shows is green
]

describe('redLines (colour.ts)', () => {
  it('finds the lines whose content starts in red, as the reference says (fast-check)', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...LINES), { minLength: 1, maxLength: 40 }), fc.boolean(), (lines, crlf) => {
        const text = lines.map(([l]) => l).join(crlf ? '\r\n' : '\n')
        expect(redLines(text)).toEqual(lines.flatMap(([, red], i) => (red ? [i + 1] : [])))
      }),
      { numRuns: 500 },
    )
  })

  it('reads nothing in a text without colour codes', () => {
    expect(redLines('a\nb\nc')).toEqual([])
    expect(redLines('')).toEqual([])
  })
})

describe("the scan's red lines (salient.ts scanLines' red)", () => {
  it('scores a red line as a failure word, raises a salient one, keeps the order', () => {
    const text = 'ok\nwarning: slow\nquiet one\r\nok'
    const plain = scanLines(text, true)
    const scan = scanLines(text, true, undefined, [2, 3, 9])
    expect(scan.salient.map((s) => [s.line, s.score, text.slice(s.start, s.end)])).toEqual([
      [2, RED_SCORE, 'warning: slow'],
      [3, RED_SCORE, 'quiet one'],
    ])
    expect(plain.salient.find((s) => s.line === 2)!.score).toBeLessThan(RED_SCORE)
    expect(scan.salientTotal).toBe(2)
  })

  it("leaves a passing test's red output and Jest's red console entries demoted", () => {
    // go test: a passing test's log, streamed before its verdict, is demoted to 1
    const go = ['=== RUN   TestRetry', '    retry.go:12: connection refused, retrying', '--- PASS: TestRetry (0.01s)', 'ok  \tp\t0.1s'].join('\n')
    expect(scanLines(go, true, undefined, [2]).salient.map((s) => [s.line, s.score])).toEqual([[2, 1]])
    // Jest's console entry (printed in red) opens a quiet block: its header and message stay at 1
    const jest = ['  console.error', '    Warning: An update was not wrapped in act(...)', '', 'PASS src/a.test.ts'].join('\n')
    expect(scanLines(jest, true, undefined, [1, 2]).salient.every((s) => s.score === 1)).toBe(true)
    // and the scan of the coloured text agrees
    const coloured = [`  ${ESC}[31mconsole.error${ESC}[39m`, `    ${ESC}[31mWarning: An update was not wrapped in act(...)${ESC}[39m`].join('\n')
    expect(scanLines(coloured, true).salient.every((s) => s.score === 1)).toBe(true)
  })

  it('keeps to the scan\'s limit', () => {
    const text = Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? `error: e${i}` : `line ${i}`)).join('\n')
    const scan = scanLines(text, true, 5, [28, 30])
    expect(scan.salient.length).toBe(5)
    expect(scan.salientTotal).toBe(scanLines(text, true, 5).salientTotal + 2)
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

  it('keeps a red line that a filter merged with its copies (merged provenance: the run\'s first line)', () => {
    const merged = [...lines]
    const at = merged.findIndex((l) => l.startsWith('$ perlcritic'))
    const red = `${ESC}[1;31mUse of uninitialized value in concatenation at line 12.${ESC}[0m`
    merged.splice(at + 3, 0, red, red, red, red)
    const out = trimResult(merged.join('\n'), { tool: 'terminal', maxChars: 2500 })
    expect(out.applied).toEqual(expect.arrayContaining(['ansi', 'dedup-exact']))
    expect(out.text).toContain('Use of uninitialized value in concatenation at line 12.')
  })

  it('keeps them when the same lines are not coloured only if they are salient otherwise', () => {
    // (the reference: without colour, the violations are plain prose and the error mentions win)
    const plain = trimResult(text.replaceAll(`${ESC}[1;31m`, '').replaceAll(`${ESC}[0m`, ''), { tool: 'terminal', maxChars: 2500 })
    expect(plain.text).not.toContain('instead of -t at line 203')
  })
})
