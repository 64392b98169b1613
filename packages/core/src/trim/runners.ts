/**
 * Test runners' own verdicts, found by the shape of their documented output rather than by
 * keywords alone: the run summary (`Tests run: 5, Failures: 1`, `=== 1 failed in 0.2s ===`,
 * `test result: FAILED.`) and the header of each failing test (`--- FAIL: TestX`,
 * `FAIL: test_x (mod.Case)`, `Test Case '-[A b]' failed`). Applied to the salient lines only
 * (a bounded prefix of each), never to the whole text.
 *
 * Shapes covered: JUnit/Maven Surefire, Gradle, javac, pytest, unittest, go test (also inside
 * `go test -json` lines), cargo test, Jest, Vitest, Mocha, PHPUnit, RSpec, minitest, Cucumber,
 * xcodebuild/XCTest, Swift Testing, clang/Swift diagnostics, .NET (`dotnet test`/VSTest/MSBuild), CTest, TAP
 * (tape, node-tap, prove, bats), Dart/Flutter's compact reporter, GNU make's recipe failure, kotlinc,
 * gotestsum's summary, tox 3 and 4, nox.
 */

import { afterLinePrefix, afterSgr } from './shapes.js'

/** What a line is to its test runner. */
export type RunnerShape = 'summary' | 'failure'

/** Chars of a line the shapes look at. */
const PROBE = 200

// Each pattern is anchored at the line's content start and reads a bounded prefix: no
// backtracking over the whole line.

/** An optional SGR colour code, where a runner colours a word inside its line (gotestsum, Cucumber). */
const SGR = String.raw`(?:\x1b\[[\d;]*m)?`

