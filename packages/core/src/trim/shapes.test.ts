import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { runnerShape } from './runners.js'
import { lineSalience, scanLines } from './salient.js'
import { shapeScore } from './shapes.js'

// Synthetic lines in each runner's documented output format (written from the runners' docs and
// sources, not copied from any corpus log). None of them carries a failure keyword.
const NO_KEYWORD: Array<[string, string, number]> = [
  ['pytest section header', '_________________________ test_parse_empty _________________________', 3],
  ['pytest class test header', '____________________ TestParser.test_empty[unicode] ____________________', 3],
  ['pytest E line', 'E       where 3 = len([1, 2, 3])', 2],
  ['pytest E diff line', "E         - {'a': 1}", 2],
  ['Jest test header', '  ● Parser › parses an empty document', 3],
  ['cargo captured output', '---- parser::tests::parses_empty stdout ----', 3],
  ['Gradle what went wrong', '* What went wrong:', 3],
  ['PHPUnit numbered test', '1) App\\Tests\\ParserTest::testEmpty', 3],
  ['Mocha numbered failure', '  1) Parser', 3],
  ['Mocha failing hook', '    3) "before all" hook', 3],
  ['RSpec failed example', 'rspec ./spec/models/parser_spec.rb:12 # Parser parses an empty document', 3],
  ['Cucumber failing scenario', 'cucumber features/parse.feature:9 # Scenario: empty document', 3],
  ['Rails rerun line', 'rails test test/models/parser_test.rb:42', 3],
  ['Vitest failed test', ' × tests/unit/parser.test.ts > Parser > parses an empty document 5ms', 4],
  ['Jest failed test', '    ✕ parses an empty document (12 ms)', 4],
  ['node:test failed test', '✖ parses an empty document (1.2ms)', 4],
  ['AVA failed test', '  ✘ parser › parses an empty document', 4],
  ['Swift Testing issue', '\u{100884}  Test "Parser handles an empty document" recorded an issue with 1 argument input → "struct S {', 3],
  ['GitHub Actions timestamp', '2024-03-01T10:11:12.1234567Z ---- parser::tests::parses_empty stdout ----', 3],
  ['go test t.Error message', '    parser_test.go:42: got 3 tokens, want 2', 4],
  ['go test t.Error message, tab', '\tparser_test.go:42: got 3 tokens, want 2', 4],
  ['go test t.Error in a subtest', '        parser_test.go:42: unexpected token "}"', 4],
  ['go test -json t.Error', '{"Time":"2024-03-01T10:11:12.123Z","Action":"output","Package":"example.com/widget/parser","Test":"TestParseEmpty","Output":"    parser_test.go:42: got 3 tokens, want 2\\n"}', 4],
  ['go test -json, another shape inside', '{"Time":"2024-03-01T10:11:12.123Z","Action":"output","Package":"example.com/widget/parser","Test":"TestParse","Output":"    ---- parser::tests::x stdout ----\\n"}', 3],
]

const NOT_SHAPES = [
  '____',
  '________________________________________',
  '---- a horizontal rule',
  '----------------------------------------',
  'Everything is fine',
  'E',
  'rspec --version',
  'cucumber --help',
  'rails test',
  'rails test test/models/parser_test.rb',
  '×',
  '×  ',
  '  ✓ parses an empty document',
  '2 × 3 = 6',
  '✕',
  'rails testing the parser: 12',
  '\u{1004F8}  Test "Parser handles an empty document" started.',
  '\u{100884}  Suite "Parser" started with an issue tracker',
  '\u{10FFFF}',
  '  1) ',
  '1) first, install the tools',
  '1) "quoted" but not indented',
  '* Try:',
  '2024-03-01T10:11:12.1234567Z all good',
  '  ● Console',
  '12:00:01 building',
  // go test: only an indented `_test.go:N: ` location is a t.Error message
  'parser_test.go:42: got 3 tokens, want 2',
  '    parser.go:42: got 3 tokens, want 2',
  '    parser_test.go: no line',
  '    parser_test.go:42 no colon after the line',
  '    _test.go:42: too short a name',
  '    ErrorHandler_test.gone:12: not go',
  '{"Time":"2024-03-01T10:11:12.123Z","Action":"output","Package":"example.com/widget/parser","Test":"TestParse","Output":"=== RUN   TestParse\\n"}',
  '{"Time":"2024-03-01T10:11:12.123Z","Action":"pass","Package":"example.com/widget/parser","Test":"TestParse","Elapsed":0}',
  '{"level":"info","msg":"    parser_test.go:42: not in an Output field"}',
  '{"Output":"{\\"Output\\":\\"    a_test.go:1: nested\\"}"}',
  '{' + ' '.repeat(500) + '"Output":"    parser_test.go:42: past the probe\\n"}',
]

