// Line prefixes (issue 16, section 1: logs from CI systems we never saw): the timestamp or
// container name a CI system, a logger or Docker Compose puts before every line is read past
// (`shapes.ts` afterLinePrefix), so a Jenkins, Python-logging or Compose log is read as a
// GitHub Actions log is.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fitText } from './fit.js'
import { DEFAULT_PROFILES } from './profiles.js'
import { runnerShape } from './runners.js'
import { scanLines } from './salient.js'
import { JOB_LABELS, LinePrefixReader, SERVICE_LABELS, afterLinePrefix, isBarePrefix, labelKinds } from './shapes.js'
import { weighSalient } from './weigh.js'

const profile = DEFAULT_PROFILES.terminal!

/** The prefixes: a GitHub Actions stamp, the reference, then the forms read the same way. */
const PREFIXES: Record<string, string> = {
  gha: '2024-01-02T03:04:05.1234567Z ',
  jenkinsPipeline: '[2024-01-02T03:04:05.678Z] ',
  timestamper: '03:04:05 ',
  timestamperMillis: '03:04:05.678 ',
  bracketClock: '[03:04:05] ',
  pythonLogging: '2024-01-02 03:04:05,678 ',
  goLog: '2024/01/02 03:04:05 ',
  goLogMicros: '2024/01/02 03:04:05.123456 ',
  bazel: '(03:04:05) ',
  isoZone: '2024-01-02T03:04:05.678+01:00 ',
  compose: 'web-1  | ',
  composeV1: 'api_worker_1  | ',
  composeStamped: 'web-1  | 2024-01-02T03:04:05.123456789Z ',
  turbo: 'web:test: ',
  turboScoped: '@acme/web:test:unit: ',
  turboInActions: '2024-01-02T03:04:05.1234567Z web:test: ',
  pnpm: 'packages/web test: ',
  yarn: '[@acme/web]: ',
  yarnPlain: '[web]: ',
  lerna: '@acme/web: ',
  kubectl: '[pod/web-7d9f8c6b5-x2x4q/app] ',
  kubectlStamped: '[pod/web-1/app] 2024-01-02T03:04:05.123456789Z ',
  ghRunViewLog: 'build (ubuntu-latest, 20.x)\tRun npm test\t2024-01-02T03:04:05.1234567Z ',
  ghRunViewLogBom: 'build\tRun tests\t\ufeff2024-01-02T03:04:05.1234567Z ',
  ghRunViewLogTurbo: 'build\tRun turbo\t2024-01-02T03:04:05.1234567Z web:test: ',
  gitlab: '2024-01-02T03:04:05.123456Z 01O ',
  gitlabStderr: '2024-01-02T03:04:05.123456Z 0aE ',
  gitlabContinued: '2024-01-02T03:04:05.123456Z 00O+',
  gitlabTurbo: '2024-01-02T03:04:05.123456Z 01O web:test: ',
  ant: '    [junit] ',
  antEcho: '     [echo] ',
  antInActions: '2024-01-02T03:04:05.1234567Z     [junit] ',
  antNineChars: '[available] ',
  antLong: '[junitlauncher] ',
  antNamespaced: '[ivy:retrieve] ',
}

