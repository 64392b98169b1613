import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { runnerLine, runnerShape } from './runners.js'
import { trimResult } from '../pipeline/trim-result.js'
import { diverse } from './middle.js'
import { scanLines, type SalientLine } from './salient.js'
import { weighSalient } from './weigh.js'

// Synthetic lines in each runner's documented output format (not copied from any corpus log).
const SUMMARIES: Array<[string, string]> = [
  ['Surefire', '[ERROR] Tests run: 12, Failures: 1, Errors: 0, Skipped: 2'],
  ['Maven', '[INFO] BUILD FAILURE'],
  ['Surefire 2.19+ errors list', '[ERROR] Errors: '],
  ['Gradle', 'FAILURE: Build failed with an exception.'],
  ['Gradle tests', '37 tests completed, 2 failed'],
  ['pytest', '========= 2 failed, 40 passed, 1 skipped in 3.21s ========='],
  ['unittest', 'FAILED (failures=1, errors=2)'],
  ['go test', 'FAIL\tgithub.com/acme/widget/parser\t0.012s'],
  ['cargo', 'test result: FAILED. 10 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out'],
  ['Jest', 'Tests:       1 failed, 4 passed, 5 total'],
  ['Jest suites', 'Test Suites: 1 failed, 3 passed, 4 total'],
  ['Vitest', ' Test Files  1 failed | 3 passed (4)'],
  ['Mocha', '  2 failing'],
  ['PHPUnit', 'FAILURES!'],
  ['PHPUnit counts', 'Tests: 5, Assertions: 8, Failures: 1.'],
  ['RSpec', '14 examples, 2 failures'],
  ['minitest', '9 runs, 15 assertions, 1 failures, 0 errors, 0 skips'],
  ['xcodebuild', '** TEST FAILED **'],
  ['XCTest', 'Executed 8 tests, with 1 failure (0 unexpected) in 0.210 (0.230) seconds'],
  ['.NET', 'Failed!  - Failed:     1, Passed:    10, Skipped:     0, Total:    11, Duration: 52 ms'],
  ['CTest', '80% tests passed, 2 tests failed out of 10'],
  ['CTest list', 'The following tests FAILED:'],
  ['GitHub Actions timestamp', '2024-03-01T10:11:12.1234567Z test result: FAILED. 3 passed; 1 failed; 0 ignored'],
  ['TAP', '# fail  4'],
  ['gotestsum', 'DONE 101 tests, 3 skipped, 2 failures in 12.345s'],
  ['gotestsum reruns', 'DONE 3 runs, 14 tests, 8 failures'],
  ['gotestsum build error', 'DONE 0 tests, 1 failure, 1 error'],
  ['gotestsum failed section', '=== Failed'],
  ['gotestsum failed section, coloured', '=== \x1b[31mFailed\x1b[0m'],
  ['gotestsum errors section, coloured', '=== Errors\x1b[0m'],
  ['Cucumber scenarios', '3 scenarios (1 failed, 2 passed)'],
  ['Cucumber steps', '12 steps (1 failed, 2 skipped, 9 passed)'],
  ['Cucumber, coloured', '3 scenarios (\x1b[31m1 failed\x1b[0m, \x1b[32m2 passed\x1b[0m)'],
  ['RSpec rerun list', 'Failed examples:'],
  ['tox 3', 'ERROR:   py37: commands failed'],
  ['tox 4', '  py311: FAIL code 1 (2.10=setup[0.05]+cmd[2.05] seconds)'],
  ['tox 4, signal', '  docs: FAIL code -3 (0.01 seconds)'],
  ['tox 4 verdict', '  evaluation failed :( (8.65 seconds)'],
  ['nox', 'nox > Session tests-3.11 failed.'],
  ['nox, parametrized', "nox > Session tests(python='3.11', django='4.2') failed."],
  ['tox 3, no interpreter', 'ERROR:   py27: InterpreterNotFound: python2.7'],
  ['tox 3, deps', 'ERROR:   py37: could not install deps [-rrequirements.txt]; v = InvocationError(...)'],
  ['Cucumber, undefined', '1 scenario (1 undefined)'],
  ['Cucumber, ambiguous', '2 scenarios (1 ambiguous, 1 passed)'],
]

