import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { runnerLine, runnerShape } from './runners.js'
import { trimResult } from '../pipeline/trim-result.js'
import { scanLines } from './salient.js'
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

  it.each(FAILURES)('%s names its test (runnerLine)', (_name, line) => {
    const { shape, test } = runnerLine(line)
    expect(shape).toBe('failure')
    expect(test).toBeDefined()
    expect(line.replace(/\x1b\[[\d;]*m/g, '')).toContain(test!.replace(/\x1b\[[\d;]*m/g, ''))
  })
  it.each(DIAGNOSTICS)('a diagnostic is a failure that names no test: %s', (line) => expect(runnerLine(line)).toEqual({ shape: 'failure', test: undefined }))


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

  it('keys a failing test by its own text: tests whose names differ in a number are not repeats, diagnostics are', () => {
    const tests = Array.from({ length: 6 }, (_, i) => `tests/test_client.py::SSHClientTest::test_negotiation_${i + 1} FAILED [ ${10 + i}%]`)
    const diagnostics = Array.from({ length: 6 }, (_, i) => `src/a${i + 1}.c:${i + 3}:5: error: expected ';' after expression`)
    for (const [lines, distinct] of [[tests, 6], [diagnostics, 1]] as const) {
      // (each followed by the same line: a template key holds the next line's template too)
      const text = lines.map((l) => `${l}\n      |     ^`).join('\n')
      const weighed = weighSalient(text, scanLines(text, true).salient)
      expect(weighed).toHaveLength(6)
      expect(new Set(weighed.map((s) => s.template)).size).toBe(distinct)
    }
  })

  it("keeps every failing test of a pytest -v run under a crowd of other errors, none folded as a copy of another", () => {
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
    const template = (line: number): number | undefined => weighed.find((s) => s.line === line)?.template
    // the three tests' IOError lines: three keys; the two after the summary: one key, not a test's
    expect(new Set([template(3), template(7), template(11)]).size).toBe(3)
    expect(template(14)).toBe(template(16))
    expect([template(3), template(7), template(11)]).not.toContain(template(14))
    // more than TEST_SPAN (40) lines under its header, a line is no longer the test's
    const far = (name: string): string[] => [`ERROR: test_${name} (app.tests.TestExport)`, ...Array.from({ length: 45 }, () => 'output'), "IOError: [Errno 2] No such file or directory: '/tmp/x.vt'", 'cleaning up']
    const text2 = [...far('a'), ...far('b')].join('\n')
    const weighed2 = weighSalient(text2, scanLines(text2, true).salient)
    expect(weighed2.find((s) => s.line === 47)!.template).toBe(weighed2.find((s) => s.line === 95)!.template)
  })

  it("keeps each failing test's exception under a crowd of other errors, none folded as a copy of another test's", () => {
    const word = (i: number): string => String.fromCharCode(97 + (i % 26), 97 + (Math.floor(i / 26) % 26)) + 'mod'
    const lines = ['$ python -m unittest -v', ...Array.from({ length: 30 }, (_, i) => [`ImportError: No module named ${word(i)}`, 'skipping the optional package', 'loading next', 'loading more']).flat()]
    const causes = Array.from({ length: 6 }, (_, t) => `IOError: [Errno 2] No such file or directory: '/home/ci/build/tests/resources/case_${word(t)}.vt'`)
    causes.forEach((cause, t) => lines.push('='.repeat(70), `ERROR: test_case_${word(t)} (app.tests.TestExport)`, '-'.repeat(70), 'Traceback (most recent call last):',
      `  File "/home/ci/build/app/export.py", line ${100 + t}, in test_case_${word(t)}`, '    self.load(name)', '  File "/home/ci/build/app/io.py", line 12, in load', '    with open(path) as f:', cause, ''))
    lines.push('-'.repeat(70), 'Ran 120 tests in 3.2s', '', 'FAILED (errors=6)')
    const out = trimResult(lines.join('\n'), { tool: 'terminal', maxChars: 4000 }).text
    for (const cause of causes) expect(out).toContain(cause)
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