describe('afterLinePrefix (shapes.ts)', () => {
  it.each(Object.entries(PREFIXES))('reads past %s', (_, prefix) => {
    const line = `${prefix}[ERROR] Tests run: 3, Failures: 1`
    expect(afterLinePrefix(line, 0, line.length)).toBe(prefix.length)
  })

  it.each([
    '12:34 ERROR x', // minutes and seconds only
    '1:02:03 ERROR x', // a one-digit hour
    '2024-01-02 ERROR x', // a date alone
    '[INFO] Tests run: 3',
    '[03:04:05 ERROR x', // no closing bracket
    '03:04:05ERROR x', // no space after it
    '      12 |     expect(value).toBe(3)', // a code frame
    '    > 12 |     expect(value).toBe(3)',
    'web-1 |x', // no space after the bar
    'web | ERROR x', // no replica number
    '-1 | ERROR x',
    `${'a'.repeat(80)}-1  | ERROR x`, // longer than a container's name is read
    '2024/01-02 03:04:05 ERROR x', // two kinds of date separator
    '(03:04:05] ERROR x', // a parenthesis closed by a bracket
    '(12:34) ERROR x',
    '2024-13-02T03:04:05Z', // nothing after the stamp (its digits are not checked for a calendar: a log's own stamps need not be)
    // look-alikes of a task's label
    'ERROR:root: x', // Python logging's default format: a level, not a package
    'src/a.ts:12: error x', // a location
    'tests/test_a.py::test_x FAILED',
    'node:internal/modules/cjs/loader:1080',
    'node:events:495',
    'http://localhost:8080/a: x',
    'usr/bin/ld: cannot find -lfoo',
    'error: could not compile',
    'go: downloading x v1.2.3',
    'web: x', // an unscoped name: prose
    'packages/web test x', // no colon after the script
    'std::io::Error: x',
    '[info]: x', // a level in brackets
    '[ERROR]: x',
    '[Screenshot]: /home/runner/work/app/tmp/screenshots/failures_test_x.png', // Rails' system tests
    'Build:test: x', // an upper-case name: no npm package's
    '[pod/web-1/app]x',
    '[gw0] [ 50%] PASSED a.py::t',
    'psql:init.sql:12: ERROR:  relation "users" does not exist', // a file and a line
    'ld:foo.ld:12: syntax error',
    'urllib3.connectionpool:WARNING: Retrying', // a logger and a level
    'config/app.yml:database: postgres', // grep's file name: no package's
    'docker-compose.yml:services:',
    'x:y:', // no space after it
    'web:test:',
    'github.com/foo/bar/pkg test: x', // a Go package, not a pnpm directory
    '1\tfoo\t2024-01-02 03:04:05', // a table's row with a time: not GitHub's stamp
    'alice\tBob\t2024-01-02 03:04:05 login',
    'main\tdeadbeef\t10:11:12 x',
    'name\tvalue\t12', // a table's row: no timestamp after two tabs
    'build\tRun tests\tERROR x',
    '\t\t2024-01-02T03:04:05.1234567Z x', // empty names
    // look-alikes of Ant's task label (right-aligned to column 12)
    '  [junit] x', // ends at column 10
    '      [junit] x', // at column 14
    '    [JUnit] x', // not lower-case
    '    [junit]x', // no space after it
    '    [1unit] x',
    '[junit] x', // a short name at the line's start
    '[success] x', // sbt's level: 10 columns
    '[pod-web] x',
    '  [junitlauncher] x', // a long name after spaces: Ant pads only short ones
  ])('reads no prefix in %j', (line) => {
    expect(afterLinePrefix(line, 0, line.length)).toBe(0)
  })

  it.each([
    // Spring Boot pads the level to five chars (`%5p`): the pad is not an indentation
    ['2024-01-02T03:04:05.678+01:00  INFO 4242 --- [main] o.a.App : started', 'INFO 4242'],
    ['2024-01-02T03:04:05.678+01:00  WARN 4242 --- [main] o.a.App : slow', 'WARN 4242'],
    ['2024-01-02T03:04:05.678+01:00 ERROR 4242 --- [main] o.a.App : failed', 'ERROR 4242'],
    // a real indentation stays: a stack frame under a stamp
    ['2024-01-02T03:04:05.1234567Z     at org.acme.App.main(App.java:12)', '    at org'],
    ['2024-01-02T03:04:05.1234567Z  INFOx', ' INFOx'],
    // a container's name after the stamp (GitHub Actions running Compose), foreman's `web.1`
    ['2024-01-02T03:04:05.1234567Z web-1  | ● parser › reads', '● parser'],
    ['03:04:05 web.1  | FAIL src/a.test.ts', 'FAIL src'],
    // GitLab's stream marker: two hex digits, O or E, a space or `+`; a space after it is an indentation
    ['2024-01-02T03:04:05.123456Z 01E     at a.B.c(B.java:1)', '    at a.B'],
    ['2024-01-02T03:04:05.123456Z 01OX x', '01OX x'],
    ['2024-01-02T03:04:05.123456Z 0gO x', '0gO x'],
    ['2024-01-02T03:04:05.123456Z 01O', '01O'],
    ['[03:04:05] 99O output', '99O output'], // (a marker only after a stamp in UTC, GitLab's)
    ['2024-01-02T03:04:05.123456Z 01O  INFO 1 --- [main] x', 'INFO 1'], // a level's pad after the marker
  ])('reads %j to %j', (line, content) => {
    expect(line.slice(afterLinePrefix(line, 0, line.length)).startsWith(content)).toBe(true)
  })

  it("finds a Compose log's names on its first lines, when two lines hold one", () => {
    expect(labelKinds('Attaching to web-1, db-1\nweb-1  | starting\nweb-1  | ready\n')).toBe(SERVICE_LABELS)
    expect(labelKinds('2024-01-02T03:04:05.1234567Z Attaching to web-1\n2024-01-02T03:04:05.1234567Z web-1  | starting\n2024-01-02T03:04:05.1234567Z web-1  | ready')).toBe(SERVICE_LABELS)
    expect(labelKinds('step 1\nstep 2\n  12 | expect(x)\n')).toBe(0)
    // one label-like line is no labelled log: Vite's `[vite]: `, a `psql` location
    expect(labelKinds('[vite]: Rollup failed to resolve import "x" from "y".\nbuild failed\n')).toBe(0)
    expect(labelKinds('web-1  | starting\nstep\n')).toBe(0)
  })

  it("tells a job's and step's labels (gh run view --log) from a container's", () => {
    const gh = 'build\tRun tests\t2024-01-02T03:04:05.1234567Z x\nbuild\tRun tests\t2024-01-02T03:04:06.1234567Z y\n'
    expect(labelKinds(gh)).toBe(JOB_LABELS)
    expect(labelKinds(gh.replaceAll('Z x', 'Z web:test: x').replaceAll('Z y', 'Z web:test: y'))).toBe(JOB_LABELS | SERVICE_LABELS)
  })

  it("finds a task's labels after a CI job's set-up, in windows spread over the log", () => {
    const setup = '2024-01-02T03:04:05.1234567Z Run actions/setup-node@v4\n'.repeat(600)
    const turbo = '2024-01-02T03:04:05.1234567Z web:test: PASS src/a.test.ts\n'.repeat(400)
    expect(labelKinds(setup + turbo)).toBe(SERVICE_LABELS)
    expect(labelKinds(setup + '2024-01-02T03:04:05.1234567Z turbo run test\n'.repeat(400))).toBe(0)
    // labels on lines no window reads are not looked for: the probe reads at most 100 lines
    expect(labelKinds(`${'step\n'.repeat(60)}web-1  | once\nweb-1  | twice\n${'step\n'.repeat(2000)}`)).toBe(0)
  })

  it("reads a job's name that starts with any char in the scan", () => {
    const body = ['Run npm test', '  \u25cf parser \u203a reads an empty file', 'rspec ./spec/a_spec.rb:12 # reads', 'done']
    for (const job of ['build', '\u{1f9ea} build', '"build"', '_build']) {
      const text = body.map((b, i) => `${job}\tRun tests\t2024-01-02T03:04:0${i}.1234567Z ${b}`).join('\n')
      expect(scanLines(text, true).salient.map((s) => s.line)).toEqual([2, 3])
    }
  })

  it('accepts job and step names up to 100 chars', () => {
    const line = (n: number): string => `${'j'.repeat(n)}\tRun tests\t2024-01-02T03:04:05.1234567Z x`
    expect(afterLinePrefix(line(100), 0, line(100).length)).toBe(line(100).length - 1)
    expect(afterLinePrefix(line(101), 0, line(101).length)).toBe(0)
  })

  it.each([
    '[vite]: Rollup failed to resolve import',
    'myapp.db:connect: connection refused',
    '@types/node: 20.1.0',
    'docs/api note: see below',
  ])('reads %j as a label (a look-alike that moves its content start only; the scan reads labels where they repeat)', (line) => {
    expect(afterLinePrefix(line, 0, line.length)).toBeGreaterThan(0)
  })

  it('tells a blank line behind a prefix', () => {
    const bare = (line: string): boolean => isBarePrefix(line, 0, line.length)
    expect(bare('2024-01-02T03:04:05.1234567Z')).toBe(true)
    expect(bare('[03:04:05]')).toBe(true)
    expect(bare('03:04:05.678')).toBe(true)
    expect(bare('web-1  |')).toBe(true)
    expect(bare('web-1  | ')).toBe(true)
    expect(bare('web-1  | x')).toBe(false)
    expect(bare('web:test: ')).toBe(true)
    expect(bare('build\tRun tests\t2024-01-02T03:04:05.1234567Z')).toBe(true)
    expect(bare('[pod/web-1/app] 2024-01-02T03:04:05.123456789Z')).toBe(true)
    expect(bare('2024-01-02T03:04:05.123456Z 00O ')).toBe(true)
    expect(bare('2024-01-02T03:04:05.123456Z 00O+')).toBe(true)
    expect(bare('web:test:')).toBe(false) // (a label has its space)
    expect(bare('[@acme/web]: ')).toBe(true)
    expect(bare('web:test: x')).toBe(false)
    expect(bare('03:04:05 x')).toBe(false)
    expect(bare('12:34')).toBe(false)
  })

  it("reads a runner's shape after any of them", () => {
    for (const prefix of Object.values(PREFIXES)) {
      expect(runnerShape(`${prefix}--- FAIL: TestParse (0.00s)`)).toBe('failure')
      expect(runnerShape(`${prefix}[ERROR] Tests run: 4, Failures: 1, Errors: 0, Skipped: 0`)).toBe('summary')
    }
  })
})