const FAILURES: Array<[string, string]> = [
  ['Surefire class', '[ERROR] Tests run: 3, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.05 s <<< FAILURE! - in com.acme.FooTest'],
  ['Gradle', 'FooTest > parsesEmptyInput FAILED'],
  ['pytest short summary', 'FAILED tests/test_parse.py::test_empty - AssertionError: assert 1 == 2'],
  ['unittest', 'FAIL: test_empty (tests.test_parse.ParseTest)'],
  ['go test', '--- FAIL: TestParseEmpty (0.00s)'],
  ['cargo', 'test parser::tests::parses_empty ... FAILED'],
  ['Rust panic', "thread 'parser::tests::parses_empty' panicked at src/parser.rs:42:9:"],
  ['Jest', 'FAIL src/parser.test.js'],
  ['Vitest', ' FAIL  src/parser.test.ts > parser > parses empty input'],
  ['minitest', '  1) Failure:'],
  ['XCTest', "Test Case '-[AppTests.ParserTests testEmpty]' failed (0.003 seconds)."],
  ['.NET', '  Failed Acme.Tests.ParserTests.ParsesEmpty [12 ms]'],
  ['CTest', '3/10 Test  #3: parser_test ......................***Failed    0.01 sec'],
  ['TAP', 'not ok 8 react order is enforced'],
  ['gotestsum summary entry', '=== FAIL: internal/parser TestParseEmpty (0.00s)'],
  ['gotestsum summary entry, coloured', '=== \x1b[31mFAIL\x1b[0m: internal/parser TestParseEmpty/sub (0.01s)'],
  ['gotestsum package build failure', '=== FAIL: example.com/internal/cacher  (0.00s)'],
  ['pytest -v', 'tests/test_client.py::SSHClientTest::test_host_key_negotiation_2 FAILED [ 12%]'],
  ['pytest -v, coloured', 'tests/test_client.py::test_cleanup \x1b[31mFAILED\x1b[0m'],
  ['pytest -v, error', 'tests/test_db.py::test_connect ERROR'],
]

// Failure lines that name no test: a compiler's or a build tool's (`runnerLine` gives no test).
const DIAGNOSTICS = [
  'src/parser.c:12:5: error: expected \';\' after expression',
  '[ERROR] /src/main/java/a/B.java:[12,5] cannot find symbol',
  'e: file:///src/A.kt:12:5 Type mismatch: inferred type is String but Int was expected',
  'Parser.cs(12,5): error CS0103: The name \'x\' does not exist in the current context',
  'make[1]: *** [Makefile:12: all] Error 2',
]

