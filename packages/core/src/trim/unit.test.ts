// A salient line shown without its full context keeps its smallest unit (unit.ts, middle.ts):
// a bare verdict header keeps the lines that say what failed, a diagnostic keeps its location,
// and the same headline at another location is not taken for a line already shown.
import { describe, expect, it } from 'vitest'
import { fitText } from './fit.js'
import { DEFAULT_PROFILES } from './profiles.js'
import { isBareHeader, isTestFailureHeader, unitAfter } from './unit.js'
import { noise } from './fixture.js'

const profile = DEFAULT_PROFILES.terminal!
const lineOf = (text: string, n: number): { n: number; start: number; end: number } => {
  const lines = text.split('\n')
  const start = lines.slice(0, n - 1).reduce((s, l) => s + l.length + 1, 0)
  return { n, start, end: start + lines[n - 1]!.length }
}
const header = (line: string): boolean => isBareHeader(line, 0, line.length)

describe('isBareHeader (unit.ts)', () => {
  it.each([
    'Error:',
    'Failure:',
    '  1) Failure:',
    '12) Error:',
    '* What went wrong:',
    '2022-07-15T12:32:53.3558747Z Error:',
    'parser_test.cc:42: Failure',
    'unknown file: Failure',
    'FILE:#: Failure',
    'src/app.c:12: error',
  ])('a bare header: %s', (line) => expect(header(line)).toBe(true))

  it.each([
    'Error: cannot find symbol',
    'ErrorHandler.java:12: note',
    'ERROR: connection refused',
    'Caused by: java.io.IOException: disk full',
    'at com.acme.Parser.parse(Parser.java:12)',
    'src/a.c:3:5: error: expected ;',
    'INFO step 3 done',
    'The build finished with an error in step 4:',
    '1) ',
    'Failure',
    ':',
    '',
  ])('not a bare header: %s', (line) => expect(header(line)).toBe(false))

  it('reads a bounded prefix of a long line', () => {
    const long = 'x'.repeat(1_000_000) + ': Failure'
    expect(header(long)).toBe(false)
  })
})

describe('unitAfter (unit.ts)', () => {
  it('a bare header: the next two non-blank lines, blank ones between included', () => {
    const text = ['Error:', 'ParserTest#test_empty:', '', 'ArgumentError: no tokens', '    app/parser.rb:12', 'done'].join('\n')
    expect(unitAfter(text, lineOf(text, 1), text.length).map((l) => l.n)).toEqual([2, 3, 4])
  })

  it('a diagnostic followed by a `-->` location: that line', () => {
    const text = ['error: unnecessary hashes around raw string literal', '   --> src/rules/text.rs:364:20', '    |', '364 |  let code = r#"'].join('\n')
    expect(unitAfter(text, lineOf(text, 1), text.length).map((l) => l.n)).toEqual([2])
  })

  it("one JUnit test's failure header (Surefire, Gradle): its exception on the next non-blank line", () => {
    const surefire = ['[ERROR] getMonitor  Time elapsed: 0.748 s  <<< ERROR!', 'org.mockito.exceptions.misusing.InjectMocksException: ', '', 'Cannot instantiate @InjectMocks field'].join('\n')
    expect(unitAfter(surefire, lineOf(surefire, 1), surefire.length).map((l) => l.n)).toEqual([2])
    const old = ['testParse(com.acme.ParserTest)  Time elapsed: 0.01 sec  <<< FAILURE!', '', 'java.lang.AssertionError: expected:<1> but was:<2>'].join('\n')
    expect(unitAfter(old, lineOf(old, 1), old.length).map((l) => l.n)).toEqual([2, 3])
    const gradle = ['ParserTest > parsesEmptyInput() FAILED', '    org.opentest4j.AssertionFailedError at ParserTest.java:42'].join('\n')
    expect(unitAfter(gradle, lineOf(gradle, 1), gradle.length).map((l) => l.n)).toEqual([2])
    const t = (line: string): boolean => isTestFailureHeader(line, 0, line.length)
    expect(t('Tests run: 3, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.5 s <<< FAILURE! - in com.acme.ParserTest')).toBe(false)
    expect(t('BUILD FAILED')).toBe(false)
    expect(t('> Task :app:test FAILED')).toBe(false) // a task's verdict, not one test's
    expect(t('x'.repeat(5000) + ' <<< FAILURE!')).toBe(true)
  })

  it("a javac diagnostic: its `symbol:` and `location:` lines (Maven's form, its `[ERROR]` copy, plain javac's after the source line and caret)", () => {
    const maven = ['[ERROR] /x/src/main/java/a/B.java:[15,53] cannot find symbol', '  symbol:   class PNSpaceResult', '  location: package com.pubnub.api.models', '[ERROR] /x/src/main/java/a/B.java:[16,53] cannot find symbol'].join('\n')
    expect(unitAfter(maven, lineOf(maven, 1), maven.length).map((l) => l.n)).toEqual([2, 3])
    const copy = ['[ERROR] /x/src/main/java/a/B.java:[94,49] cannot find symbol', '[ERROR]   symbol: class PNUserResult', '[ERROR] /x/src/main/java/a/B.java:[99,50] cannot find symbol'].join('\n')
    expect(unitAfter(copy, lineOf(copy, 1), copy.length).map((l) => l.n)).toEqual([2])
    const plain = ['src/a/B.java:15: error: cannot find symbol', '        import com.pubnub.api.models.PNSpaceResult;', '                                    ^', '  symbol:   class PNSpaceResult', '  location: package com.pubnub.api.models', '1 error'].join('\n')
    expect(unitAfter(plain, lineOf(plain, 1), plain.length).map((l) => l.n)).toEqual([2, 3, 4, 5])
    // only under a javac diagnostic, and never over the next one
    const next = ['[ERROR] /x/src/main/java/a/A.java:[10,5] incompatible types: java.lang.String cannot be converted to int', '[ERROR] /x/src/main/java/a/B.java:[15,53] cannot find symbol', '[ERROR]   symbol:   class PNSpaceResult'].join('\n')
    expect(unitAfter(next, lineOf(next, 1), next.length)).toEqual([])
    const gcloud = ['ERROR: (gcloud.functions.deploy) OperationError: code=3, message=Build failed', 'metadata:', '  name: projects/p/locations/us-central1/functions/f', '  location: us-central1'].join('\n')
    expect(unitAfter(gcloud, lineOf(gcloud, 1), gcloud.length)).toEqual([])
    // no detail within reach: nothing
    const none = ['[ERROR] /x/src/main/java/a/B.java:[15,53] cannot find symbol', '[INFO] 1 error', '[INFO] -------', '[INFO] BUILD FAILURE', '[INFO] -------', '  symbol: too far'].join('\n')
    expect(unitAfter(none, lineOf(none, 1), none.length)).toEqual([])
  })

  it('any other line: nothing; nothing past the limit', () => {
    const text = ['ERROR: connection refused', '   --> not after a header', 'Error:', 'name'].join('\n')
    expect(unitAfter(text, lineOf(text, 1), text.length).map((l) => l.n)).toEqual([2])
    expect(unitAfter(text, lineOf(text, 2), text.length)).toEqual([])
    expect(unitAfter(text, lineOf(text, 3), lineOf(text, 4).start)).toEqual([])
    expect(unitAfter('Error:', lineOf('Error:', 1), 6)).toEqual([])
  })
})