/** Lines of several runners' output: shapes, verdicts, traces, headers, noise. */
const POOL = [
  '[INFO] Running org.acme.ParserTest',
  '[ERROR] Tests run: 3, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.2 s <<< FAILURE! - in org.acme.ParserTest',
  '[ERROR] testEmpty(org.acme.ParserTest)  Time elapsed: 0.01 s  <<< FAILURE!',
  'java.lang.AssertionError: expected:<1> but was:<2>',
  '\tat org.acme.ParserTest.testEmpty(ParserTest.java:42)',
  '[INFO] Tests run: 6, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.03 s - in org.acme.LexerTest',
  '[WARNING] Cannot get the branch information from the git repository:',
  'Detecting the current branch failed: fatal: ref HEAD is not a symbolic ref',
  '=== RUN   TestParse',
  '    parse_test.go:12: got 1, want 2',
  '--- FAIL: TestParse (0.00s)',
  '--- PASS: TestLex (0.00s)',
  'FAIL\tgithub.com/acme/parse\t0.012s',
  'FAILED tests/test_api.py::test_login - AssertionError: assert 401 == 200',
  '______________________________ test_login ______________________________',
  'E       AssertionError: assert 401 == 200',
  '======================================================================',
  'ERROR: test_parse (tests.test_parser.ParserTest)',
  'Traceback (most recent call last):',
  '  File "tests/test_parser.py", line 12, in test_parse',
  'FAIL src/parser.test.ts',
  '  \u25cf parser \u203a reads an empty file',
  '    TypeError: Cannot read properties of undefined (reading \'length\')',
  '  \u2713 reads a file (3 ms)',
  'test parser::tests::empty ... FAILED',
  'test parser::tests::lex ... ok',
  "thread 'parser::tests::empty' panicked at src/parser.rs:12:5:",
  'src/parser.c:12:5: error: expected \';\' after expression',
  'npm ERR! Test failed.  See above for more details.',
  'BUILD FAILED in 14s',
  'Compiling parser v0.1.0',
  'step 12 of 40 done',
  '',
  '    at Object.<anonymous> (src/parser.test.ts:12:20)',
  'Summary of all failing tests',
]

