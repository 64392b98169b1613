// Rules written so that salience and the excerpt's choice of lines generalise beyond the corpus
// they were developed on (issue 16, section 1): success verdicts, class names mentioned in prose,
// a quiet tail, CI timestamps before stack frames, families of look-alike failure lines.
import { describe, expect, it } from 'vitest'
import { fitText } from './fit.js'
import { DEFAULT_PROFILES } from './profiles.js'
import { inCodeSpan, lineSalience, scanLines } from './salient.js'
import { endsWithSuccess, startsWithSuccess } from './verdict.js'
import { noise } from './fixture.js'

const profile = DEFAULT_PROFILES.terminal!

describe('a pass verdict at the line start (verdict.ts)', () => {
  it.each([
    '  ✓ fails to remove a locked job',
    '      ✔ rejects an invalid token with an error (12ms)',
    ' √ throws when the parser fails',
    '        PASS [   0.013s] (  9/469) kiezfyi-api error::tests::bad_request_returns_400',
    'PASS src/errors/handler.test.ts',
    'tests/test_api.py::test_error PASSED',
    'PASSED tests/test_api.py::test_error_handler',
    '[       OK ] ErrorTest.ReportsFailure (0 ms)',
    '[  PASSED  ] 3 tests, listed below: FailureTest',
    'ok 4 - error path returns 500',
    'ok  \tgithub.com/acme/errors\t0.012s',
    '2024-03-01T10:11:12.1234567Z   ✓ fails fast on a missing config',
    // pytest-xdist -v: a worker and the progress before the verdict
    '[gw0] [ 94%] PASSED gammapy/stats/tests/test_counts_statistic.py::test_cash_errors[1-2-result0] ',
    '2022-03-22T19:28:51.4325796Z [gw1] [ 95%] XFAIL tests/test_stats.py::test_error_matching[1--2-nan] ',
    '[gw12] [100%] SKIPPED tests/test_io.py::test_read_error',
    // .NET's console logger (normal verbosity): a test name or a theory's data row may hold a keyword
    '  Passed Acme.Tests.Exceptions.Failure [3 ms]',
    '  Passed Acme.Tests.Parser.Rejects(input: "fatal error") [12 ms]',
  ])('not salient: %s', (line) => expect(lineSalience(line)).toBe(0))

  it.each([
    ['✗ fails to remove a locked job', 3],
    ['not ok 4 - error path returns 500', 3],
    ['PASSWORD error: authentication failed', 4],
    ['okay, the build failed', 3],
    ['[  FAILED  ] ErrorTest.ReportsFailure (0 ms)', 4],
    ['FAIL src/errors/handler.test.ts', 4],
    ['[gw0] [ 92%] FAILED gammapy/modeling/models/tests/test_spatial.py::test_sky_diffuse_constant ', 3],
    ['[gw0] [ 37%] ERROR gammapy/irf/edisp/tests/test_kernel.py::TestEDispKernel::test_get_bias ', 3],
    ['  Failed Acme.Tests.ErrorHandlerTests.ReturnsFailureOnTimeout [12 ms]', 3],
    ['Passed arguments failed validation: error in --config', 3],
  ])('still salient: %s', (line, score) => expect(lineSalience(line)).toBeGreaterThanOrEqual(score as number))

  it('reads a bounded prefix', () => {
    expect(startsWithSuccess(' '.repeat(1_000_000) + '✓ x', 0, 1_000_003)).toBe(false)
    expect(startsWithSuccess('', 0, 0)).toBe(false)
    expect(startsWithSuccess('PASS', 0, 4)).toBe(false)
    expect(startsWithSuccess('[ OK', 0, 4)).toBe(false)
  })

  it('agrees between the scan and lineSalience', () => {
    const text = ['  ✓ fails to remove a locked job', '  1) fails to add a job', 'PASS src/errors.test.ts', 'FAIL src/parser.test.ts'].join('\n')
    expect(scanLines(text, true).salient.map((s) => s.line)).toEqual([2, 4])
  })
})

