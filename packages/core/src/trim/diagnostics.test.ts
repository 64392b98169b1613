// Round 6 of issue 16 (breadth): diagnostics in the shapes most compilers and linters share, a
// compact reporter's failed test, and a failure's context that ends at a passing test. Lines are
// written from each tool's documented output format, not copied from any corpus log.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fitText } from './fit.js'
import { DEFAULT_PROFILES } from './profiles.js'
import { runnerShape } from './runners.js'
import { afterLocation } from './keywords.js'
import { inUrl, lineSalience, scanLines } from './salient.js'
import { isCrossMark, shapeScore } from './shapes.js'
import { weighSalient } from './weigh.js'
import { noise } from './fixture.js'

const profile = DEFAULT_PROFILES.terminal!
const hit = (line: string, word: string): boolean => afterLocation(line.toLowerCase(), line.indexOf(word))

describe('a keyword after a source location (salient.ts, afterLocation)', () => {
  it.each([
    ['gcc/clang', 'src/parser.c:42:9: error: use of undeclared identifier', 'error'],
    ['mypy', 'parser.py:12: error: Incompatible return value type', 'error'],
    ['tsc', "src/parser.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.", 'error'],
    ['MSVC, line only', "parser.c(12): error C2065: 'tok': undeclared identifier", 'error'],
    ['tsc --pretty', "src/parser.ts:12:5 - error TS2322: Type 'string' is not assignable", 'error'],
    ['pyright', '  /src/parser.py:12:5 - error: "tok" is not defined', 'error'],
    ['ESLint stylish', "  12:5  error  'tok' is not defined  no-undef", 'error'],
    ['stylelint', '  3:10  warning  Unexpected unknown property  property-no-unknown', 'warning'],
  ])('%s', (_name, line, word) => expect(hit(line, word)).toBe(true))

  it.each([
    ['a clock time', '12:00:01 warning: low disk space', 'warning'],
    ['a clock time, two spaces', '12:00:01  warning  low disk space', 'warning'],
    ['a bracketed time', '[12:34:56] error connecting', 'error'],
    ['prose in parentheses', 'see the log (1): error details below', 'error'],
    ['a column pair glued to a word', 'step1:2  error  in prose', 'error'],
    ['no location', 'the build reported an error', 'error'],
    ['a count', 'Tests: 12  error  x', 'error'],
  ])('not a location: %s', (_name, line, word) => expect(hit(line, word)).toBe(false))

  it('a located error is a verdict (4), a located warning a diagnostic (2)', () => {
    expect(lineSalience("src/parser.ts(12,5): error TS2322: Type 'string' is not assignable")).toBe(4)
    expect(lineSalience("  12:5  error  'tok' is not defined  no-undef")).toBe(4)
    expect(lineSalience('src/parser.ts:12:5 - error TS2322: Type mismatch')).toBe(4)
    expect(lineSalience('  3:10  warning  Unexpected console statement  no-console')).toBe(2)
    expect(lineSalience("Parser.cs(12,5): warning CS8618: Non-nullable field 'tok' must contain a value")).toBe(2)
    // before: a mention (2) and a log-level warning (1)
    expect(lineSalience('the error TS2322 is explained in the handbook')).toBe(2)
    expect(lineSalience('12:00:01 warning low disk space')).toBe(1)
  })
})

describe("a diagnostic's code after its keyword (salient.ts)", () => {
  it.each([
    "error TS2304: Cannot find name 'tok'.",
    "error CS0103: The name 'tok' does not exist in the current context",
    'error LNK2019: unresolved external symbol _parse referenced in function _main',
    'LINK : fatal error LNK1104: cannot open file parser.lib',
  ])('%s is a verdict', (line) => expect(lineSalience(line)).toBe(4))

  it("a warning with a code is a compiler's diagnostic (2, a verdict at the line start: 3), not a log level (1)", () => {
    expect(lineSalience("cl : warning C4996: 'strcpy': This function or variable may be unsafe")).toBe(2)
    expect(lineSalience("  warning C4996: 'strcpy': This function or variable may be unsafe")).toBe(3)
    expect(lineSalience('cl : warning something happened')).toBe(1)
    expect(lineSalience('  warning something happened')).toBe(1)
  })

  it('after a word, the code makes the verdict', () => expect(lineSalience('the compiler said error TS2304: x')).toBe(4))

  it.each([
    'the compiler said error TS2304 without its colon',
    'the compiler said error Ts2304: not capitals',
    'the compiler said error T2: one digit',
    'the compiler said error TOOLONGX123: seven capitals',
    'the compiler said error TS1234567: seven digits',
    'see ErrorHandler CS0103: an identifier',
  ])('not a coded diagnostic: %s', (line) => expect(lineSalience(line)).toBeLessThan(4))
})