describe('runnerShape', () => {
  it.each(SUMMARIES)('%s summary', (_name, line) => expect(runnerShape(line)).toBe('summary'))
  it.each(FAILURES)('%s failure header', (_name, line) => expect(runnerShape(line)).toBe('failure'))

  it.each([
    'Tests run: 12, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.3 s - in com.acme.FooTest',
    '[INFO] BUILD SUCCESS',
    '========= 42 passed in 3.21s =========',
    'ok  \tgithub.com/acme/widget/parser\t0.012s',
    'test result: ok. 12 passed; 0 failed; 0 ignored',
    'Tests:       5 passed, 5 total',
    '  14 passing (20ms)',
    '# fail  0',
    'ok 7 parses the empty input',
    'not okay, retrying',
    'OK (5 tests, 8 assertions)',
    '100% tests passed, 0 tests failed out of 10',
    'error: expected `;` before `}`',
    'DONE 12 tests in 0.412s',
    'DONE 12 tests, 2 skipped in 0.412s',
    '=== SKIP: internal/parser TestSlow (0.00s)',
    '=== RUN   TestParseEmpty',
    '3 scenarios (3 passed)',
    '12 steps (2 skipped, 10 passed)',
    '  py311: OK (2.10=setup[0.05]+cmd[2.05] seconds)',
    '  congratulations :) (2.20 seconds)',
    'nox > Session tests-3.11 was successful.',
    "nox > Session tests(python='3.11', django='4.2') was successful.",
    'nox > Session lint failed to start: x', // (not its verdict's end)
    'tests/test_client.py::test_cleanup PASSED [ 12%]',
    'tests/test_client.py::test_cleanup FAILEDX',
  ])('not a runner verdict: %s', (line) => expect(runnerShape(line)).toBeUndefined())

  it.each([
    ['[ERROR] testBar(com.acme.FooTest)  Time elapsed: 0.01 s  <<< FAILURE!', 'testBar(com.acme.FooTest)  Time elapsed: 0.01 s  <<< FAILURE!'],
    ['[ERROR] com.acme.FooTest.testBar -- Time elapsed: 0.012 s <<< FAILURE!', 'com.acme.FooTest.testBar -- Time elapsed: 0.012 s <<< FAILURE!'],
    ['2024-01-02T03:04:05.1234567Z --- FAIL: TestParseEmpty (0.00s)', '--- FAIL: TestParseEmpty (0.00s)'],
    ['ERROR tests/test_db.py::test_connect - OperationalError: no such table', 'ERROR tests/test_db.py::test_connect - OperationalError: no such table'],
  ])('names its failing test (runnerLine): %s', (line, test) => expect(runnerLine(line)).toEqual({ shape: 'failure', test }))
  it.each(FAILURES.filter(([name]) => name !== 'minitest'))('%s names its test (runnerLine)', (_name, line) => expect(runnerLine(line).test).toBeDefined())
  it.each([...DIAGNOSTICS, '  1) Failure:'])('a failure that names no test: %s', (line) => expect(runnerLine(line)).toEqual({ shape: 'failure', test: undefined }))
  it('reads a long token of many `::` in linear time (the pytest -v shape looks ahead first)', () => {
    const line = `${'a::'.repeat(60)} x`
    expect(runnerShape(line)).toBeUndefined()
    expect(runnerShape(`${'a::'.repeat(60)}b FAILED`)).toBe('failure')
  })


  it('never throws, reads a bounded prefix, is deterministic', () => {
    fc.assert(fc.property(fc.string({ maxLength: 400 }), (s) => {
      expect(runnerShape(s)).toBe(runnerShape(s))
    }))
    expect(runnerShape('x'.repeat(1_000_000) + ' test result: FAILED.')).toBeUndefined()
  })
})