describe('a success or progress verdict at the line end (salient.ts)', () => {
  it.each([
    "Test Case '-[IssueTests testFailBecauseOfError]' passed (0.001 seconds).",
    "Test Case '-[RunnerTests testYieldingError]' started.",
    '􀟈  Test "Error diagnostics emitted on API misuse" started.',
    'test parser::tests::error_on_empty_input ... ok',
    'tests/test_api.py::test_error_handler PASSED',
    '  ✓ rejects the request when the token fails validation passed',
    'ExceptionMapperTest > mapsTimeoutError SKIPPED',
    // pytest -v: the progress after the verdict
    'tests/test_counts_statistic.py::test_cash_errors[1-2-result0] PASSED                 [ 94%]',
    'tests/test_stats.py::test_error_matching XFAIL (flaky upstream)                       [100%]',
    // Swift Testing: the verdict before its duration (after the status glyph)
    '\u{10105B}  Test "Error diagnostics emitted on API misuse" passed after 1.285 seconds.',
    '\u{10105B}  Suite "Error handling" passed after 0.009 seconds.',
    'Test throwsError() passed after 1 second.',
    // CTest: the verdict before its duration
    '1/10 Test  #1: parser-error ....................   Passed    0.01 sec',
  ])('not salient: %s', (line) => expect(lineSalience(line)).toBe(0))

  it.each([
    // a count before the word makes it a summary, which keeps its failure count
    ['Tests: 1 failed, 3 passed', 3],
    ['=== 2 failed, 10 passed in 0.31s ===', 3],
    // the verdict is the failure, not a later word
    ["Test Case '-[IssueTests testParse]' failed (0.002 seconds).", 3],
    ['\u{100884}  Test "Error diagnostics" failed after 0.002 seconds with 1 issue.', 3],
    ['error: build failed after 12.5 seconds', 4],
    ['2/10 Test  #2: parser-error ....................***Failed    0.01 sec', 3],
    // after a duration, the verdict word counts only after a test's name, not in prose
    ['ERROR: Elasticsearch not started after 60 s', 4],
    ['Error: job skipped after 300 s.', 4],
    ['error: health check never passed after 120 s', 4],
    // .NET: `Passed` counts only with a vstest duration in brackets at the end
    ['Passed invalid config to parser: fatal error [see docs]', 3],
    ['error: linking with `cc` failed: exit status: 1', 4],
    ['FAILED: step was not ok', 4],
  ])('still salient: %s -> %i', (line, score) => expect(lineSalience(line)).toBe(score))

  it('reads only the line end and needs a whole word', () => {
    expect(endsWithSuccess('x passed', 0, 8)).toBe(true)
    expect(endsWithSuccess('error: bypassed', 0, 15)).toBe(false)
    expect(endsWithSuccess('error: 3 passed', 0, 15)).toBe(false)
    expect(endsWithSuccess('error: book', 0, 11)).toBe(false)
    expect(endsWithSuccess('ok', 0, 2)).toBe(true)
    expect(endsWithSuccess('FAILED: step was not ok', 0, 23)).toBe(false)
    expect(endsWithSuccess('', 0, 0)).toBe(false)
  })

  it('the scan agrees with lineSalience on such lines', () => {
    const text = ["Test Case '-[A testFail]' passed (0.000 seconds).", 'ERROR boom', 'test a::error_case ... ok', 'test a::b ... FAILED'].join('\n')
    expect(scanLines(text, true).salient.map((s) => s.line)).toEqual([2, 4])
  })
})

describe('an exception class mentioned in prose is not a verdict (salient.ts)', () => {
  it('weighs a class name without a colon as a mention, with a colon as a verdict', () => {
    const mention = lineSalience('/opt/ruby/lib/net/protocol.rb:66: warning: already initialized constant Net::ProtocRetryError')
    expect(mention).toBeGreaterThan(0)
    expect(mention).toBeLessThan(lineSalience('TypeError: undefined is not a function'))
    expect(lineSalience('retrying after a TimeoutException from the pool')).toBe(2)
    expect(lineSalience('java.lang.IllegalStateException: parser state broken')).toBe(4)
    expect(lineSalience('Caused by: com.acme.DiskFullException: no room')).toBe(4)
  })
})

