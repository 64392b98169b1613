// Problems logged by a test class that then passed are demoted (passing.ts; issue 16, section 1,
// round 8): Surefire prints a class's output between `Running X` and its verdict, and an
// exception a passing class logged is not why the build failed.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fitText } from './fit.js'
import { noise } from './fixture.js'
import { passedBlockStart, surefirePass } from './passing.js'
import { DEFAULT_PROFILES } from './profiles.js'
import { scanLines } from './salient.js'

const profile = DEFAULT_PROFILES.terminal!
const TS = '2023-04-10T02:44:17.7582837Z '

/** A passing class whose tests log an exception and its trace (a negative test, a retry). */
const passingClass = (name: string, i: number): string[] => [
  `${TS}[INFO] Running org.acme.${name}`,
  `${TS}ERROR o.a.c.Collector - collect failed for target ${i}: java.net.ConnectException: Connection refused`,
  `${TS}java.lang.NullPointerException: Cannot invoke "String.length()" because "host${i}" is null`,
  `${TS}\tat org.acme.collect.Collector.collect(Collector.java:${40 + i})`,
  `${TS}\tat org.acme.collect.Scheduler.run(Scheduler.java:${90 + i})`,
  `${TS}[INFO] Tests run: 2, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.0${i} s - in org.acme.${name}`,
]

/** A failing class: its verdict, then each failing test's result line and assertion. */
const failingClass = (name: string, tests: string[]): string[] => [
  `${TS}[INFO] Running org.acme.${name}`,
  `${TS}[ERROR] Tests run: ${tests.length}, Failures: ${tests.length}, Errors: 0, Skipped: 0, Time elapsed: 0.1 s <<< FAILURE! - in org.acme.${name}`,
  ...tests.flatMap((t, i) => [
    `${TS}[ERROR] ${t}  Time elapsed: 0.01 s  <<< FAILURE!`,
    `${TS}org.opentest4j.AssertionFailedError: expected: <${i}> but was: <${i + 1}>`,
  ]),
]

/** The scan's score of the first salient line of `lines` holding `needle` (undefined: not salient). */
function scoreOf(lines: readonly string[]): (needle: string) => number | undefined {
  const scan = scanLines(lines.join('\n'), true)
  return (needle) => scan.salient.find((s) => lines[s.line - 1]!.includes(needle))?.score
}