const isDigitStart = (line: string): boolean => line.charCodeAt(0) >= 48 && line.charCodeAt(0) <= 57

/** Line starts a log may mix: stamps of several forms, look-alikes that are none, names, bare stamps. */
const STARTS = [
  '2024-01-02T03:04:05.1234567Z ', '2024-01-02T03:04:05.12Z ', '2024-01-02T03:04:05.678+01:00 ', '2024-01-02 03:04:05,678 ', '2024-01-02 03:04:05 ',
  '[2024-01-02T03:04:05.678Z] ', '[03:04:05] ', '(03:04:05) ', '2024/01/02 03:04:05 ', '(12:34) ', '03:04:05 ', '03:04:05.678 ', '00:01 +3 ~1 -1: ', '12) ', '2024-01-02 ', '1234-56-78T90:12:34Z ',
  '2024-01-02T03:04:05.1234567Z', '[INFO] ', 'web-1  | ', '2024-01-02T03:04:05.1234567Z web-1  | ', '03:04:05 web.1  | ', '', '   ', 'x',
  'web:test: ', '2024-01-02T03:04:05.1234567Z web:test: ', 'packages/web test: ', '[@acme/web]: ', '@acme/web: ', '[pod/web-1/app] ',
  '[pod/web-1/app] 2024-01-02T03:04:05.123456789Z ', '[info]: ', 'ERROR:root: ', 'build\tRun tests\t2024-01-02T03:04:05.1234567Z ', 'a\tb\tc ',
  '2024-01-02T03:04:05.123456Z 01O ', '2024-01-02T03:04:05.123456Z 00O+', '2024-01-02T03:04:05.123456Z 0aE ', '2024-01-02T03:04:05.123456Z 01O web:test: ', '2024-01-02T03:04:05.123456Z 01X ',
  // a job's label with no stamp after it (the reader's remembered label must not be taken alone), a BOM, bare labels
  '    [junit] ', '     [echo] ', '2024-01-02T03:04:05.1234567Z     [junit] ', '  [junit] ', '[junitlauncher] ', '[success] ',
  'build\tRun tests\t', 'build\tRun tests\tx ', 'build\tRun tests\t\ufeff2024-01-02T03:04:05.1234567Z ', 'build\tRun tests\t2024-01-02 03:04:05 ', 'web:test:', 'web:test: web:test: ',
]
/** The starts that hold a container's or a task's label. */
const LABELLED = new Set(['    [junit] ', '     [echo] ', '2024-01-02T03:04:05.1234567Z     [junit] ', '[junitlauncher] ', 'web:test:', 'build\tRun tests\t\ufeff2024-01-02T03:04:05.1234567Z ', 'web:test: web:test: ', 'web-1  | ', '2024-01-02T03:04:05.1234567Z web-1  | ', '03:04:05 web.1  | ', 'web:test: ', '2024-01-02T03:04:05.1234567Z web:test: ', 'packages/web test: ', '[@acme/web]: ', '@acme/web: ', '[pod/web-1/app] ', '[pod/web-1/app] 2024-01-02T03:04:05.123456789Z ', 'build\tRun tests\t2024-01-02T03:04:05.1234567Z ', '2024-01-02T03:04:05.123456Z 01O web:test: '])
const CONTENTS = ['FAIL src/a.test.ts', ' INFO 12 --- started', '    at a.B.c(B.java:1)', '\u25cf a \u203a b', 'ERROR boom', '', '--- FAIL: TestX (0.00s)']