const SUMMARY: readonly RegExp[] = [
  /^Tests run: \d+, Failures: (?:[1-9]\d*, Errors: \d+|\d+, Errors: [1-9])/, // Surefire/Failsafe, JUnit ant
  /^BUILD (?:FAILURE|FAILED)\b/, // Maven, Gradle
  /^FAILURE: Build failed with an exception/, // Gradle
  /^\d+ tests? completed, \d+ failed/, // Gradle test task
  /^=+ .*\b\d+ (?:failed|error)/, // pytest: ==== 1 failed, 3 passed in 0.12s ====
  /^FAILED \((?:failures|errors)=\d+/, // unittest
  /^FAIL\t\S+/, // go test package verdict: FAIL\tpkg\t0.01s
  /^test result: FAILED\b/, // cargo test
  /^error: (?:test failed|\d+ targets? failed)/, // cargo
  /^Tests?:\s+\d+ failed/, // Jest: Tests:       1 failed, 4 passed
  /^Test Suites:\s+\d+ failed/, // Jest
  /^Test Files\s+\d+ failed/, // Vitest
  /^Tests\s+\d+ failed/, // Vitest
  /^\d+ failing\b/, // Mocha
  /^FAILURES!$/, // PHPUnit
  /^Tests: \d+, Assertions: \d+, (?:Failures|Errors): \d+/, // PHPUnit
  /^\d+ examples?, \d+ failures?/, // RSpec
  /^\d+ runs, \d+ assertions, \d+ failures, \d+ errors/, // minitest
  /^\*\* (?:TEST|BUILD) FAILED \*\*/, // xcodebuild
  /^Executed \d+ tests?, with [1-9]\d* failures?/, // XCTest
  /^Failed!\s+- Failed:\s+\d+/, // dotnet test
  /^Test Run Failed\./, // VSTest
  /^\d+% tests passed, [1-9]\d* tests? failed out of \d+/, // CTest
  /^The following tests FAILED:/, // CTest
  /^Errors while running CTest/, // CTest
  /^(?:Tests in error|Failed tests):/, // Surefire (JUnit 4 report)
  /^Errors:$/, // Surefire 2.19+: [ERROR] Errors: (its [ERROR] Failures: is RSpec's shape below)
  /^There (?:was|were) \d+ (?:failures?|errors?):/, // PHPUnit
  /^Failures:$/, // RSpec
  /^Failing Scenarios:/, // Cucumber
  /^\* What went wrong:/, // Gradle
  /^> Task \S+ FAILED/, // Gradle task verdict
  /^# fail\s+[1-9]\d*$/, // TAP (tape, node-tap, prove): # fail  4
  /^Test run with \d+ tests? failed/, // Swift Testing (after its status glyph)
  /^Suite "[^"]*" failed after/, // Swift Testing suite verdict
  /^DONE(?: \d+ runs,)? \d+ tests(?:, \d+ skipped)?, \d+ (?:failures?|errors?)\b/, // gotestsum: DONE 12 tests, 2 failures in 0.5s
  new RegExp(`^=== ${SGR}(?:Failed|Errors)${SGR}$`), // gotestsum's summary sections
  new RegExp(`^\\d+ (?:scenarios?|steps?) \\((?:${SGR}\\d+ \\w+${SGR}, )*${SGR}\\d+ (?:failed|undefined|ambiguous)`), // Cucumber: 3 scenarios (1 failed, 2 passed); strict mode fails on undefined, ambiguous steps
  /^Failed examples:$/, // RSpec: the rerun list's header
  /^ERROR: +\S+: (?:commands failed|InvocationError|InterpreterNotFound|could not install deps)/, // tox 3: ERROR:   py37: commands failed
  /^\S+: FAIL code -?\d+ \(/, // tox 4: py311: FAIL code 1 (2.10=setup[0.05]+cmd[2.05] seconds)
  /^evaluation failed :\(/, // tox 4
  /^nox > Session \S.*? (?:failed|aborted)\.?$/, // nox: nox > Session tests-3.11 failed. (a parametrized session's name holds spaces: tests(python='3.11', django='4.2'))
]

/** Failing tests' headers and verdicts: each names the test that failed. */
const TEST_FAILURE: readonly RegExp[] = [
  /^Tests run: .*<<< (?:FAILURE|ERROR)!/, // Surefire per class
  /^\S+\(\S+\)\s+Time elapsed: .*<<< (?:FAILURE|ERROR)!/, // Surefire per test (JUnit 4)
  /^\S+ -- Time elapsed: .*<<< (?:FAILURE|ERROR)!/, // Surefire 3 per test: com.acme.FooTest.testBar -- Time elapsed: 0.01 s <<< FAILURE!
  /^\S+ > \S.* FAILED$/, // Gradle: FooTest > testBar FAILED
  /^(?:FAILED|ERROR) \S+::\S+/, // pytest short summary: FAILED tests/a.py::test_x - ..., ERROR tests/a.py::test_y - ...
  /^(?:FAIL|ERROR): \w+ \([\w.]+\)/, // unittest
  /^--- FAIL: \S+/, // go test
  /^test \S+ \.\.\. FAILED$/, // cargo test
  /^thread '[^']*' panicked at/, // cargo / Rust
  /^FAIL {1,2}\S+/, // Jest / Vitest file
  /^\d+\) \S.*:$/, // Mocha / PHPUnit / minitest numbered failure
  /^Test Case '-\[\S+ \S+\]' failed/, // XCTest
  /^Failed \S+ \[\d/, // dotnet test: Failed Ns.Test [12 ms]
  /^\d+\/\d+ Test +#\d+: .*\*\*\*(?:Failed|Exception)/, // CTest
  /^\S+:\d+: error: -\[\S+ \S+\] : /, // XCTest assertion: path:line: error: -[Class test] : XCTAssert...
  /^_{3,} \S.* _{3,}$/, // pytest: ____ test_name ____
  /^\u25cf \S/, // Jest: ● Suite › test
  /^---- \S+ std(?:out|err) ----$/, // cargo test
  /^\d+\) \S+::\S+/, // PHPUnit: 1) Ns\FooTest::testBar
  /^rspec \.\/\S+:\d+/, // RSpec failed example
  /^rails test \S+:\d+/, // Rails (minitest) failed test's rerun line
  /^cucumber \S+:\d+/, // Cucumber failing scenario
  /^not ok \d+ /, // TAP (tape, node-tap, prove, bats): not ok 8 test name
  /^Test "[^"]*" (?:recorded an issue|failed after)/, // Swift Testing (after its status glyph)
  /^\d\d:\d\d \+\d+.* \[E\]$/, // Dart / Flutter compact reporter: 00:01 +3 -1: test name [E]
  new RegExp(`^=== ${SGR}FAIL${SGR}: \\S+ `), // gotestsum's summary entry: === FAIL: pkg TestX (0.00s)
  // (the lookahead first: `\S+::\S+ ` alone backtracks over every `::` of a long token)
  new RegExp(`^(?=\\S+::\\S)\\S+ ${SGR}(?:FAILED|ERROR)${SGR}(?: |$)`), // pytest -v: tests/a.py::TestA::test_b FAILED [ 12%]
]

/** A failing test's header that does not name it (the name is on the next line): minitest's `1) Failure:`. */
const UNNAMED_FAILURE: readonly RegExp[] = [
  /^\d+\) (?:Failure|Error):$/, // minitest
]