describe('passing Surefire classes (passing.ts)', () => {
  it('reads a passing class verdict, old and new forms, and nothing else', () => {
    const line = (s: string): [number, number] | null | undefined => surefirePass(s, 0, s.length)
    const named = `${TS}[INFO] Tests run: 6, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.037 s - in a.BTest`
    const span = line(named)!
    expect(named.slice(span[0], span[1])).toBe('a.BTest')
    expect(line('Tests run: 10, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.209 sec')).toEqual([0, 0])
    expect(line('Tests run: 475, Failures: 0, Errors: 0, Skipped: 0')).toBeUndefined() // a run's summary
    expect(line('Tests run: 3, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.1 s <<< FAILURE! - in a.B')).toBeNull() // a failing class
    expect(line('Tests run: 3, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.1 s <<< ERROR! - in a.B')).toBeNull()
    expect(line(`Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 1 s - in a.${'B'.repeat(600)}`)).toBeUndefined() // past the longest verdict read
  })

  it('finds the block only from its own Running line, the same class', () => {
    const text = ['[INFO] Running a.ATest', 'boom', '[INFO] Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 1 s - in a.ATest'].join('\n')
    const v = text.lastIndexOf('[INFO] Tests')
    const name = surefirePass(text, v, text.length)!
    expect(passedBlockStart(text, 0, v, name)).toBe(0)
    const other = text.replace('Running a.ATest', 'Running a.ATestX')
    expect(passedBlockStart(other, 0, other.lastIndexOf('[INFO] Tests'), surefirePass(other, other.lastIndexOf('[INFO] Tests'), other.length)!)).toBe(-1)
    // prose that mentions "Running " is no block start
    const prose = text.replace('[INFO] Running a.ATest', 'the collector reported an error while Running a.ATest')
    const pv = prose.lastIndexOf('[INFO] Tests')
    expect(passedBlockStart(prose, 0, pv, surefirePass(prose, pv, prose.length)!)).toBe(-1)
  })

  it('demotes what a passing class logged, not what a failing class or the build printed', () => {
    const lines = [...passingClass('CollectorTest', 1), ...failingClass('ParserTest', ['parsesEmpty(org.acme.ParserTest)']), `${TS}[ERROR] BUILD FAILURE`]
    const score = scoreOf(lines)
    expect(score('ConnectException')).toBe(1)
    expect(score('NullPointerException')).toBe(1)
    expect(score('parsesEmpty')).toBeGreaterThanOrEqual(3)
    expect(score('AssertionFailedError')).toBeGreaterThanOrEqual(3)
    expect(score('BUILD FAILURE')).toBeGreaterThanOrEqual(3)
  })

  it('keeps every failing test of a crowded log whose passing classes logged exceptions', () => {
    const tests = Array.from({ length: 8 }, (_, i) => `test${String.fromCharCode(65 + i)}Parses(org.acme.ParserTest)`)
    const passing = Array.from({ length: 14 }, (_, i) => passingClass(`Collector${i}Test`, i)).flat()
    const lines = [`${TS}[INFO] Scanning for projects...`, ...noise(40), ...passing.slice(0, 42), ...failingClass('ParserTest', tests), ...passing.slice(42), ...noise(40, 900), `${TS}[ERROR] BUILD FAILURE`]
    const out = fitText(lines.join('\n'), 4000, profile).text
    expect(out.length).toBeLessThanOrEqual(4000)
    for (const t of tests) expect(out).toContain(`${t}  Time elapsed`)
  })

  it('keeps a failing class\'s lines when parallel forks interleave its block with a passing one', () => {
    // Two forks: B starts, A starts, B fails, A passes. A's verdict closes no block of its own
    // (its `Running` line is before B's verdict), so nothing is demoted.
    const lines = [
      `${TS}[INFO] Running a.BTest`,
      `${TS}[INFO] Running a.ATest`,
      `${TS}[ERROR] Tests run: 1, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.01 s <<< FAILURE! - in a.BTest`,
      `${TS}[ERROR] parses(a.BTest)  Time elapsed: 0.01 s  <<< FAILURE!`,
      `${TS}org.opentest4j.AssertionFailedError: expected: <1> but was: <2>`,
      `${TS}[INFO] Tests run: 4, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.2 s - in a.ATest`,
    ]
    const score = scoreOf(lines)
    expect(score('<<< FAILURE! - in a.BTest')).toBeGreaterThanOrEqual(3)
    expect(score('parses(a.BTest)')).toBeGreaterThanOrEqual(3)
    expect(score('AssertionFailedError')).toBeGreaterThanOrEqual(3)
  })

  it('closes a block at a verdict that is itself salient (a skipped test\'s [WARNING], a keyword in the package)', () => {
    const lines = [
      `${TS}[INFO] Running org.acme.exception.RetryTest`,
      `${TS}java.net.ConnectException: Connection refused`,
      `${TS}[WARNING] Tests run: 3, Failures: 0, Errors: 0, Skipped: 1, Time elapsed: 0.2 s - in org.acme.exception.RetryTest`,
      ...failingClass('ParserTest', ['parsesEmpty(org.acme.ParserTest)']),
    ]
    const score = scoreOf(lines)
    expect(score('ConnectException')).toBe(1)
    expect(score('parsesEmpty')).toBeGreaterThanOrEqual(3)
  })

  it('never throws, keeps every score at 1 or more and every line whole, on any mix of Surefire fragments', () => {
    const piece = fc.constantFrom('[INFO] Running a.ATest', 'Running a.B', 'Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 1 s - in a.ATest', 'Tests run: 2, Failures: 0, Errors: 0,', 'Tests run: 3, Failures: 0, Errors: 0, Time elapsed - in ', 'ERROR boom', 'java.lang.IllegalStateException: x', '[ERROR] Tests run: 1, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 1 s <<< FAILURE! - in a.B', TS, '\r', ' - in ', '[', ']')
    fc.assert(fc.property(fc.array(fc.tuple(piece, fc.constantFrom('\n', '', ' ')), { maxLength: 40 }), (parts) => {
      const text = parts.map(([p, sep]) => p + sep).join('')
      const scan = scanLines(text, true)
      for (const s of scan.salient) expect(s.score).toBeGreaterThanOrEqual(1)
      // a demoted line is a line the scan found salient in the first place
      const lines = text.split('\n')
      for (const s of scan.salient) expect(text.slice(s.start, s.end)).toBe(lines[s.line - 1]!.replace(/\r$/, ''))
    }))
  })
})
