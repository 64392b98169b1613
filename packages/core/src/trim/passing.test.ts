// Problems logged by a test class that then passed are demoted (passing.ts; issue 16, section 1,
// round 8): Surefire prints a class's output between `Running X` and its verdict, and an
// exception a passing class logged is not why the build failed.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fitText } from './fit.js'
import { noise } from './fixture.js'
import { goJsonTest, goPassedBlockStart, isJestRecap, passedBlockStart, surefirePass } from './passing.js'
import { DEFAULT_PROFILES } from './profiles.js'
import { scanLines } from './salient.js'
import { trimResult } from '../pipeline/trim-result.js'

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

/** Asserts that the lines holding each `demoted` needle score 1 and those holding each `failing` one 3 or more. */
function expectScores(lines: readonly string[], { demoted = [], failing = [] }: { demoted?: string[]; failing?: string[] }): void {
  const score = scoreOf(lines)
  for (const d of demoted) expect(score(d), d).toBe(1)
  for (const f of failing) expect(score(f), f).toBeGreaterThanOrEqual(3)
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
    expectScores(lines, { demoted: ['ConnectException', 'NullPointerException'], failing: ['parsesEmpty', 'AssertionFailedError', 'BUILD FAILURE'] })
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
    expectScores(lines, { failing: ['<<< FAILURE! - in a.BTest', 'parses(a.BTest)', 'AssertionFailedError'] })
  })

  it('closes a block at a verdict that is itself salient (a skipped test\'s [WARNING], a keyword in the package)', () => {
    const lines = [
      `${TS}[INFO] Running org.acme.exception.RetryTest`,
      `${TS}java.net.ConnectException: Connection refused`,
      `${TS}[WARNING] Tests run: 3, Failures: 0, Errors: 0, Skipped: 1, Time elapsed: 0.2 s - in org.acme.exception.RetryTest`,
      ...failingClass('ParserTest', ['parsesEmpty(org.acme.ParserTest)']),
    ]
    expectScores(lines, { demoted: ['ConnectException'], failing: ['parsesEmpty'] })
  })

  it('never throws, keeps every score at 1 or more and every line whole, on any mix of Surefire and go test fragments', () => {
    const piece = fc.constantFrom('[INFO] Running a.ATest', 'Running a.B', 'Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 1 s - in a.ATest', 'Tests run: 2, Failures: 0, Errors: 0,', 'Tests run: 3, Failures: 0, Errors: 0, Time elapsed - in ', 'ERROR boom', 'java.lang.IllegalStateException: x', '[ERROR] Tests run: 1, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 1 s <<< FAILURE! - in a.B', TS, '\r', ' - in ', '[', ']', 'x - ', '=== RUN   TestA', '--- PASS: TestA (0.00s)', '    --- SKIP: TestA/b (0', '    a_test.go:1: error x', '=== SKIP: p TestA (0.00s)', '##[group]PASS p.TestA (0.00s)', '=== CONT  TestB', '--- FAIL: TestA (1s)', '    ', '{"Action":"pass","Package":"p","Test":"TestA"}', '{"Action":"output","Package":"p","Test":"TestA","Output":"error x\\n"}', '{"Action":"fail","Package":"p","Test":"TestA"}', '{"Action":"skip","Test":"T\\"')
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

describe('Maven run by a tool that logs its output (passing.ts, afterLogger)', () => {
  const LOG = '13:41:51.387 [Thread-8] DEBUG f.i.s.r.p.m.o.MavenFilterTestOutputHandler - '
  it('reads a verdict and its Running line after a logback-style prefix', () => {
    const lines = [
      `${LOG}[INFO] Running org.acme.DagTest`,
      `${LOG}map.onErrorResumeNext: java.lang.RuntimeException: F`,
      `${LOG}[INFO] Tests run: 4, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 23.8 s - in org.acme.DagTest`,
      `${LOG}[ERROR] Tests run: 1, Failures: 0, Errors: 1, Skipped: 0, Time elapsed: 0.7 s <<< FAILURE! - in org.acme.ProvidersTest`,
      `${LOG}[ERROR] canRegister(org.acme.ProvidersTest)  Time elapsed: 0.7 s  <<< ERROR!`,
      `${LOG}java.lang.RuntimeException: java.net.ConnectException: Failed to connect to localhost/127.0.0.1:3000`,
    ]
    expectScores(lines, { demoted: ['onErrorResumeNext'], failing: ['canRegister', 'Failed to connect'] })
  })

  it('reads a pattern that puts a separator before the thread too (the last one of the lead)', () => {
    const L = '2019-01-01 12:00:00 - [main] INFO a.b.Handler - '
    const lines = [`${L}[INFO] Running a.BTest`, `${L}ERROR boom in B`, `${L}[INFO] Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 1 s - in a.BTest`]
    expect(scoreOf(lines)('boom in B')).toBe(1)
  })

  it('reads no prefix longer than its limit, nor one that is not followed by a Maven level', () => {
    const long = `${'x'.repeat(170)} - [INFO] Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 1 s - in a.B`
    expect(surefirePass(long, 0, long.length)).toBeUndefined()
    const prose = 'the tool said - Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 1 s - in a.B'
    expect(surefirePass(prose, 0, prose.length)).toBeUndefined()
  })
})

describe('passing and skipped go tests (passing.ts goPassedBlockStart, shapes.ts QUIET_BLOCK)', () => {
  /** A passing test that logged an error through t.Log (Go 1.14+ streams it before the verdict). */
  const passing = (name: string, i: number): string[] => [
    `=== RUN   ${name}`,
    `    client_test.go:${10 + i}: error: unexpected EOF from 127.0.0.1:${5000 + i}, reconnecting`,
    `    client_test.go:${40 + i}: failed to read frame ${i}: connection reset by peer`,
    `--- PASS: ${name} (0.0${i % 10}s)`,
  ]

  it('demotes what a passing test streamed, not a failing test or the summary', () => {
    const lines = [...passing('TestRetry', 1), '=== RUN   TestParse', '    parse_test.go:20: got 1, want 2', '--- FAIL: TestParse (0.00s)', 'FAIL', 'FAIL\tgithub.com/acme/x\t0.01s']
    expectScores(lines, { demoted: ['unexpected EOF'], failing: ['got 1, want 2', '--- FAIL: TestParse', 'FAIL\tgithub.com'] })
  })

  it('demotes a subtest-bearing test as one block, and a test whose name holds a keyword', () => {
    const lines = ['=== RUN   TestErrors', '=== RUN   TestErrors/timeout', '    e_test.go:9: error: timeout expected here', '=== NAME  TestErrors', '    e_test.go:12: error path covered', '--- PASS: TestErrors (0.01s)', '    --- PASS: TestErrors/timeout (0.00s)']
    expectScores(lines, { demoted: ['timeout expected', 'path covered'] })
  })

  it('reads a verdict whose test name holds a keyword (the keyword no longer hides the verdict)', () => {
    for (const name of ['TestCreateFails', 'TestHandlesFailure', 'TestX/fail', 'TestPanic']) {
      const score = scoreOf([`=== RUN   ${name}`, `    c_test.go:5: error: connection refused, retrying`, `--- PASS: ${name} (0.00s)`])
      expect(score('connection refused')).toBe(1)
      expect(score(`--- PASS: ${name}`) ?? 1).toBe(1)
    }
    const skip = scoreOf(['=== SKIP: internal/a TestFail (0.00s)', '    a_test.go:3: error: needs docker', '##[group]PASS internal/a.TestHandlesFailure (0.00s)', '    b_test.go:8: failed to dial, retrying', '##[endgroup]'])
    expect(skip('needs docker')).toBe(1)
    expect(skip('failed to dial')).toBe(1)
  })

  it('keeps a Surefire span and a go span apart (each verdict kind has its own cursor)', () => {
    const lines = ['[INFO] Running a.BTest', 'ERROR boom in B', '--- PASS: TestX (0.00s)', '[INFO] Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 1 s - in a.BTest']
    expect(scoreOf(lines)('boom in B')).toBe(1)
  })

  it('leaves parallel tests alone: another test\'s marker inside the span', () => {
    const lines = ['=== RUN   TestA', '=== PAUSE TestA', '=== RUN   TestB', '    b_test.go:3: failure detail of B', '=== CONT  TestA', '    a_test.go:4: error seen by A', '--- PASS: TestA (0.00s)', '--- FAIL: TestB (0.00s)']
    expectScores(lines, { failing: ['failure detail of B'] })
    const text = lines.join('\n')
    const v = text.indexOf('--- PASS')
    expect(goPassedBlockStart(text, 0, v, text.indexOf('\n', v))).toBe(-1)
    // the same test alone: its block starts at its RUN line
    const alone = ['=== RUN   TestA', '    a_test.go:4: error seen by A', '--- PASS: TestA (0.00s)'].join('\n')
    expect(goPassedBlockStart(alone, 0, alone.indexOf('--- PASS'), alone.length)).toBe(0)
    // a RUN line of a longer name is not this test's
    const longer = alone.replace('=== RUN   TestA', '=== RUN   TestAB')
    expect(goPassedBlockStart(longer, 0, longer.indexOf('--- PASS'), longer.length)).toBe(-1)
  })

  it('demotes the log Go before 1.14 printed under a passing verdict, up to the next line as shallow', () => {
    const lines = ['--- FAIL: TestOuter (0.00s)', '    --- PASS: TestOuter/ok (0.00s)', '        o_test.go:5: error logged on the happy path', '    --- FAIL: TestOuter/bad (0.00s)', '        o_test.go:9: got 3, want 4']
    expectScores(lines, { demoted: ['happy path'], failing: ['got 3, want 4', 'TestOuter/bad'] })
  })

  it("scores gotestsum's skipped and passing tests' output 1 and its failed package mark 4", () => {
    const lines = [
      '✓  internal/a (12ms)',
      '✖  internal/b (1.2s)',
      '',
      '=== Skipped',
      '=== SKIP: internal/a TestDocker (0.00s)',
      '    docker_test.go:34: error: docker not available, skipping',
      '',
      '=== Failed',
      '=== FAIL: internal/b TestParse (0.01s)',
      '    parse_test.go:20: assertion failed: 1 (got int) != 2 (want int)',
      '2024-01-02T03:04:05.1234567Z ##[group]PASS internal/a.TestRetry (0.00s)',
      '2024-01-02T03:04:05.1234567Z     retry_test.go:8: request failed, retrying',
      '2024-01-02T03:04:05.1234567Z ##[endgroup]',
      '',
      'DONE 10 tests, 1 skipped, 1 failure in 1.234s',
    ]
    expect(scoreOf(lines)('✖  internal/b')).toBe(4)
    expectScores(lines, { demoted: ['docker not available', 'request failed, retrying'], failing: ['=== FAIL: internal/b', 'assertion failed', 'DONE 10 tests'] })
  })

  it('keeps every failing test of a verbose run whose 40 passing tests logged errors', () => {
    // Before the passing tests' logs were demoted, the last failing verdict gave way to them at 1,500 chars.
    const failing = ['TestParseEmpty', 'TestParseUnicode', 'TestParseNested']
    const blocks = Array.from({ length: 40 }, (_, i) => passing(`TestClient${i}`, i))
    const lines = [...blocks.slice(0, 20).flat(), ...failing.flatMap((t, i) => [`=== RUN   ${t}`, `    parse_test.go:${30 + i}: ${t} got ${i}, want ${i + 1}`, `--- FAIL: ${t} (0.00s)`]), ...blocks.slice(20).flat(), 'FAIL', 'FAIL\tgithub.com/acme/x\t0.41s']
    const out = fitText(lines.join('\n'), 1500, profile).text
    expect(out.length).toBeLessThanOrEqual(1500)
    for (const [i, t] of failing.entries()) {
      expect(out).toContain(`${t} got ${i}, want ${i + 1}`)
      expect(out).toContain(`--- FAIL: ${t} (0.00s)`)
    }
  })
})

describe('passing and skipped tests of a go test -json stream (passing.ts goJsonTest, shapes.ts JSON_PASS)', () => {
  const ev = (o: Record<string, unknown>): string => JSON.stringify({ Time: '2024-01-02T03:04:05.123Z', ...o })
  const out = (pkg: string, test: string, output: string): string => ev({ Action: 'output', Package: pkg, Test: test, Output: `${output}\n` })

  it('reads the package and test of an event, escapes included', () => {
    const line = ev({ Action: 'pass', Package: 'github.com/acme/x', Test: 'TestQuote/"a"', Elapsed: 0 })
    expect(goJsonTest(line, 0, line.length)).toBe('github.com/acme/x\u0000TestQuote/\\"a\\"')
    const pkgLevel = ev({ Action: 'fail', Package: 'github.com/acme/x', Elapsed: 0.1 })
    expect(goJsonTest(pkgLevel, 0, pkgLevel.length)).toBeUndefined()
  })

  it("demotes exactly the passing test's output events, where parallel tests and packages interleave", () => {
    const lines = [
      out('p', 'TestA', '    a_test.go:3: error: connection refused, retrying'),
      out('p', 'TestB', '    b_test.go:5: got 1, want 2'),
      out('q', 'TestA', '    qa_test.go:3: error: store closed unexpectedly'),
      out('p', 'TestA/sub', '    a_test.go:9: error: timeout, retrying'),
      ev({ Action: 'pass', Package: 'p', Test: 'TestA/sub', Elapsed: 0 }),
      ev({ Action: 'pass', Package: 'p', Test: 'TestA', Elapsed: 0 }),
      out('p', 'TestB', '--- FAIL: TestB (0.00s)'),
      ev({ Action: 'fail', Package: 'p', Test: 'TestB', Elapsed: 0 }),
      ev({ Action: 'skip', Package: 'q', Test: 'TestC', Elapsed: 0 }),
      ev({ Action: 'fail', Package: 'q', Test: 'TestA', Elapsed: 0 }),
    ]
    const score = scoreOf(lines)
    expect(score('connection refused')).toBe(1)
    expect(score('timeout, retrying')).toBe(1)
    expect(score('got 1, want 2')).toBeGreaterThanOrEqual(3)
    expect(score('store closed')).toBeGreaterThanOrEqual(3) // same test name, another package: it failed
    expect(score('--- FAIL: TestB')).toBeGreaterThanOrEqual(3)
  })

  it('starts a rerun afresh: a pass after a failed run leaves the failed run alone', () => {
    const lines = [
      out('p', 'TestFlaky', '    f_test.go:7: got 500, want 200'),
      ev({ Action: 'fail', Package: 'p', Test: 'TestFlaky', Elapsed: 0.2 }),
      ev({ Action: 'run', Package: 'p', Test: 'TestFlaky' }),
      out('p', 'TestFlaky', '    f_test.go:4: error: warming up, retrying'),
      ev({ Action: 'pass', Package: 'p', Test: 'TestFlaky', Elapsed: 0.1 }),
    ]
    const score = scoreOf(lines)
    expect(score('got 500, want 200')).toBeGreaterThanOrEqual(3)
    expect(score('"Action":"fail"')).toBeGreaterThanOrEqual(3) // the failed run's verdict event is not the test's log
    expect(score('warming up')).toBe(1)
  })

  it('keeps every failing test of a stream whose 30 passing tests logged errors', () => {
    const failing = ['TestDecodeEmpty', 'TestDecodeNested']
    const lines: string[] = []
    for (let i = 0; i < 30; i++) {
      const t = `TestStore${i}`
      lines.push(ev({ Action: 'run', Package: 'p', Test: t }), out('p', t, `    store_test.go:${20 + i}: error: lock ${i} busy, retrying`), out('p', t, `--- PASS: ${t} (0.0${i % 10}s)`), ev({ Action: 'pass', Package: 'p', Test: t, Elapsed: 0.01 }))
      if (i === 10 || i === 20) {
        const f = failing[i === 10 ? 0 : 1]!
        lines.push(out('p', f, `    decode_test.go:${i}: ${f}: got nil, want error`), out('p', f, `--- FAIL: ${f} (0.00s)`), ev({ Action: 'fail', Package: 'p', Test: f, Elapsed: 0 }))
      }
    }
    lines.push(out('p', '', 'FAIL'), ev({ Action: 'fail', Package: 'p', Elapsed: 0.4 }))
    const excerpt = fitText(lines.join('\n'), 2500, profile).text
    expect(excerpt.length).toBeLessThanOrEqual(2500)
    for (const f of failing) {
      expect(excerpt).toContain(`${f}: got nil, want error`)
      expect(excerpt).toContain(`--- FAIL: ${f} (0.00s)`)
    }
  })

  it("gives a failure its own test's events as context, not a parallel test's output (middle.ts eventTest)", () => {
    // Six parallel tests fail between the output of one long passing test (TestMigrate, 20 events
    // between each). Read as context, its events took the budget; each failure's own are kept.
    const lines: string[] = []
    for (let k = 0; k < 6; k++) {
      for (let i = 0; i < 20; i++) lines.push(out('p', 'TestMigrate', `2024/01/02 03:04:05 OK    000${k}${i}_step.sql`))
      const f = `TestParallel${k}`
      lines.push(ev({ Action: 'cont', Package: 'p', Test: f }), out('p', f, `    parallel_test.go:${10 + k}: ${f}: unexpected value: got 0, want 1`), out('p', f, `--- FAIL: ${f} (0.0${k}s)`), ev({ Action: 'fail', Package: 'p', Test: f, Elapsed: 0.01 }))
    }
    for (let i = 0; i < 20; i++) lines.push(out('p', 'TestMigrate', `2024/01/02 03:04:06 OK    009${i}_step.sql`))
    lines.push(out('p', 'TestMigrate', '--- PASS: TestMigrate (1.00s)'), ev({ Action: 'pass', Package: 'p', Test: 'TestMigrate', Elapsed: 1 }), out('p', '', 'FAIL'), ev({ Action: 'fail', Package: 'p', Elapsed: 1.1 }))
    const excerpt = fitText(lines.join('\n'), 5000, profile).text
    expect(excerpt.length).toBeLessThanOrEqual(5000)
    for (let k = 0; k < 6; k++) expect(excerpt).toContain(`TestParallel${k}: unexpected value: got 0, want 1`)
  })

  it('goes on through an event whose test it cannot read (keys re-sorted: Output before a late Test)', () => {
    const late = (test: string, output: string): string => JSON.stringify({ Action: 'output', Output: `${output}\n`, Package: 'p', Test: test })
    const lines: string[] = []
    for (let i = 0; i < 200; i++) lines.push(late('TestSetup', `setup step ${i} done`))
    lines.push(late('TestA', '    a_test.go:12: got 1, want 2'), late('TestA', `LONGCTX ${'x'.repeat(420)}`), late('TestA', 'DETAILLINE: the fixture was empty'))
    for (let i = 0; i < 200; i++) lines.push(late('TestSetup', `teardown step ${i} done`))
    const excerpt = fitText(lines.join('\n'), 3000, profile).text
    expect(excerpt).toContain('a_test.go:12: got 1, want 2')
    expect(excerpt).toContain('DETAILLINE: the fixture was empty')
  })
})

describe("Jest's recap of every failing file (passing.ts isJestRecap, demoteRecapped)", () => {
  const RECAP = 'Summary of all failing tests'
  /** One failing file's report, as Jest prints it while the run goes on and again in its recap. */
  const report = (i: number): string[] => [
    `FAIL test/unit/file${i}.test.js (1.${i} s)`,
    `  \u25cf parser \u203a reads case ${i}`,
    '',
    `    TypeError: Cannot read properties of undefined (reading 'field${i}')`,
    '',
    `      ${10 + i} |     const value = parse(input${i})`,
    `    > ${11 + i} |     expect(value.field${i}).toBe(${i})`,
    '        |                  ^',
    '',
    `      at Object.<anonymous> (test/unit/file${i}.test.js:${11 + i}:20)`,
    '',
  ]
  const run = (failing: number): string[] => {
    const lines: string[] = []
    for (let i = 0; i < failing; i++) lines.push(`PASS test/unit/ok${i}.test.js`, ...report(i))
    lines.push('A worker process has failed to exit gracefully and has been force exited.', '', RECAP)
    for (let i = 0; i < failing; i++) lines.push(...report(i))
    lines.push(`Test Suites: ${failing} failed, ${failing} passed, ${2 * failing} total`, `Tests:       ${failing} failed, ${3 * failing} passed, ${4 * failing} total`, 'Ran all test suites.')
    return lines
  }

  it('reads the heading after a CI timestamp and in bold, and nothing longer', () => {
    const at = (line: string): boolean => isJestRecap(line, 0, line.length)
    expect(at(RECAP)).toBe(true)
    expect(at(`${TS}${RECAP}`)).toBe(true)
    expect(at(`\x1b[1m${RECAP}\x1b[22m`)).toBe(true)
    expect(at(`${RECAP}  \r`)).toBe(true)
    expect(at(`${RECAP}:`)).toBe(false)
    expect(at(`See the ${RECAP} below`)).toBe(false)
    expect(at(`${RECAP} (3 failed)`)).toBe(false)
  })

  it('scores 1 what the recap prints again, and keeps its own copy, what it does not repeat and what follows it', () => {
    const lines = [...run(3), 'npm ERR! Test failed.  See above for more details.']
    lines.unshift('npm ERR! code ELIFECYCLE (an earlier step)')
    const scan = scanLines(lines.join('\n'), true)
    const scores = (needle: string): number[] => scan.salient.filter((s) => lines[s.line - 1]!.includes(needle)).map((s) => s.score)
    const [first, again] = [scores("reading 'field1'"), scores('FAIL test/unit/file1.test.js')]
    expect(first).toEqual([1, 4]) // the run's copy, then the recap's
    expect(again[0]).toBe(1)
    expect(again[1]).toBeGreaterThan(1)
    expect(scores('A worker process has failed')[0]).toBeGreaterThan(1)
    expect(scores('npm ERR!').every((s) => s > 1)).toBe(true)
  })

  it('compares each recap with its own run only: a second run keeps the first recap', () => {
    const lines = [...run(2), ...run(2)]
    const scan = scanLines(lines.join('\n'), true)
    const scores = scan.salient.filter((s) => lines[s.line - 1]!.includes("reading 'field0'")).map((s) => s.score)
    expect(scores).toEqual([1, 4, 1, 4])
  })

  it("keeps an earlier run's only copy: the recap holds its own run's failures", () => {
    // package A's run (one file, no recap) fails with the message package B's recap prints again
    const a = ['FAIL packages/a/x.test.js', '  \u25cf a \u203a reads', '', "    TypeError: Cannot read properties of undefined (reading 'field1')", 'Test Suites: 1 failed, 1 total', 'Tests:       1 failed, 1 total']
    const lines = [...a, ...run(3)]
    const scan = scanLines(lines.join('\n'), true)
    const scores = scan.salient.filter((s) => lines[s.line - 1]!.includes("reading 'field1'")).map((s) => s.score)
    expect(scores).toEqual([4, 1, 4]) // package A's, B's run's, B's recap's
  })

  it('reads a coloured run as a plain one (Jest colours its heading and counts; large logs keep their codes)', () => {
    const bold = (l: string): string => (l.startsWith('Test Suites:') || l === RECAP ? `\x1b[1m${l}\x1b[22m` : l)
    const lines = [...run(2), ...run(2)].map(bold)
    const scan = scanLines(lines.join('\n'), true)
    expect(scan.salient.filter((s) => lines[s.line - 1]!.includes("reading 'field0'")).map((s) => s.score)).toEqual([1, 4, 1, 4])
  })

  it('reads the heading behind a long line prefix', () => {
    const line = `integration_tests_1  | 2024-01-02T03:04:05.123456789Z \x1b[1m${RECAP}\x1b[22m`
    expect(isJestRecap(line, 0, line.length)).toBe(true)
  })

  it('leaves a log without the heading as it was', () => {
    const lines = run(3).filter((l) => l !== RECAP)
    const scan = scanLines(lines.join('\n'), true)
    expect(scan.salient.filter((s) => lines[s.line - 1]!.includes("reading 'field1'")).map((s) => s.score)).toEqual([4, 4])
  })

  it('shows the failures from the recap, where they are all together, not from the run', () => {
    const lines = run(24)
    const heading = lines.indexOf(RECAP) + 1
    const out = fitText(lines.join('\n'), 4000, profile).text
    expect(out.length).toBeLessThanOrEqual(4000)
    expect(out).toContain(`${heading}: ${RECAP}`)
    const shown = [...out.matchAll(/^(\d+): /gm)].map((m) => Number(m[1]))
    // Before, the run's copy of the second file's failure (lines 14-21) ranked with the recap's.
    expect(shown.length).toBeGreaterThan(20)
    expect(shown.filter((n) => n < heading - 1)).toEqual([])
  })
})

/** Each salient line's score, by its text (the lines joined as one log). */
function scores(lines: string[]): Map<string, number> {
  const text = lines.join('\n')
  return new Map(scanLines(text, true).salient.map((s) => [text.slice(s.start, s.end), s.score]))
}

/** unittest's rule of `=` above each test's report. */
const rule = '='.repeat(70)

describe('what the code under test wrote straight to stdout above a failing Jest suite (passing.ts demoteUncaptured)', () => {
  const logger = (i: number): string[] => [
    `[Nest] 4242  - 11/27/2026, 10:40:00 PM   ERROR [Publisher] Failed to publish OrderPlaced e${i}: connect ECONNREFUSED 127.0.0.1:5432`,
    `Error: connect ECONNREFUSED 127.0.0.1:5432 (attempt ${i})`,
    `    at Object.append (/src/test/publisher.test.js:11:21)`,
    `[Nest] 4242  - 11/27/2026, 10:40:00 PM    WARN [Publisher] retrying e${i} (1/3)`,
  ]
  const suite = (header: string): string[] => [
    header,
    '  Publisher',
    ...Array.from({ length: 6 }, (_, i) => `    ✕ publishes order ${i} after transient errors (1 ms)`),
    '',
    ...Array.from({ length: 6 }, (_, i) => [`  ● Publisher › publishes order ${i} after transient errors`, '', '    expect(received).toHaveLength(expected)', '', `    Expected length: ${i + 1}`, '    Received length: 0', '']).flat(),
  ]
  const earlier = ['PASS test/cart.test.js', '  Cart', '    ✓ adds an item (2 ms)', '']

  it("scores the run right above a suite's FAIL header 1, and the suite's own failures as before", () => {
    for (const header of ['FAIL test/publisher.test.js', 'FAIL  test/publisher.test.js (5.829 s)', ' FAIL  src/publisher.spec.ts']) {
      const s = scores([...earlier, ...Array.from({ length: 8 }, (_, i) => logger(i)).flat(), ...suite(header)])
      expect(s.get(logger(3)[0]!)).toBe(1)
      expect(s.get(logger(3)[1]!)).toBe(1)
      expect(s.get(header)).toBe(4)
      expect(s.get('    ✕ publishes order 2 after transient errors (1 ms)')).toBe(4)
    }
  })

  it('does the same behind a CI timestamp, a bare timestamp ending the run', () => {
    const TS = '2022-06-23T12:17:12.1145050Z '
    const lines = [...earlier, '', `${TS}ERROR [Publisher] kept: a bare timestamp stands between`, TS.trim(), ...logger(1), ...suite('FAIL test/publisher.test.js')].map((l) => (l.startsWith(TS.trim()) ? l : `${TS}${l}`))
    const s = scores(lines)
    expect(s.get(`${TS}${logger(1)[0]}`)).toBe(1)
    expect(s.get(`${TS}ERROR [Publisher] kept: a bare timestamp stands between`)).toBe(4)
  })

  it("stops at another suite's header, at a run count and after 2,000 lines; reads a header where the walk does", () => {
    const run = logger(1)
    for (const above of ['PASS test/cart.test.js', ' FAIL  test/cart.test.mjs', 'Test Suites: 1 failed, 1 passed, 2 total']) {
      const s = scores(['ERROR [Publisher] above the stop', above, ...run, ...suite('FAIL test/publisher.test.js')])
      expect(s.get('ERROR [Publisher] above the stop')).toBe(4)
      expect(s.get(run[0]!)).toBe(1)
    }
    const long = Array.from({ length: 1999 }, (_, i) => `published event ${i}`)
    const capped = scores(['ERROR [Publisher] 2,001 lines up', 'ERROR [Publisher] 2,000 lines up', ...long, ...suite('FAIL test/publisher.test.js')])
    expect(capped.get('ERROR [Publisher] 2,001 lines up')).toBe(4)
    expect(capped.get('ERROR [Publisher] 2,000 lines up')).toBe(1)
    // review: an indented header the scan took as a suite's and the walk did not stop at; the next walk demoted it
    const indented = scores(['  FAIL src/a.test.js', '    ● a › b', '      Error: expect failed', '  FAIL src/b.test.js', '    ● b › c'])
    expect(indented.get('  FAIL src/a.test.js')).toBe(4)
    expect(indented.get('      Error: expect failed')).toBe(4)
  })

  it("keeps a crashed worker's V8 fatal error above the suite's header", () => {
    const crash = [
      'FATAL ERROR: Ineffective mark-compacts near heap limit Allocation failed - JavaScript heap out of memory',
      ' 1: 0xb09980 node::Abort() [node]',
      ' 2: 0xa1c235 node::FatalError(char const*, char const*) [node]',
      ' 3: 0xcf98be v8::Utils::ReportOOMFailure(v8::internal::Isolate*, char const*, bool) [node]',
    ]
    const header = ' FAIL  test/import.test.js'
    const s = scores(['<--- JS stacktrace --->', '', ...crash, header, '  ● Test suite failed to run', '', '    Call retries were exceeded'])
    expect(s.get(crash[0]!)).toBe(4)
    expect(s.get(header)).toBe(4)
    // a logger's line above the crash, unbroken, keeps its score too: the walk stopped at the crash
    const above = scores(['ERROR [Importer] reading batch 7', ...crash, header, '  ● Test suite failed to run'])
    expect(above.get('ERROR [Importer] reading batch 7')).toBe(4)
    // V8's other fatal form
    const invalid = scores(['ERROR [Importer] reading batch 8', '# Fatal error in , line 0', '# Fatal JavaScript invalid size error 169220804', header, '  ● Test suite failed to run'])
    expect(invalid.get('# Fatal JavaScript invalid size error 169220804')).toBeGreaterThan(1)
    expect(invalid.get('ERROR [Importer] reading batch 8')).toBe(4)
  })

  it("takes a `FAIL x.js` line for a suite's header only when Jest's report follows it", () => {
    // a script's own loop (`node $f || echo "FAIL $f"`): the error above is the failure
    const s = scores(['AssertionError [ERR_ASSERTION]: 1 == 2', '    at Object.<anonymous> (test/foo.js:3:8)', 'FAIL test/foo.js', 'ok test/bar.js'])
    expect(s.get('AssertionError [ERR_ASSERTION]: 1 == 2')).toBeGreaterThan(1)
    // a line of 300 chars or more is none, whatever its end
    const cut = scores(['ERROR [Publisher] above a long line', `FAIL ${'x'.repeat(291)}.js is not a header at all, error`, '  ● a › b'])
    expect(cut.get('ERROR [Publisher] above a long line')).toBe(4)
  })

  it('stops at a blank line and at a run count; no Jest header, nothing demoted', () => {
    const blank = scores(['ERROR [Publisher] before a blank line', '', ...logger(1), ...suite('FAIL test/publisher.test.js')])
    expect(blank.get('ERROR [Publisher] before a blank line')).toBe(4)
    expect(blank.get(logger(1)[0]!)).toBe(1)
    const counted = scores(['Tests:       1 failed, 3 passed, 4 total', ...logger(1), ...suite('FAIL test/publisher.test.js')])
    expect(counted.get('Tests:       1 failed, 3 passed, 4 total')).toBe(3)
    // unittest's `FAIL: test_x (mod.Case)` and Vitest's ` FAIL  a.test.ts > suite > test` are no suite header
    for (const header of ['FAIL: test_publish (tests.test_publisher.PublisherTest)', ' FAIL  src/a.test.ts > Publisher > publishes']) {
      const s = scores([...logger(1), header, 'Traceback (most recent call last):'])
      expect(s.get(logger(1)[0]!)).toBe(4)
    }
  })

  it("shows every failed test and each failure's message, not the logger's lines, at 3,000 chars", () => {
    const text = [...noise(200), ...earlier, ...Array.from({ length: 40 }, (_, i) => logger(i)).flat(), ...suite('FAIL test/publisher.test.js'), '', 'Test Suites: 1 failed, 1 passed, 2 total', 'Tests:       6 failed, 1 passed, 7 total'].join('\n')
    const out = fitText(text, 3000, profile).text
    expect(out.length).toBeLessThanOrEqual(3000)
    for (let i = 0; i < 6; i++) expect(out).toContain(`✕ publishes order ${i} after transient errors`)
    // before: 4 of the 6 messages, and 4 of the logger's 40 look-alike ERROR lines (with their `Error:` lines)
    expect(out.split('expect(received).toHaveLength(expected)').length - 1).toBe(6)
    // (the logger's lines, scored 1, take only the chars left once every failure is shown: the
    // fitter's second pick with the excerpt's spare chars, RETRY_SLACK, shows 4 of the 40; so
    // this bound no longer tells the demotion apart, the count of messages above does)
    expect(out.split('ERROR [Publisher]').length - 1).toBeLessThanOrEqual(4)
  })

  it('reads a Jest run in colour the same through trimResult (its colour filter takes the codes away before the scan)', () => {
    const paint = (l: string): string => l.replace(/^(\s*)(✕|●) /, '$1\x1b[31m$2\x1b[39m ').replace('ERROR', '\x1b[31mERROR\x1b[39m')
    const run = (header: string, colour: boolean): string => [...noise(200), ...earlier, ...Array.from({ length: 40 }, (_, i) => logger(i)).flat(), ...suite(header), '', 'Tests:       6 failed, 1 passed, 7 total'].map((l) => (colour ? paint(l) : l)).join('\n')
    const plain = trimResult(run('FAIL test/publisher.test.js', false), { tool: 'terminal', maxChars: 3000 }).text
    // Jest's header in colour: ` FAIL ` inverse, bold and red, then the path dim and bold
    const coloured = trimResult(run('\x1b[0m\x1b[7m\x1b[1m\x1b[31m FAIL \x1b[39m\x1b[22m\x1b[27m\x1b[0m \x1b[2mtest/\x1b[22m\x1b[1mpublisher.test.js\x1b[22m', true), { tool: 'terminal', maxChars: 3000 }).text
    const counts = (out: string): number[] => [out.split('expect(received).toHaveLength(expected)').length - 1, out.split('ERROR [Publisher]').length - 1]
    expect(counts(plain)[0]).toBe(6)
    expect(counts(coloured)).toEqual(counts(plain))
  })
})

describe("what a Python test run printed before its report of failures (passing.ts demoteBeforeReport)", () => {
  const lint = 'src/app.py:3: error: Incompatible types in assignment (expression has type "str", variable has type "int")'
  const pytestRun = (noise: string): string[] => [
    '============================= test session starts ==============================',
    'collected 40 items',
    noise,
    'tests/test_core.py::test_parse_line[A-4, 2, 1.25, super-reduced] FAILED [  3%]',
    'tests/test_core.py::test_total PASSED                                    [  5%]',
    '=================================== FAILURES ===================================',
    '_________________________ test_parse_line[A-4, 2, 1.25, super-reduced] _________________________',
    'E       AssertionError: assert 1.25 == 2.0',
    '=========================== short test summary info ============================',
    'FAILED tests/test_core.py::test_parse_line[A-4, 2, 1.25, super-reduced] - AssertionError',
    '========================= 1 failed, 39 passed in 0.42s =========================',
  ]

  it("scores 1 what pytest's run printed with an error word before `=== FAILURES ===`; its verdicts and report stay", () => {
    const noise = 'WARNING  plugin loader: error loading optional backend cuda (skipped)'
    const s = scores([lint, 'Error: lint step failed (continuing)', ...pytestRun(noise)])
    expect(s.get(noise)).toBe(1)
    expect(s.get('tests/test_core.py::test_parse_line[A-4, 2, 1.25, super-reduced] FAILED [  3%]')).toBeGreaterThan(1)
    expect(s.get('E       AssertionError: assert 1.25 == 2.0')).toBeGreaterThan(1)
    expect(s.get('========================= 1 failed, 39 passed in 0.42s =========================')).toBeGreaterThan(1)
    // before the run's `test session starts` line: another step's, kept
    expect(s.get(lint)).toBeGreaterThan(1)
    expect(s.get('Error: lint step failed (continuing)')).toBeGreaterThan(1)
  })

  it("scores 1 what unittest's run printed before its first `ERROR: test (mod.Case)` under a rule of `=`; the report stays", () => {
    const s = scores([
      'ImportError: No module named mako.template',
      'test_load (tests.test_io.IOTest) ... ERROR',
      'test_save (tests.test_io.IOTest) ... ok',
      rule,
      'ERROR: tests.test_detectron2 (unittest.loader._FailedTest)',
      '-'.repeat(70),
      "ImportError: cannot import name 'is_torch_available'",
      rule,
      'ERROR: test_load (tests.test_io.IOTest)',
      'IOError: [Errno 2] No such file or directory: /data/in.xml',
      '-'.repeat(70),
      'Ran 3 tests in 0.010s',
      'FAILED (errors=2)',
    ])
    expect(s.get('ImportError: No module named mako.template')).toBe(1)
    expect(s.get('test_load (tests.test_io.IOTest) ... ERROR')).toBeGreaterThan(1)
    expect(s.get('ERROR: tests.test_detectron2 (unittest.loader._FailedTest)')).toBeGreaterThan(1)
    expect(s.get('IOError: [Errno 2] No such file or directory: /data/in.xml')).toBeGreaterThan(1)
  })

  it('reads each run on its own (tox runs one per environment), and nothing without a report', () => {
    const first = pytestRun('ERROR: first env noise')
    const s = scores([...first, 'py38: commands failed', ...pytestRun('Error: second env noise')])
    expect(s.get('ERROR: first env noise')).toBe(1)
    expect(s.get('Error: second env noise')).toBe(1)
    // the first run's report is not the second's `before`
    expect(s.get('E       AssertionError: assert 1.25 == 2.0')).toBeGreaterThan(1)
    expect(s.get('py38: commands failed')).toBeGreaterThan(1)
    // a run that crashed before its report: nothing demoted
    const crashed = scores(['============================= test session starts ==============================', 'Fatal Python error: Segmentation fault', 'ERROR: worker gw0 crashed'])
    expect(crashed.get('Fatal Python error: Segmentation fault')).toBeGreaterThan(1)
    // another runner's lines above the run (go's messages over its `--- FAIL:`): that step's, kept
    const mixed = scores(['=== RUN   TestParse', '    parse_test.go:12: error: got 1, want 2', '--- FAIL: TestParse (0.00s)', 'ImportError: No module named mako', rule, 'ERROR: test_load (tests.test_io.IOTest)', 'IOError: [Errno 2] No such file', 'FAILED (errors=1)'])
    expect(mixed.get('    parse_test.go:12: error: got 1, want 2')).toBeGreaterThan(1)
    expect(mixed.get('ImportError: No module named mako')).toBe(1)
    // pytest's report without its `test session starts` line (`pytest -q`, or pasted after other output): nothing demoted
    const quiet = scores(['ERROR: could not load plugin cuda', '=================================== FAILURES ===================================', 'E       assert 1 == 2', '1 failed, 3 passed in 0.12s'])
    expect(quiet.get('ERROR: could not load plugin cuda')).toBeGreaterThan(1)
    // `ERROR: x (y)` printed by a script, with no rule of `=` above it, is no report
    const script = scores(['Error: cannot reach the database', 'ERROR: migrate (db.Step)', 'Traceback (most recent call last):'])
    expect(script.get('Error: cannot reach the database')).toBeGreaterThan(1)
  })

  it("keeps every form of a failed test's own line, a crash's report and another tool's diagnostic (review)", () => {
    const session = '============================= test session starts =============================='
    const report = ['=================================== FAILURES ===================================', 'E   assert 1 == 2', '========================= 1 failed, 3 passed in 1.00s =========================']
    const verdicts = ['[gw1] [ 25%] FAILED tests/a.py::test_b', '[gw0] [ 37%] ERROR tests/a.py::test_c', 'tests/a.py::test_d FAILED', 'FAILED [ 50%]']
    const s = scores([session, 'ERROR: could not load optional backend cuda', ...verdicts, 'Fatal Python error: Segmentation fault', ...report])
    for (const v of verdicts) expect(s.get(v)).toBeGreaterThan(1)
    expect(s.get('Fatal Python error: Segmentation fault')).toBeGreaterThan(1)
    expect(s.get('ERROR: could not load optional backend cuda')).toBe(1)
    // unittest's verdict after a docstring or a subtest's parameters
    const u = scores(['ImportError: No module named mako', 'Check the totals ... FAIL', 'test_b (mod.Case.test_b) (i=1) ... ERROR', rule, 'FAIL: test_a (mod.Case)', 'AssertionError: 1 != 2', 'FAILED (failures=1, errors=1)'])
    expect(u.get('Check the totals ... FAIL')).toBeGreaterThan(1)
    expect(u.get('test_b (mod.Case.test_b) (i=1) ... ERROR')).toBeGreaterThan(1)
    expect(u.get('ImportError: No module named mako')).toBe(1)
    // mypy run before unittest (no column: no runner shape), and a tox command's start
    const mypy = 'src/app.py:3: error: Incompatible types in assignment (expression has type "str", variable has type "int")  [assignment]'
    const m = scores([mypy, 'Found 1 error in 1 file (checked 4 source files)', '.F', rule, 'FAIL: test_b (tests.test_a.T)', 'AssertionError: 1 != 2', 'FAILED (failures=1)'])
    expect(m.get(mypy)).toBeGreaterThan(1)
    const tox = scores(['lint run-test: commands[0] | pip install nonexistent==9.9', 'ERROR: No matching distribution found for nonexistent==9.9', 'py38 run-test: commands[1] | python -m unittest', 'loading plugins [3/3] | done', 'ERROR: logged while importing plugins', rule, 'FAIL: test_b (tests.test_a.T)', 'FAILED (failures=1)'])
    expect(tox.get('ERROR: No matching distribution found for nonexistent==9.9')).toBeGreaterThan(1)
    expect(tox.get('ERROR: logged while importing plugins')).toBe(1)
  })

  it("shows every failing test's exception, not the import noise printed before the report, at 4,000 chars", () => {
    const lines = [...noise(100)]
    // (each a template of its own: no number to mask)
    const deps = ['mako', 'docutils', 'pymongo', 'qgis', 'tensorflow', 'nose', 'sklearn', 'vtk', 'matplotlib', 'pandas', 'scipy', 'sympy', 'networkx', 'h5py', 'yaml', 'lxml', 'psycopg', 'redis', 'boto', 'zmq']
    for (const d of deps) lines.push(`Loading package ${d}`, `ImportError: No module named ${d}.core`, `ERROR: Could not import module: vistrails.packages.${d}`)
    lines.push('s' + '.'.repeat(60))
    for (let i = 0; i < 6; i++) lines.push(rule, `ERROR: test_loop_${i} (vistrails.core.scripting.export.TestExport)`, '-'.repeat(70), 'Traceback (most recent call last):', `  File "/src/export.py", line ${100 + i}, in test_loop_${i}`, `IOError: [Errno 2] No such file or directory: u'/src/tests/resources/export_loop_${i}.xml'`, '')
    lines.push('-'.repeat(70), 'Ran 445 tests in 70.302s', '', 'FAILED (errors=6)')
    const out = fitText(lines.join('\n'), 4000, profile).text
    expect(out.length).toBeLessThanOrEqual(4000)
    for (let i = 0; i < 6; i++) expect(out).toContain(`export_loop_${i}.xml`)
  })
})