describe('runner weight', () => {
  it("raises a runner's summary above other failure lines of the same keyword score", () => {
    const text = ['[ERROR] something failed in module a', 'noise', '[ERROR] Tests run: 12, Failures: 1, Errors: 0, Skipped: 2', 'noise'].join('\n')
    const salient = scanLines(text, true).salient
    const off = new Map(weighSalient(text, salient, { weights: { runner: 0 } }).map((s) => [s.line, s.score]))
    const on = new Map(weighSalient(text, salient, { weights: { runner: 2 } }).map((s) => [s.line, s.score]))
    expect(on.get(3)).toBe(off.get(3)! + 2)
    expect(on.get(1)).toBe(off.get(1))
  })

  it("gives a failing test's line a failure of its own (instance) beside its template; a diagnostic only its template", () => {
    const tests = Array.from({ length: 6 }, (_, i) => `tests/test_client.py::SSHClientTest::test_negotiation_${i + 1} FAILED [ ${10 + i}%]`)
    const diagnostics = Array.from({ length: 6 }, (_, i) => `src/a${i + 1}.c:${i + 3}:5: error: expected ';' after expression`)
    for (const [lines, instances] of [[tests, 6], [diagnostics, 0]] as const) {
      // (each followed by the same line: a template key holds the next line's template too)
      const text = lines.map((l) => `${l}\n      |     ^`).join('\n')
      const weighed = weighSalient(text, scanLines(text, true).salient)
      expect(weighed).toHaveLength(6)
      expect(new Set(weighed.map((s) => s.template)).size).toBe(1)
      expect(new Set(weighed.flatMap((s) => (s.instance === undefined ? [] : [s.instance]))).size).toBe(instances)
    }
  })

  it("reads pytest -v's verdicts as failing tests' and keeps each under a crowd of other errors", () => {
    // (40 distinct errors of a higher keyword score, each with a detail line, in their own clusters)
    const word = (i: number): string => String.fromCharCode(97 + (i % 26), 97 + (Math.floor(i / 26) % 26)) + 'svc'
    const noise = Array.from({ length: 40 }, (_, i) => [`ERROR: service ${word(i)} failed to start`, `  connection to ${word(i + 7)} refused by peer`, 'retrying later', 'still waiting', 'waiting more']).flat()
    const verdicts = [1, 2, 3, 4].map((i) => `tests/test_client.py::SSHClientTest::test_host_key_negotiation_${i} FAILED`)
    const passed = (name: string): string[] => Array.from({ length: 20 }, (_, i) => `tests/test_util.py::test_${name}_${i} PASSED`)
    const text = ['$ pytest -v', ...passed('helper'), ...verdicts, ...passed('other'), ...noise, '=========== 4 failed, 40 passed in 21.53 seconds ==========='].join('\n')
    const out = trimResult(text, { tool: 'terminal', maxChars: 2000 }).text
    for (const v of verdicts) expect(out).toContain(v)
  })

  it("keys a line under a failing test's header by its template and that test, up to the run's summary", () => {
    // (each IOError line followed by the same line: a template key holds the next line's template too)
    const block = (name: string): string[] => [`ERROR: test_${name} (app.tests.TestExport)`, 'Traceback (most recent call last):', "IOError: [Errno 2] No such file or directory: '/tmp/x.vt'", 'cleaning up']
    const after = ["IOError: [Errno 2] No such file or directory: '/tmp/x.vt'", 'cleaning up']
    const text = [...block('a'), ...block('b'), ...block('c'), 'FAILED (errors=3)', ...after, ...after].join('\n')
    const weighed = weighSalient(text, scanLines(text, true).salient)
    const at = (line: number): SalientLine => weighed.find((s) => s.line === line)!
    // the three tests' IOError lines: one template, three failures; the two after the summary: no test's
    expect(new Set([at(3), at(7), at(11), at(14), at(16)].map((s) => s.template)).size).toBe(1)
    expect(new Set([at(3), at(7), at(11)].map((s) => s.instance)).size).toBe(3)
    expect(at(14).instance).toBeUndefined()
    expect(at(16).instance).toBeUndefined()
    // more than TEST_SPAN (40) lines under its header, a line is no longer the test's
    const far = (name: string): string[] => [`ERROR: test_${name} (app.tests.TestExport)`, ...Array.from({ length: 45 }, () => 'output'), "IOError: [Errno 2] No such file or directory: '/tmp/x.vt'", 'cleaning up']
    const text2 = [...far('a'), ...far('b')].join('\n')
    const weighed2 = weighSalient(text2, scanLines(text2, true).salient)
    expect(weighed2.find((s) => s.line === 47)!.instance).toBeUndefined()
    expect(weighed2.find((s) => s.line === 95)!.instance).toBeUndefined()
  })

  it("shows each failing test's verdict before the repeats of another line of its score", () => {
    // (thirty copies of one socket error, each on its own, then four tests' verdicts of one template)
    const verdicts = [1, 2, 3, 4].map((i) => `tests/test_client.py::SSHClientTest::test_host_key_negotiation_${i} FAILED`)
    const retries = Array.from({ length: 30 }, (_, i) => [`[${100 + i}.5] ERROR:paramiko.transport:Socket exception: Connection reset by peer (${104 + i})`, 'waiting', 'waiting', 'waiting']).flat()
    const text = ['$ pytest -v', ...retries, ...verdicts, 'done', 'done', 'done', 'done', '=========== 4 failed, 40 passed in 21.53 seconds ==========='].join('\n')
    const out = trimResult(text, { tool: 'terminal', maxChars: 1000 }).text
    for (const v of verdicts) expect(out).toContain(v)
  })

  it('orders one line of each template, then one of each failure, then the repeats, within a score level (diverse)', () => {
    const line = (n: number, template: number, instance?: number, score = 4): SalientLine => ({ line: n, start: 0, end: 0, score, template, ...(instance !== undefined ? { instance } : {}) })
    // three tests' verdicts of template 1 (failures 10, 11, 12), a line of template 2 repeated
    // three times without a test, a second line of test 10 (failure 10 again), a lower level
    const ranked = [line(1, 1, 10), line(2, 2), line(3, 2), line(4, 1, 11), line(5, 2), line(6, 1, 10), line(7, 1, 12), line(8, 3, undefined, 2)]
    expect(diverse(ranked, false).map((s) => s.line)).toEqual([1, 2, 4, 7, 3, 5, 6, 8])
    expect(diverse(ranked, true).map((s) => s.line)).toEqual([1, 2, 8, 4, 7, 3, 5, 6])
    // ids of failures and of templates are apart: a failure whose id equals a seen template's is still new
    // (template 5 seen first on a line of no test; then a copy of it; then failure 5 of template 9)
    const apart = [line(1, 5), line(2, 9), line(3, 5), line(4, 9, 5)]
    expect(diverse(apart, false).map((s) => s.line)).toEqual([1, 2, 4, 3])
  })

  it('keeps the one test that failed differently among 119 that failed alike (one line of each kind first)', () => {
    const lines: string[] = []
    for (let i = 1; i <= 120; i++) {
      lines.push(`--- FAIL: TestQuery${i} (0.01s)`, i === 25 ? '    db_test.go:41: unexpected error: pq: duplicate key value violates unique constraint "users_pkey"' : '    db_test.go:41: unexpected error: dial tcp 127.0.0.1:5432: connect: connection refused')
    }
    lines.push('FAIL', 'FAIL\tgithub.com/acme/db\t1.234s')
    const text = lines.join('\n')
    for (const maxChars of [4000, 8000]) expect(trimResult(text, { tool: 'terminal', maxChars }).text).toContain('duplicate key value')
  })

  it('the same, as go test -v prints it since Go 1.14: each message before its --- FAIL line', () => {
    const lines: string[] = []
    for (let i = 0; i < 120; i++) {
      lines.push(`=== RUN   TestFetch${i}`, `    api_test.go:${20 + i}: ${i === 77 ? 'pq: duplicate key value violates unique constraint "items_pkey"' : 'dial tcp 127.0.0.1:5432: connect: connection refused'}`, `--- FAIL: TestFetch${i} (0.00s)`)
    }
    lines.push('FAIL', 'FAIL\tgithub.com/acme/api\t0.412s')
    const text = lines.join('\n')
    for (const maxChars of [4000, 8000]) expect(trimResult(text, { tool: 'terminal', maxChars }).text).toContain('duplicate key value')
  })

  it('raises the first failing test header only, not every one', () => {
    const text = ['--- FAIL: TestA (0.00s)', 'x', '--- FAIL: TestB (0.00s)'].join('\n')
    const salient = scanLines(text, true).salient
    const off = new Map(weighSalient(text, salient, { weights: { runner: 0 } }).map((s) => [s.line, s.score]))
    const on = new Map(weighSalient(text, salient, { weights: { runner: 1 } }).map((s) => [s.line, s.score]))
    expect(on.get(1)).toBe(off.get(1)! + 1)
    expect(on.get(3)).toBe(off.get(3))
  })
})
