// The project's own frame of a stack trace (frames.ts) and the order traces grow in (middle.ts).
import { describe, expect, it } from 'vitest'
import { fitText } from './fit.js'
import { appFrames, framePath, isDependencyPath } from './frames.js'
import { DEFAULT_PROFILES } from './profiles.js'
import { scanLines } from './salient.js'
import { noise } from './fixture.js'

const profile = DEFAULT_PROFILES.terminal!
const path = (line: string): string | undefined => framePath(line, 0, line.length)

describe('framePath and isDependencyPath (frames.ts)', () => {
  it.each([
    ["    /ci/vendor/bundle/ruby/3.1.0/gems/capybara-3.37.1/lib/capybara/node/finders.rb:310:in 'block in synchronize'", '/ci/vendor/bundle/ruby/3.1.0/gems/capybara-3.37.1/lib/capybara/node/finders.rb', true],
    ["    /home/runner/work/app/app/test/system/runs_test.rb:91:in 'block in <class:RunsTest>'", '/home/runner/work/app/app/test/system/runs_test.rb', false],
    ['      at Context.<anonymous> (test/test_queue.js:1282:10)', 'test/test_queue.js', false],
    ['    at Assertion.assert (node_modules/expect.js/index.js:96:13)', 'node_modules/expect.js/index.js', true],
    ['    at processTicksAndRejections (node:internal/process/task_queues:95:5)', 'node:internal/process/task_queues', true],
    ['  File "/usr/lib/python3.11/unittest/case.py", line 57, in testPartExecutor', undefined, false],
    ['   --> src/rules/text/inline_comments.rs:523:20', 'src/rules/text/inline_comments.rs', false],
    ['2022-07-15T12:32:53.3567408Z     /home/runner/work/app/app/test/runs_test.rb:91:in `block`', '/home/runner/work/app/app/test/runs_test.rb', false],
    ['    at async ModuleJob.run (file:///home/runner/work/app/test/a.test.mjs:12:5)', 'file:///home/runner/work/app/test/a.test.mjs', false], // an ES module's frame
    ['    at UserContext.<anonymous> (http://localhost:9876/_karma_webpack_/src/app/a.spec.ts:12:5)', 'http://localhost:9876/_karma_webpack_/src/app/a.spec.ts', false], // a browser's frame (Karma)
  ])('%s', (line, expected, dependency) => {
    expect(path(line)).toBe(expected)
    if (expected !== undefined) expect(isDependencyPath(expected)).toBe(dependency)
  })

  it.each([
    'INFO step 3 done',
    'src/a.c:3:5: error: expected ;', // not indented: a diagnostic, not a frame
    '\tat org.junit.Assert.fail(Assert.java:88)', // no path: a JVM frame names a class
    '    Expected: 3 (took 12:30 minutes)',
    '    see https://example.com/docs',
    // a URL with a port in a Jest code frame's source line: an address, not a frame
    "      116 |         const browser1 = await Apify.launchPuppeteer({ proxyUrl: 'socks4://example.com:1234' });",
    '    proxy at http://127.0.0.1:8080/path failed',
  ])('not a frame with a path: %s', (line) => expect(path(line)).toBeUndefined())

  it('reads a bounded prefix of a long line', () => {
    expect(path('    ' + 'x'.repeat(1_000_000) + '/a.rb:12')).toBeUndefined()
  })
})