describe("a diagnostic's location at the line start, whatever its words (shapes.ts)", () => {
  it.each([
    ['go build', './parser.go:12:5: undefined: tok'],
    ['go vet', './parser.go:42:2: fmt.Printf format %d has arg tok of wrong type string'],
    ['flake8', './parser.py:1:1: E302 expected 2 blank lines, found 1'],
    ['absolute path', '/src/parser/parser.c:3:14: expected expression'],
    ['after a CI timestamp', '2024-03-01T10:11:12.1234567Z ./parser.go:12:5: undefined: tok'],
  ])('%s', (_name, line) => {
    expect(shapeScore(line, 0, line.length)).toBe(2)
    expect(lineSalience(line)).toBe(2)
    expect(scanLines(['go build ./...', line, 'exit'].join('\n'), true).salient.map((s) => s.line)).toEqual([2])
  })

  it.each([
    ['a note', './parser.c:3:5: note: in expansion of macro'],
    ['a help line', './parser.rs:3:5: help: consider borrowing here'],
    ['no column', './parser.go:12: something'],
    ['no extension', './bin/parser:12:5: something'],
    ['a dot in a directory only', './v1.2/parser:12:5: something'],
    ['nothing after the column', './parser.go:12:5:'],
    ['a URL', '/api/v1:8080:12: proxy'],
    ['no space after', './parser.go:12:5:tok'],
    ['a relative path that starts with a letter (not looked for, see the module note)', 'parser.go:12:5: undefined: tok'],
  ])('not a diagnostic lead: %s', (_name, line) => expect(shapeScore(line, 0, line.length)).toBe(0))
})

describe("the compact reporter's failed test (Dart, Flutter), Pest's cross, GNU make", () => {
  it('a failed test: `[E]` after the progress counts (3); a passing one is nothing', () => {
    const failed = '00:01 +3 ~1 -1: test/parser_test.dart: parses an empty document [E]'
    expect(shapeScore(failed, 0, failed.length)).toBe(3)
    expect(lineSalience(failed)).toBe(3)
    expect(runnerShape(failed)).toBe('failure')
    expect(scanLines(['00:00 +0: loading test/parser_test.dart', failed, '  Expected: <2>'].join('\n'), true).salient.map((s) => s.line)).toEqual([2])
    for (const line of ['00:01 +3: test/parser_test.dart: parses an empty document', '00:01 +3 [E]', '12:00 -1: x [E]', '12:00:01 +3 x [E]', '00:01 +3: [E] first, not last'])
      expect(shapeScore(line, 0, line.length)).toBe(0)
  })

  it('`⨯` (Pest, Collision) marks a failed test as `✕` does', () => {
    expect(isCrossMark('⨯'.charCodeAt(0))).toBe(true)
    expect(shapeScore('  ⨯ it parses an empty document', 0, 31)).toBe(4)
    expect(shapeScore('  ⨯', 0, 3)).toBe(0)
  })

  it("make's recipe failure is a failure line", () => {
    expect(runnerShape('make[2]: *** [src/CMakeFiles/parser.dir/build.make:76: src/parser.o] Error 1')).toBe('failure')
    expect(runnerShape('make: *** [Makefile:12: all] Error 2')).toBe('failure')
    expect(runnerShape('make[1]: Leaving directory /src')).toBeUndefined()
    expect(runnerShape('remake: *** not make')).toBeUndefined()
  })
})

describe('a keyword inside a URL is an address, not a verdict (salient.ts, inUrl)', () => {
  it.each([
    'Downloaded from central: https://repo.maven.apache.org/maven2/org/acme/fail-fast/1.0/fail-fast-1.0.jar (3 kB at 10 kB/s)',
    'Download https://repo.gradle.org/gradle/libs/org/acme/exception-handler-1.0.jar',
    'See https://ci.example.com/job/12/error for details',
  ])('%s', (line) => {
    expect(lineSalience(line)).toBe(0)
    expect(scanLines(['start', line, 'end'].join('\n'), true).salient).toEqual([])
  })

  it('reads back to the token start only, at most 200 chars', () => {
    const far = 'https://' + 'a'.repeat(300) + 'error'
    expect(inUrl(far, far.length - 5, 0)).toBe(false)
    expect(inUrl('x https://a/error', 12, 0)).toBe(true)
    expect(inUrl('https://a/ error', 11, 0)).toBe(false)
  })

  it('a keyword before or after the URL still counts', () => {
    expect(lineSalience('Error: https://example.com/a could not be reached')).toBe(4)
    expect(lineSalience('curl: (22) The requested URL https://example.com/a returned error: 404')).toBeGreaterThanOrEqual(3)
    expect(lineSalience('fetch https://example.com/a failed')).toBe(3)
    // a path without a scheme is not a URL
    expect(lineSalience('src/fail/handler.ts failed')).toBe(3)
  })
})