describe('LinePrefixReader (shapes.ts): the scan reads a stamp like the last one without parsing it', () => {
  it('gives afterLinePrefix\'s offset on every line of any mix (fast-check)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...STARTS), fc.constantFrom(...CONTENTS), fc.nat(9)), { minLength: 1, maxLength: 60 }), (parts) => {
        // (the digits of each stamp vary from line to line, as a clock's do)
        const lines = parts.map(([a, b, d]) => a.replace(/\d/g, (x) => String((Number(x) + d) % 10)) + b)
        const reader = new LinePrefixReader(SERVICE_LABELS | JOB_LABELS)
        for (const line of lines) expect(reader.after(line, 0, line.length)).toBe(afterLinePrefix(line, 0, line.length))
        // the same lines in one text, read at their offsets
        const text = lines.join('\n')
        const joined = new LinePrefixReader(SERVICE_LABELS | JOB_LABELS)
        let at = 0
        for (const line of lines) {
          expect(joined.after(text, at, at + line.length)).toBe(afterLinePrefix(text, at, at + line.length))
          at += line.length + 1
        }
        // with a job's labels only: the same on every line that holds no container's or task's
        const jobs = new LinePrefixReader(JOB_LABELS)
        parts.forEach(([a], i) => {
          if (!LABELLED.has(a) || a.startsWith('build\t')) expect(jobs.after(lines[i]!, 0, lines[i]!.length)).toBe(afterLinePrefix(lines[i]!, 0, lines[i]!.length))
        })
        // without labels: the same on every line that holds none; the scan's short cut for a line
        // that starts with a digit (`plain`, asked first, as the scan does) says the same or -1
        const plain = new LinePrefixReader(0)
        parts.forEach(([a], i) => {
          const line = lines[i]!
          if (LABELLED.has(a)) return
          const quick = plain.plain(line, 0, line.length)
          if (quick !== -1) expect(quick).toBe(afterLinePrefix(line, 0, line.length))
          expect(plain.after(line, 0, line.length)).toBe(afterLinePrefix(line, 0, line.length))
        })
        // a reader of labels never takes the short cut
        let at2 = 0
        for (const line of lines) {
          expect(joined.plain(text, at2, at2 + line.length)).toBe(-1)
          at2 += line.length + 1
        }
      }),
      { numRuns: 2000 },
    )
  })
})