describe('appFrames (frames.ts)', () => {
  it('adds the first project frame under a failure, with its score, once per trace', () => {
    const lines = [
      'Error:',
      'RunsTest#test_pause:',
      'Capybara::ElementNotFound: Unable to find link or button "Pause"',
      "    /ci/vendor/bundle/gems/capybara-3.37.1/lib/capybara/node/finders.rb:310:in 'block in synchronize'",
      "    /ci/vendor/bundle/gems/capybara-3.37.1/lib/capybara/node/actions.rb:26:in 'click_on'",
      "    /ci/app/test/system/runs_test.rb:91:in 'block in <class:RunsTest>'",
      "    /ci/app/test/system/runs_test.rb:12:in 'visit_page'",
      "    /ci/vendor/bundle/gems/minitest-5.16.2/lib/minitest/test.rb:98:in 'run'",
      '',
    ]
    const text = lines.join('\n')
    const salient = scanLines(text, true).salient
    const frames = appFrames(text, salient, 0, text.length)
    // the trace starts within three lines of `Error:`, whose score the frame takes
    expect(frames.map((f) => [f.line, f.score])).toEqual([[6, salient.find((s) => s.line === 1)!.score]])
  })

  it('nothing for a failure without a trace, or a trace of dependencies only', () => {
    const text = ['ERROR: connection refused', 'INFO retrying', 'Error: boom', '    at f (node_modules/lib/index.js:3:1)', '    at g (node:internal/timers:5:2)'].join('\n')
    expect(appFrames(text, scanLines(text, true).salient, 0, text.length)).toEqual([])
  })
})

describe('the project frame in the excerpt (weigh.ts, middle.ts)', () => {
  it('a crowded log of failing system tests keeps each test-file frame under its library frames', () => {
    const block = (k: number): string[] => [
      '',
      'Error:',
      `RunsTest#test_case_${k}:`,
      `Capybara::ElementNotFound: Unable to find button "Save ${k}"`,
      ...Array.from({ length: 12 }, (_, i) => `    /ci/vendor/bundle/gems/capybara-3.37.1/lib/capybara/node/finders.rb:${300 + i}:in 'block in synchronize'`),
      `    /ci/app/test/system/runs_test.rb:${40 + 7 * k}:in 'block in <class:RunsTest>'`,
      ...Array.from({ length: 8 }, (_, i) => `    /ci/vendor/bundle/gems/minitest-5.16.2/lib/minitest/test.rb:${90 + i}:in 'run'`),
    ]
    const lines = [...noise(200), ...Array.from({ length: 6 }, (_, k) => block(k)).flat(), '', '6 runs, 6 assertions, 0 failures, 6 errors, 0 skips', ...noise(200, 201)]
    const out = fitText(lines.join('\n'), 8000, profile).text
    for (let k = 0; k < 6; k++) expect(out).toContain(`/ci/app/test/system/runs_test.rb:${40 + 7 * k}:in`)
    expect(out.length).toBeLessThanOrEqual(8000)
  })

  it('of two traces at one level, the earlier one grows first (a first failure is most often the cause)', () => {
    const trace = (name: string, n: number): string[] => [
      `java.lang.IllegalStateException: ${name} failed to start`,
      ...Array.from({ length: n }, (_, i) => `\tat com.acme.${name}.step${i}(${name}.java:${i + 10})`),
    ]
    const lines = [...noise(300), ...trace('Parser', 40), ...noise(40, 301), ...trace('Indexer', 40), ...noise(300, 341)]
    const out = fitText(lines.join('\n'), 3000, profile).text
    const shown = (name: string): number => out.split('\n').filter((l) => l.includes(`at com.acme.${name}.step`)).length
    expect(shown('Parser')).toBeGreaterThan(shown('Indexer'))
    expect(out.length).toBeLessThanOrEqual(3000)
  })
})

describe('only frames appFrames added are shown alone (middle.ts)', () => {
  it('an indented compiler error with a path keeps the lines after it (it is not a stack frame)', () => {
    const lines = [
      ...noise(400),
      "  src/lib/a.c:3:5: error: expected ';' before 'return'",
      '    3 | int x = 1',
      '      |          ^',
      "      |          ;",
      "  src/lib/a.c:2:1: note: in expansion of macro 'SET'",
      ...noise(400, 401),
    ]
    const out = fitText(lines.join('\n'), 3_000, profile).text
    expect(out).toContain("error: expected ';' before 'return'")
    expect(out).toContain('3 | int x = 1')
    expect(out).toContain('|          ^')
  })
})