describe('a keyword inside a code span is quoted code (salient.ts)', () => {
  it('weighs it one less than the same word outside', () => {
    expect(lineSalience('   = note: `-D clippy::unwrap-used` implied by `-D warnings`')).toBe(0)
    expect(lineSalience('   = help: to override `-D warnings` add `#[allow(clippy::cast_sign_loss)]`')).toBe(0)
    expect(lineSalience('note: the `error` value is dropped here')).toBe(1)
    expect(lineSalience('note: the error value is dropped here')).toBe(2)
  })

  it('leaves the verdict outside the span alone', () => {
    expect(lineSalience('error: used `unwrap()` on an `Option` value')).toBe(4)
    expect(lineSalience('warning: unused variable `x`')).toBe(1)
    expect(lineSalience('error[E0308]: mismatched types: expected `u32`, found `i64`')).toBe(4)
  })

  it('counts backticks between the line start and the hit only', () => {
    const t = 'a `b` error'
    expect(inCodeSpan(t, t.indexOf('error'), 0)).toBe(false)
    const u = 'a `b error` c'
    expect(inCodeSpan(u, u.indexOf('error'), 0)).toBe(true)
    const v = 'x `y\nwarning: z'
    expect(inCodeSpan(v, v.indexOf('warning'), v.indexOf('\n') + 1)).toBe(false)
  })
})

describe('a quiet tail gives its share to the failure (fit.ts)', () => {
  it('keeps more of a failure in the middle when the log ends with lines nothing flags', () => {
    const detail = Array.from({ length: 40 }, (_, i) => `    at com.acme.Step${i}.run(Step${i}.java:${i + 1})`)
    const lines = [...noise(200), 'java.lang.IllegalStateException: parser state broken', ...detail, ...noise(400, 201).map((l) => `Post job cleanup: ${l} with some longer text`)]
    const out = fitText(lines.join('\n'), 2500, profile).text
    expect(out.length).toBeLessThanOrEqual(2500)
    expect(out).toContain('java.lang.IllegalStateException: parser state broken')
    // the unit's frames got most of the tail's share
    expect(out).toContain('at com.acme.Step29.run(Step29.java:30)')
    // the log's last line is still shown
    expect(out).toContain(lines[lines.length - 1])
  })

  it('leaves the tail alone when it holds a salient line', () => {
    const lines = [...noise(200), 'ERROR: first failure', ...noise(400, 201), 'BUILD FAILED in 3s']
    const out = fitText(lines.join('\n'), 4000, profile).text
    expect(out).toContain('INFO step 597 done')
  })
})

describe('a CI timestamp does not hide a stack frame (middle.ts)', () => {
  it('grows a unit over timestamped indented frames as over plain ones', () => {
    const ts = (i: number): string => `2022-07-15T12:32:${String(10 + (i % 50)).padStart(2, '0')}.1234567Z `
    const frames = Array.from({ length: 20 }, (_, i) => `${ts(i)}    /home/runner/work/app/test/runs_test.rb:${i + 10}:in 'block in <class:RunsTest>'`)
    const lines = [...noise(300).map((l, i) => ts(i) + l), `${ts(1)}Error:`, `${ts(2)}RunsTest#test_pause:`, ...frames, ...noise(300, 301).map((l, i) => ts(i) + l), `${ts(3)}##[error]Process completed with exit code 1.`]
    const out = fitText(lines.join('\n'), 6000, profile).text
    expect(out).toContain(`${ts(1)}Error:`)
    // frames past the 6 lines of context are the unit's continuation
    expect(out).toContain('runs_test.rb:25:in')
  })
})