describe('runner shapes without a keyword (shapes.ts)', () => {
  it.each(NO_KEYWORD)('%s is salient', (_name, line, score) => {
    expect(shapeScore(line, 0, line.length)).toBe(score)
    expect(lineSalience(line)).toBe(score)
    const text = ['compiling', line, 'done'].join('\n')
    expect(scanLines(text, true).salient.map((s) => [s.line, s.score])).toEqual([[2, score]])
  })

  it.each(NOT_SHAPES)('not a shape: %s', (line) => {
    expect(shapeScore(line, 0, line.length)).toBe(0)
    expect(lineSalience(line)).toBe(0)
  })

  it('reads a bounded prefix, never throws, agrees with lineSalience on any line', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.constantFrom('', '___ ', 'E   ', '  ● ', '---- ', 'rspec ./', 'rails test ', '\u{100884}  Test "', '1) ', '2024-03-01T10:11:12.1Z ', '    a_test.go:', '{"Output":"', '{"Output":"    a_test.go:1: '), (s, prefix) => {
        const line = (prefix + s).replace(/[\r\n]/g, ' ')
        const score = shapeScore(line, 0, line.length)
        expect([0, 2, 3, 4]).toContain(score)
        expect(scanLines(line, true).salient[0]?.score ?? 0).toBe(lineSalience(line))
      }),
      { numRuns: 400 },
    )
    expect(shapeScore('___ ' + ' '.repeat(1_000_000) + ' ___', 0, 1_000_008)).toBe(0)
  })
})

// Lines the keyword scan finds, which the runner check now names by their shape.
const NEW_FAILURES: Array<[string, string]> = [
  ['go test -json', '{"Time":"2024-03-01T10:11:12.123Z","Action":"output","Package":"example.com/widget/parser","Test":"TestParseEmpty","Output":"--- FAIL: TestParseEmpty (0.00s)\\n"}'],
  ['XCTest assertion', '/src/Tests/ParserTests.swift:12: error: -[ParserTests.ParserTests testEmpty] : XCTAssertEqual failed: ("1") is not equal to ("2")'],
  ['clang diagnostic', 'src/parser.c:42:9: error: use of undeclared identifier \'tok\''],
  ['Swift diagnostic', '/src/Sources/Parser/Parser.swift:42:9: error: cannot find \'tok\' in scope'],
  ['javac through Maven', '[ERROR] /home/ci/parser/src/main/java/acme/Parser.java:[12,5] cannot find symbol'],
  ['MSBuild', 'Parser.cs(12,5): error CS0103: The name \'tok\' does not exist in the current context [/src/Parser.csproj]'],
  ['.NET', 'error CS0103: The name \'tok\' does not exist in the current context'],
  ['pytest header', '_________________________ test_parse_empty _________________________'],
  ['Jest header', '  ● Parser › parses an empty document'],
  ['cargo output', '---- parser::tests::parses_empty stdout ----'],
  ['PHPUnit test', '1) App\\Tests\\ParserTest::testEmpty'],
  ['RSpec example', 'rspec ./spec/models/parser_spec.rb:12 # Parser parses an empty document'],
  ['Cucumber scenario', 'cucumber features/parse.feature:9 # Scenario: empty document'],
  ['Rails rerun line', 'rails test test/models/parser_test.rb:42'],
  ['Swift Testing issue', '\u{100884}  Test "Parser handles an empty document" recorded an issue at ParserTests.swift:12:5: Expectation failed'],
  ['Swift Testing test verdict', '\u{100884}  Test "Parser handles an empty document" failed after 0.012 seconds with 1 issue.'],
]

const NEW_SUMMARIES: Array<[string, string]> = [
  ['go test -json package', '{"Time":"2024-03-01T10:11:12.123Z","Action":"output","Package":"example.com/widget/parser","Output":"FAIL\\texample.com/widget/parser\\t0.012s\\n"}'],
  ['Surefire failed tests', 'Failed tests: '],
  ['Surefire tests in error', 'Tests in error: '],
  ['PHPUnit', 'There was 1 failure:'],
  ['PHPUnit errors', 'There were 2 errors:'],
  ['RSpec', 'Failures:'],
  ['Cucumber', 'Failing Scenarios:'],
  ['Gradle', '* What went wrong:'],
  ['Gradle task', '> Task :parser:compileJava FAILED'],
  ['Swift Testing run', '\u{100884}  Test run with 351 tests failed after 3.787 seconds with 6 issues.'],
  ['Swift Testing suite', '\u{100884}  Suite "Parser Tests" failed after 1.778 seconds with 5 issues.'],
]

describe('runnerShape: more runners', () => {
  it.each(NEW_FAILURES)('%s failure', (_name, line) => expect(runnerShape(line)).toBe('failure'))
  it.each(NEW_SUMMARIES)('%s summary', (_name, line) => expect(runnerShape(line)).toBe('summary'))
  it.each([
    '{"Time":"2024-03-01T10:11:12.123Z","Action":"output","Package":"example.com/widget/parser","Output":"ok  \\texample.com/widget/parser\\t0.012s\\n"}',
    '> Task :parser:compileJava',
    'src/parser.c:42:9: warning: unused variable',
    'rspec spec/models/parser_spec.rb',
    'rails test',
    '\u{1004F8}  Test "Parser handles an empty document" passed after 0.012 seconds.',
    '\u{1004F8}  Suite "Parser Tests" passed after 1.778 seconds.',
    'Test run with 351 tests passed after 3.787 seconds.',
  ])('not a runner verdict: %s', (line) => expect(runnerShape(line)).toBeUndefined())
})