/** A compiler's or a build tool's error line: a failure's header, naming no test. */
const DIAGNOSTIC: readonly RegExp[] = [
  /^\S+:\d+:\d+: (?:fatal )?error: /, // clang, Swift, gcc diagnostic
  /^e: (?:file:\/|\/|[A-Za-z]:\\)/, // kotlinc: e: file:///src/A.kt:12:5 Type mismatch
  /^\S+\.java:\[\d+,\d+\] /, // javac through Maven: /path/A.java:[12,5] cannot find symbol
  /^\S+\(\d+,\d+\): error [A-Z]+\d+: /, // MSBuild / .NET: File.cs(12,5): error CS0103:
  /^error [A-Z]{2,}\d{3,}: /, // .NET: error CS0103:
  /^g?make(?:\[\d+\])?: \*\*\* /, // GNU make: make[1]: *** [Makefile:12: all] Error 2
]

// One anchored alternation per shape: a line is tested twice, not once per pattern.
const join = (res: readonly RegExp[]): RegExp => new RegExp(res.map((r) => `(?:${r.source})`).join('|'))
const ANY_SUMMARY = join(SUMMARY)
const ANY_TEST_FAILURE = join(TEST_FAILURE)
const ANY_UNNAMED = join(UNNAMED_FAILURE)
const ANY_DIAGNOSTIC = join(DIAGNOSTIC)

/** Offset of the content: after a CI timestamp, indentation, ANSI codes and a `[LEVEL]` tag. */
function contentOf(line: string): string {
  let s = line.length > PROBE ? line.slice(0, PROBE) : line
  // go test -json: {"Time":...,"Action":"output",...,"Output":"--- FAIL: TestX (0.00s)\n"}
  if (s.charCodeAt(0) === 123 && line.length > PROBE) s = line.slice(0, 2 * PROBE)
  const out = s.charCodeAt(0) === 123 ? s.indexOf('"Output":"') : -1
  if (out !== -1) {
    s = s.slice(out + 10).replace(/\\t/g, '\t')
    const esc = s.indexOf('\\n')
    s = (esc !== -1 ? s.slice(0, esc) : s.replace(/"\}?$/, '')).slice(0, PROBE)
  }
  // a CI system's or logger's timestamp (`shapes.ts` afterLinePrefix: GitHub Actions' `2024-01-02T03:04:05.1234567Z `)
  let i = afterLinePrefix(s, 0, s.length)
  for (;;) {
    const c = s.charCodeAt(i)
    if (c === 32 || c === 9) i++
    else if (c >= 0xdb80 && c <= 0xdbff && i === 0) i += 2 // a status glyph (private use: Swift Testing's)
    else if (c === 27) {
      const j = afterSgr(s, i, s.length)
      if (j === i) break
      i = j
    } else if (c === 91 /* [ */) {
      const close = s.indexOf(']', i)
      // [ERROR] [INFO] [WARNING] [  FAILED  ] [gw0]: a short tag, then the content
      if (close < 0 || close - i > 12 || /\d/.test(s.slice(i, close))) break
      i = close + 1
    } else break
  }
  return s.slice(i).trimEnd()
}

/** The runner shape of `line`, or `undefined`. Reads at most its first {@link PROBE} chars. */
export function runnerShape(line: string): RunnerShape | undefined {
  return runnerLine(line).shape
}

/**
 * {@link runnerShape} of `line`, and its content (after its prefix, indentation, colour codes and
 * level tag) when it is a failing test's header or verdict, which names that test (`--- FAIL:
 * TestX`, `FAILED a.py::t`, `a.py::t FAILED`, `testX(a.B)  Time elapsed: ... <<< FAILURE!`; not
 * a compiler's diagnostic). Reads at most its first {@link PROBE} chars.
 */
export function runnerLine(line: string): { shape: RunnerShape | undefined; test: string | undefined } {
  const s = contentOf(line)
  if (s.length < 4) return { shape: undefined, test: undefined }
  // A failing test's header first: Surefire's per-class `Tests run: ... <<< FAILURE!` is one
  // (minitest's nameless `1) Failure:` before Mocha's `1) suite name:`, which it also reads as).
  if (ANY_UNNAMED.test(s)) return { shape: 'failure', test: undefined }
  if (ANY_TEST_FAILURE.test(s)) return { shape: 'failure', test: s }
  if (ANY_DIAGNOSTIC.test(s)) return { shape: 'failure', test: undefined }
  return { shape: ANY_SUMMARY.test(s) ? 'summary' : undefined, test: undefined }
}