describe('a family of look-alike failure lines is shown whole (middle.ts)', () => {
  it('shows every failing test header of a crowded level, without each one\'s detail', () => {
    const tests = ['acid_stats', 'auto_join', 'basic_part', 'compustat', 'showlocks', 'decimal_3', 'decimal_5', 'group_dups', 'having_two', 'map_hook', 'mm_all', 'mm_buckets', 'parquet', 'row_id']
    const block = (t: string, i: number): string[] => [
      `[ERROR] testCliDriver[${t}](org.acme.cli.TestCliDriver)  Time elapsed: ${i + 1}.5 s  <<< FAILURE!`,
      'java.lang.AssertionError: ',
      `Client Execution succeeded but contained differences after executing ${t}.q`,
      `${i + 98}c${i + 98}`,
      `< 	totalSize           	${3978 + i}`,
      '---',
      `> 	totalSize           	${3950 + i}`,
      ...noise(20, i * 100),
    ]
    const lines = [...noise(100), ...tests.flatMap(block), ...noise(100, 5000)]
    const out = fitText(lines.join('\n'), 8000, profile).text
    expect(out.length).toBeLessThanOrEqual(8000)
    for (const t of tests) expect(out).toContain(`[ERROR] testCliDriver[${t}](org.acme.cli.TestCliDriver)`)
    // the first one keeps its detail
    expect(out).toContain('executing acid_stats.q')
  })

  it('gives every line its context when the level fits', () => {
    const lines = [...noise(100), ...['a', 'b', 'c'].flatMap((t) => [`ERROR: test ${t} failed`, `  expected ${t} got z`, ...noise(30)]), ...noise(100, 500)]
    const out = fitText(lines.join('\n'), 8000, profile).text
    for (const t of ['a', 'b', 'c']) expect(out).toContain(`  expected ${t} got z`)
  })
})

describe("the line after a `[WARNING] ...:` header is that warning's text (salient.ts)", () => {
  const scores = (text: string): Map<number, number> => new Map(scanLines(text, true).salient.map((s) => [s.line, s.score]))

  it('scores 1, behind a CI timestamp too', () => {
    for (const ts of ['', '2022-05-21T03:06:26.1234567Z ']) {
      const text = [`${ts}[INFO] Storing buildNumber: 1f73082a`, `${ts}[WARNING] Cannot get the branch information from the git repository: `, `${ts}Detecting the current branch failed: fatal: ref HEAD is not a symbolic ref`, `${ts}[ERROR] Failed to execute goal on project x: could not resolve dependencies`].join('\n')
      const s = scores(text)
      expect(s.get(3)).toBe(1)
      expect(s.get(4)).toBeGreaterThanOrEqual(4)
    }
  })

  it('keeps the score of a line with a level of its own, or after a warning that does not end with a colon', () => {
    const tagged = scores(['[WARNING] The requested profile "ci" could not be activated:', '[ERROR] Failed to execute goal: compilation failure'].join('\n'))
    expect(tagged.get(2)).toBeGreaterThanOrEqual(4)
    const plain = scores(['[WARNING] Using platform encoding to copy filtered resources', 'Error: the build failed: missing module'].join('\n'))
    expect(plain.get(2)).toBeGreaterThanOrEqual(4)
  })

  it.each([
    'Exception in thread "main" java.lang.OutOfMemoryError: Java heap space',
    'FAILED tests/test_a.py::test_a - AssertionError',
    '--- FAIL: TestFoo (0.00s)',
    'npm ERR! code ELIFECYCLE',
    'src/foo.py:12: error: Incompatible types in assignment',
    '2022-05-21T03:06:26.1234567Z [ERROR] Failed to execute goal on project x: compilation failure',
  ])('keeps a failure that starts with its word, in capitals, after a location or with a runner shape: %s', (line) => {
    const ts = line.startsWith('2022') ? '2022-05-21T03:06:26.1234567Z ' : ''
    expect(scores([`${ts}[WARNING] Cannot get the branch information from the git repository: `, line].join('\n')).get(2)).toBeGreaterThanOrEqual(4)
  })

  it('does not read a warning that holds a failure word of its own as a header (maven-enforcer)', () => {
    const s = scores(['[WARNING] Rule 0: org.apache.maven.plugins.enforcer.DependencyConvergence failed with message:', 'Failed while enforcing releasability the error(s) are'].join('\n'))
    expect(s.get(2)).toBeGreaterThanOrEqual(4)
  })
})