describe('LinePrefixReader.plain: the scan\'s short cut for a stamped line like the last one', () => {
  // Runs of one stamp's form (as a log has them), broken by look-alikes: a `Z` or a separator
  // where the form has a digit, GitLab's stream marker, a level's pad, a bracket, other forms.
  const FORMS = ['2024-01-02 03:04:05 ', '03:04:05.123 ', '2024-01-02T03:04:05.123456Z ', '2024/01/02 03:04:05,678 ', '03:04:05 ']
  const BREAKS = ['03:04:05.12Z ', '03:04:05.12Z 01O ', '03:04:05.12Z 00E+', '2024-01-02T03:04:05.123456Z 01O ', '2024-01-02T03:04:05.12345ZZ ', '2024-01-02 03:04:05  ', '03:04:05.123  INFO ', '[03:04:05] ', '12) ', '2024-01-02 03:04:0x ', '']
  const BODIES = ['\u25cf Suite \u203a parses the config', 'INFO started', ' WARN  12 --- [main] x', '--- FAIL: TestX (0.00s)', 'E   assert 1 == 2', '01O FAIL src/a.test.ts', '']
  // (`after` equals `afterLinePrefix` where a stamp holds digits where the last one did: the
  // property above; here the breaks also put a `Z`, an `x` or a space where it had a digit)
  it('says what after() says, or -1, on every line (fast-check)', () => {
    let taken = 0
    let asked = 0
    fc.assert(
      fc.property(fc.constantFrom(...FORMS), fc.array(fc.tuple(fc.nat(9), fc.constantFrom(...BREAKS), fc.constantFrom(...BODIES), fc.nat(9)), { minLength: 1, maxLength: 40 }), (form, parts) => {
        const lines = parts.map(([pick, other, body, d]) => (pick < 7 ? form : other).replace(/\d/g, (x) => String((Number(x) + d) % 10)) + body)
        const text = lines.join('\n')
        const reader = new LinePrefixReader(0)
        let at = 0
        for (const line of lines) {
          const end = at + line.length
          // (asked before `after`, with the memo of the lines above, as the scan does)
          const quick = isDigitStart(line) ? reader.plain(text, at, end) : -1
          const full = reader.after(text, at, end)
          if (isDigitStart(line)) asked++
          if (quick !== -1) {
            taken++
            expect(quick).toBe(full)
          }
          at = end + 1
        }
      }),
      { numRuns: 3000 },
    )
    // (the short cut is taken on most lines, as in a real log)
    expect(taken / asked).toBeGreaterThan(0.25)
  })
})

