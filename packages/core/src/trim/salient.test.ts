import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { lineSalience, scanLines } from './salient.js'
import { countLines } from './text.js'

describe('lineSalience', () => {
  it.each([
    ['ERROR: could not resolve host', 4],
    ['[ERROR] Failed to execute goal', 4],
    ['Traceback (most recent call last):', 4],
    ['java.lang.NullPointerException: x is null', 4],
    ['TypeError: undefined is not a function', 4],
    ['error[E0308]: mismatched types', 4],
    ['npm ERR! code ELIFECYCLE', 4],
    ['--- FAIL: TestParse (0.00s)', 4],
    ['panic: runtime error: index out of range', 4],
    ['bash: line 152: pom.bak5.xml: No space left on device', 3],
    ['Process exited with exit code 2', 2],
    ['Improve the error message when installing', 2],
    ['warning: unused variable `x`', 1],
  ])('%s -> %i', (line, score) => expect(lineSalience(line)).toBe(score))

  it.each([
    'Tests run: 12, Failures: 0, Errors: 0, Skipped: 1',
    '0 errors, 0 warnings',
    'Process exited with exit code 0',
    'Compiling src/ErrorHandler.java',
    '[INFO] --- maven-failsafe-plugin:2.22:verify',
    'gcc -Werror -O2 main.c',
    'sudo apt-get install learning-tools',
    'errors_total{job="api"} 3 # metric name',
    // A keyword after an underscore ends a snake_case name: a test id, a handler, a file.
    'gammapy/stats/tests/test_counts_statistic.py::test_wstat_errors[1-2-1-result0]',
    '  def handle_exception(self, request):',
    '# ./lib/octokit/response/raise_error.rb:14:in `on_complete\'',
    // bash's option, which GitHub Actions prints for every `run:` step.
    'shell: /usr/bin/bash --noprofile --norc -e -o pipefail {0}',
    // git's advice, which actions/checkout's `git init` prints in every GitHub Actions job, and
    // a stopped rebase's.
    'hint: of your new repositories, which will suppress this warning, call:',
    '2022-04-27T19:35:30.9419165Z hint: of your new repositories, which will suppress this warning, call:',
    'hint: Could not execute the todo command',
  ])('not salient: %s', (line) => expect(lineSalience(line)).toBe(0))

  it.each([
    ['FAILED tests/test_errors.py::test_parse - ValueError: bad', 4],
    ['E   AssertionError: assert 1 == 2', 4],
    ['ERROR: test_errors (tests.test_api.ApiTest)', 4],
    // (another tool's hint that holds a failure word keeps it: only a warning's word is git's advice)
    ['hint: error: cannot find module "left-pad"', 4],
  ])('a verdict on a line that also names one stays salient: %s -> %i', (line, score) => expect(lineSalience(line)).toBe(score))
})

describe('scanLines', () => {
  const lineArb = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('ERROR x', 'all good', 'warning: y', '', '\r', 'FAILED'))
  const textArb = fc.array(lineArb, { maxLength: 200 }).chain((ls) => fc.constantFrom(ls.join('\n'), ls.join('\n') + '\n', ls.join('\r\n')))

  it('agrees with a naive split-and-score reference', () => {
    fc.assert(
      fc.property(textArb, (text) => {
        const scan = scanLines(text, true)
        const naive = text === '' ? [] : text.split('\n')
        if (text.endsWith('\n')) naive.pop()
        expect(scan.lines).toBe(naive.length)
        expect(scan.lines).toBe(countLines(text))
        const expected = naive.flatMap((l, i) => {
          const body = l.endsWith('\r') ? l.slice(0, -1) : l
          const score = lineSalience(body)
          return score > 0 ? [{ line: i + 1, score, text: body }] : []
        })
        expect(scan.salient.map((s) => ({ line: s.line, score: s.score, text: text.slice(s.start, s.end) }))).toEqual(expected)
        expect(scan.salientTotal).toBe(expected.length)
      }),
      { numRuns: 300 },
    )
  })

  it("does not count git's advice as a failure (actions/checkout's `git init` hint, a stopped rebase's)", () => {
    const text = [
      'hint: Using \'master\' as the name for the initial branch. This default branch name',
      'hint: of your new repositories, which will suppress this warning, call:',
      'Rebasing (1/2)',
      'error: could not apply 8f3c2a1... Add the parser',
      'hint: Could not execute the todo command',
      'hint: error: cannot find module "left-pad"',
    ]
      .map((l, i) => `2022-04-27T19:35:30.94${String(10 + i)}000Z ${l}`)
      .join('\n')
    const salient = scanLines(text, true).salient.map((s) => s.line)
    expect(salient).toContain(4)
    expect(salient).not.toContain(2)
    expect(salient).not.toContain(5)
    // (a failure word under another tool's `hint:` is kept)
    expect(salient).toContain(6)
  })

  it('keeps at most `limit` salient lines but counts them all', () => {
    const text = Array.from({ length: 50 }, () => 'ERROR boom').join('\n')
    const scan = scanLines(text, true, 10)
    expect(scan.salient).toHaveLength(10)
    expect(scan.salientTotal).toBe(50)
  })
})

describe('a zero count before a plural noun is no failure (keywords.ts zeroCountBefore)', () => {
  it.each([
    '[         0 tests failed          ]',
    '    [junit] [         0 containers failed     ]',
    '100% tests passed, 0 tests failed out of 10',
    '(0 failed)',
    '10 passed,  0 failed',
  ])('not salient: %s', (line) => expect(lineSalience(line)).toBe(0))

  it.each([
    ['[        14 tests failed          ]', 3],
    ['10 tests failed', 3],
    ['v1.0 tests failed', 3],
    // (the `0` of another number is no count of its own)
    ['1.0 failed', 3],
    ['1,0 tests failed', 3],
    ['worker0 tests failed', 3],
    ['shard-0 tests failed', 3],
    ['0 errors, 2 tests failed', 3],
  ])('a count that is not zero stays salient: %s -> %i', (line, score) => expect(lineSalience(line)).toBe(score))
})