describe('the picker in a crowded level (middle.ts)', () => {
  it('context after shrinks line by line, so every one of 16 distinct failures is shown', () => {
    const words = ['disk', 'network', 'parser', 'index', 'cache', 'schema', 'socket', 'lock', 'queue', 'token', 'config', 'module', 'plugin', 'thread', 'memory', 'signal']
    const fatal = (k: number): string => `FATAL ${words[k]!} ${'subsystem '.repeat(k % 5)}stopped: ${words[(k + 3) % 16]!} unavailable`
    const lines: string[] = [...noise(300)]
    for (let k = 0; k < 16; k++) lines.push(fatal(k), ...Array.from({ length: 8 }, (_, i) => `detail ${i} of the ${words[k]} report, nothing to see here`), ...noise(5, 1000 + 10 * k))
    lines.push(...noise(300, 2000))
    const out = fitText(lines.join('\n'), 5000, profile).text
    for (let k = 0; k < 16; k++) expect(out).toContain(fatal(k))
    // the strongest keep some detail
    expect(out).toContain('detail 0 of the')
    expect(out.length).toBeLessThanOrEqual(5000)
  })

  it('every failing test of 14 minitest-style `Error:` blocks keeps its test name', () => {
    const frames = (k: number): string[] => Array.from({ length: 20 }, (_, i) => `    /ci/vendor/bundle/gems/capybara-3.37.1/lib/capybara/node/finders.rb:${300 + i + k}:in 'block in synchronize'`)
    const block = (k: number): string[] => ['', 'Error:', `ParserTest#test_case_${k}_saves:`, `Capybara::ElementNotFound: Unable to find button "Save ${k}"`, ...frames(k), '', `rails test test/parser_test.rb:${10 + k}`]
    const lines = [...noise(200), ...Array.from({ length: 14 }, (_, k) => block(k)).flat(), '14 runs, 14 assertions, 0 failures, 14 errors, 0 skips', ...noise(200, 201)]
    const out = fitText(lines.join('\n'), 8000, profile).text
    for (let k = 0; k < 14; k++) expect(out).toContain(`ParserTest#test_case_${k}_saves:`)
    expect(out.length).toBeLessThanOrEqual(8000)
  })

  it('the same clippy headline at 12 locations: each location is shown', () => {
    const finding = (k: number): string[] => [
      'error: unnecessary hashes around raw string literal',
      `   --> src/rules/text/inline_comments.rs:${100 + 17 * k}:20`,
      '    |',
      `${100 + 17 * k} |           let code = r#"`,
      '    |  ____________________^',
      `${101 + 17 * k} | | fn over_commented() {`,
      '    |',
      '    = help: for further information visit https://rust-lang.github.io/rust-clippy/index.html#needless_raw_string_hashes',
      '',
    ]
    const lines = [...noise(150), ...Array.from({ length: 12 }, (_, k) => finding(k)).flat(), ...noise(150, 151)]
    const out = fitText(lines.join('\n'), 6000, profile).text
    for (let k = 0; k < 12; k++) expect(out).toContain(`--> src/rules/text/inline_comments.rs:${100 + 17 * k}:20`)
    expect(out.length).toBeLessThanOrEqual(6000)
  })
})