describe("kotlinc's error line (shapes.ts, runners.ts)", () => {
  it.each([
    'e: file:///home/ci/app/src/main/kotlin/Parser.kt:12:5 Type mismatch: inferred type is String but Int was expected',
    'e: /home/ci/app/src/main/kotlin/Parser.kt: (12, 5): Type mismatch: inferred type is String but Int was expected',
    'e: C:\\ci\\app\\Parser.kt: (12, 5): Type mismatch',
    '2024-03-01T10:11:12.1234567Z e: file:///home/ci/app/Parser.kt:12:5 Type mismatch',
  ])('%s', (line) => {
    expect(shapeScore(line, 0, line.length)).toBe(3)
    expect(lineSalience(line)).toBe(3)
    expect(runnerShape(line)).toBe('failure')
  })

  it.each(['e: something went sideways', 'echo e: /tmp', '  e: /src/Parser.kt: indented', 'w: file:///home/ci/app/Parser.kt:12:5 deprecated', 'e:/src/Parser.kt', 'else: /x'])('not a kotlinc error: %s', (line) =>
    expect(shapeScore(line, 0, line.length)).toBe(0),
  )
})

describe('never throws, bounded, scan agrees with lineSalience (new shapes)', () => {
  it('on any line after a location-like or progress-like prefix', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.constantFrom('', './a.go:', './a.go:1:2: ', '/x.c:1:', '00:01 +', '00:01 +1 -1: ', '  12:5  ', 'a.ts(1,2): ', 'error TS', '⨯ ', 'e: ', 'e: file:/'), (s, prefix) => {
        const line = (prefix + s).replace(/[\r\n]/g, ' ')
        expect([0, 2, 3, 4]).toContain(shapeScore(line, 0, line.length))
        expect(scanLines(line, true).salient[0]?.score ?? 0).toBe(lineSalience(line))
      }),
      { numRuns: 400 },
    )
    const long = './' + 'a'.repeat(1_000_000) + '.go:1:2: x'
    expect(shapeScore(long, 0, long.length)).toBe(0)
  })
})

describe("a failure's context ends at a passing test (middle.ts)", () => {
  it('a spec list of 24 failures between passing tests: every failure is shown, no passing test after one', () => {
    const lines: string[] = ['mocha --reporter spec', '']
    for (let k = 1; k <= 24; k++) {
      lines.push(`    ${k}) processes queue ${k} with a distinct name`)
      for (let p = 0; p < 6; p++) lines.push(`    ✓ handles case ${k}.${p} of the queue that passed (${10 + p}ms)`)
    }
    lines.push(...Array.from({ length: 200 }, (_, i) => `  log line ${i} of a quiet tail`))
    const out = fitText(lines.join('\n'), 4000, profile).text
    for (let k = 1; k <= 24; k++) expect(out).toContain(`${k}) processes queue ${k} with a distinct name`)
    expect(out).not.toMatch(/^\d+: +✓ handles case/m)
    expect(out.length).toBeLessThanOrEqual(4000)
  })

  it('context still follows a failure up to a passing test, and past lines that only mention one', () => {
    const lines = [...noise(100, 0), 'FAIL parser parses an empty document', '  Expected: 1', '  Received: 2', 'okay, continuing', '  ✓ parses a list', ...noise(100, 200)]
    const out = fitText(lines.join('\n'), 1500, profile).text
    for (const l of ['  Expected: 1', '  Received: 2', 'okay, continuing']) expect(out).toContain(l)
    expect(out).not.toContain('✓ parses a list')
  })
})

describe("the first failure's runner points (weigh.ts)", () => {
  it('go to the first failure, not to a warning in a failure shape before it', () => {
    const text = [
      '[WARNING] /ci/src/main/java/acme/Parser.java:[12,5] unchecked call to add(E)',
      'noise',
      '[ERROR] /ci/src/main/java/acme/Lexer.java:[40,9] cannot find symbol',
      'noise',
    ].join('\n')
    const salient = scanLines(text, true).salient
    const off = new Map(weighSalient(text, salient, { weights: { runner: 0 } }).map((s) => [s.line, s.score]))
    const on = new Map(weighSalient(text, salient, { weights: { runner: 2 } }).map((s) => [s.line, s.score]))
    expect(on.get(1)).toBe(off.get(1))
    expect(on.get(3)).toBe(off.get(3)! + 2)
  })
})