describe('a prefixed log is read as a GitHub Actions log is', () => {
  it('scores and weighs every line the same behind any prefix (fast-check)', () => {
    const forms = Object.keys(PREFIXES).filter((k) => k !== 'gha')
    fc.assert(
      // (two lines at least: a label counts where it repeats, `labelKinds`)
      fc.property(fc.array(fc.constantFrom(...POOL), { minLength: 2, maxLength: 80 }), fc.constantFrom(...forms), (lines, form) => {
        const read = (prefix: string): Array<[number, number]> => {
          const text = lines.map((l) => `${prefix}${l}`).join('\n')
          return weighSalient(text, scanLines(text, true).salient).map((s) => [s.line, s.score])
        }
        expect(read(PREFIXES[form]!)).toEqual(read(PREFIXES.gha!))
      }),
      { numRuns: 300 },
    )
  })

  it("does not read a Spring Boot log's padded level as an indented continuation of the failure above", () => {
    // `%5p`: `  INFO` after the stamp. Read as indented, the INFO lines under the trace were kept
    // as its continuation at 4,000 chars, in place of a later salient WARN line (review of round 13).
    const ts = (i: number): string => `2024-01-02T03:04:${String(i % 60).padStart(2, '0')}.678+01:00`
    const lines: string[] = []
    for (let i = 0; i < 300; i++) {
      if (i === 150) {
        lines.push(`${ts(i)} ERROR 4242 --- [           main] o.s.boot.SpringApplication               : Application run failed`)
        lines.push('java.lang.IllegalStateException: Failed to load ApplicationContext for [WebMergedContextConfiguration@1]')
        for (let k = 0; k < 6; k++) lines.push(`\tat org.springframework.test.context.cache.DefaultCacheAwareContextLoaderDelegate.loadContext(DefaultCacheAwareContextLoaderDelegate.java:${100 + k})`)
        lines.push('Caused by: org.postgresql.util.PSQLException: Connection to localhost:5432 refused.')
        for (let k = 0; k < 4; k++) lines.push(`\tat org.postgresql.core.v3.ConnectionFactoryImpl.openConnectionImpl(ConnectionFactoryImpl.java:${300 + k})`)
      }
      lines.push(`${ts(i)}  INFO 4242 --- [           main] o.a.c.c.StandardService${i}                 : Starting service [Tomcat] step ${i}`)
      if (i % 7 === 0) lines.push(`${ts(i)}  WARN 4242 --- [           main] o.h.e.j.e.i.JdbcEnvironmentInitiator    : HHH000342: Could not obtain connection to query metadata ${i}`)
    }
    const out = fitText(lines.join('\n'), 4000, profile).text
    expect(out).toContain('Caused by: org.postgresql.util.PSQLException')
    expect(out).toContain('343: ') // a WARN line of the run after the failure
    expect(out).not.toMatch(/^18[78]: /m) // the INFO lines right under the trace
  })

  it("reads an Ant log's task labels as a prefix: a failing test case is not passed over for the passing ones under the summary", () => {
    // Ant's junit task (round 27, devextra's whileycompiler build): every line `    [junit] `,
    // read as indented, made the summary's unit grow over the 280 passing test cases below it
    const lines = ['Buildfile: /home/travis/build/W/build.xml', 'test:']
    lines.push('    [junit] Running wyc.testing.AllInvalidTest', '    [junit] Tests run: 287, Failures: 1, Errors: 0, Time elapsed: 7.159 sec')
    for (let i = 0; i < 280; i++) {
      lines.push(`    [junit] Testcase: invalid[Case_Invalid_${i}] took 0.0${String(i % 90).padStart(2, '0')} sec`)
      if (i === 150) lines.push('    [junit] \tFAILED', '    [junit] Output does not match reference', '    [junit] junit.framework.AssertionFailedError: Output does not match reference', '    [junit] \tat wyc.testing.TestUtils.compare(TestUtils.java:120)')
    }
    lines.push('', 'BUILD FAILED', '/home/travis/build/W/build.xml:55: Test wyc.testing.AllInvalidTest failed', '', 'Total time: 15 seconds')
    // (before: not at 2,000-3,000 chars; at 4,000 the growth ran out before the failure)
    const out = fitText(lines.join('\n'), 2500, profile).text
    expect(out).toContain('Testcase: invalid[Case_Invalid_150]')
    expect(out).toContain('junit.framework.AssertionFailedError: Output does not match reference')
  })

  it("keeps a Jenkins Timestamper log's failing tests as it keeps a plain one's", () => {
    // 40 passing classes that log errors, then two failing ones and Maven's summary.
    const lines: string[] = []
    for (let i = 0; i < 40; i++) {
      lines.push(`[INFO] Running org.acme.Collector${i}Test`, `ERROR o.a.Collector - collect failed for target ${i}: java.net.ConnectException: Connection refused`, `[INFO] Tests run: 2, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.0${i % 10} s - in org.acme.Collector${i}Test`)
      if (i === 20) lines.push('[INFO] Running org.acme.ParserTest', '[ERROR] Tests run: 1, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.1 s <<< FAILURE! - in org.acme.ParserTest', '[ERROR] testEmpty(org.acme.ParserTest)  Time elapsed: 0.01 s  <<< FAILURE!', 'java.lang.AssertionError: expected:<1> but was:<2>')
    }
    lines.push('[INFO] Results:', '[ERROR] Failures: ', '[ERROR]   ParserTest.testEmpty:42 expected:<1> but was:<2>', '[ERROR] Tests run: 81, Failures: 1, Errors: 0, Skipped: 0', '[INFO] BUILD FAILURE')
    for (const prefix of ['', '03:04:05 ', '[2024-01-02T03:04:05.678Z] ']) {
      const out = fitText(lines.map((l) => `${prefix}${l}`).join('\n'), 1800 + 12 * prefix.length, profile).text
      expect(out).toContain(`${prefix}java.lang.AssertionError: expected:<1> but was:<2>`)
      expect(out).toContain(`${prefix}[ERROR] testEmpty(org.acme.ParserTest)  Time elapsed: 0.01 s  <<< FAILURE!`)
    }
  })
})
