import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { trimResult } from '../pipeline/trim-result.js'
import { parseExcerpt } from './excerpt.js'
import { fitText, quietTailTop, summaryAbove } from './fit.js'
import { DEFAULT_PROFILES } from './profiles.js'
import { scanLines, type SalientLine } from './salient.js'
import { ownTemplate, weighSalient } from './weigh.js'
import { diverse, rankSalient } from './middle.js'
import { noise } from './fixture.js'

const profile = DEFAULT_PROFILES.terminal!

/** Line numbers an excerpt shows (its `N: ` lines). */
const shownLines = (out: string): Set<number> => new Set([...out.matchAll(/^(\d+): /gm)].map((m) => Number(m[1])))

/** `n` distinct JVM frames of class `cls`. */
const frames = (cls: string, n: number): string[] => Array.from({ length: n }, (_, i) => `\tat com.acme.${cls}.call${i}(${cls}.java:${i + 10})`)

describe('a stack trace is one unit (middle.ts)', () => {
  /** An exception with `n` frames and a `Caused by:` with `m`, between `pad` lines of noise each side. */
  const trace = (pad: number, n: number, m: number): string =>
    [
      ...noise(pad),
      'java.lang.IllegalStateException: parser state broken',
      ...frames('Parser', n),
      'Caused by: com.acme.DiskFull: no room for the index',
      ...frames('Store', m),
      '\t... 42 more',
      ...noise(pad, pad + 1),
    ].join('\n')

  it('keeps the header, its first frames and the Caused by chain, not every frame', () => {
    const out = fitText(trace(300, 150, 40), 4000, profile).text
    expect(out).toContain('java.lang.IllegalStateException: parser state broken')
    expect(out).toContain('at com.acme.Parser.call0(Parser.java:10)')
    expect(out).toContain('Caused by: com.acme.DiskFull: no room for the index')
    expect(out).not.toContain('at com.acme.Parser.call100(')
    expect(out.length).toBeLessThanOrEqual(4000)
  })

  it('shows a JUnit 5 trace under Surefire whole when the budget holds it (90 frames a segment)', () => {
    // JUnit 5's engine and Surefire's booter put 80-100 frames under a failing test's exception;
    // a cap of 60 frames a segment cut such a trace at 16k with budget left over (125 of 180 shown).
    const out = fitText(trace(2000, 90, 90), 16_000, profile).text
    for (const f of [...frames('Parser', 90), ...frames('Store', 90)]) expect(out).toContain(f)
    expect(out.length).toBeLessThanOrEqual(16_000)
  })

  it('grows a segment by at most 120 frames (MAX_FRAMES): a recursion of 1,000 leaves the budget to the next failure', () => {
    // (trimResult's dedup-exact first folds identical frames into one `(x1000)` line; the fitter
    // alone sees them all)
    const lines = [
      ...noise(2000),
      'java.lang.StackOverflowError',
      ...Array.from({ length: 1000 }, () => '\tat org.acme.Tree.walk(Tree.java:42)'),
      ...noise(50, 2001),
      'java.lang.IllegalStateException: index not rebuilt after the overflow',
      ...noise(2000, 3000),
    ]
    const out = fitText(lines.join('\n'), 16_000, profile).text
    // (the header's context after it, then the frames grown over)
    // (the cap, 120 frames, and the header's 5 lines of context after it; 324 without a cap)
    expect(out.split('\n').filter((l) => l.endsWith('at org.acme.Tree.walk(Tree.java:42)')).length).toBeLessThanOrEqual(125)
    expect(out).toContain('java.lang.IllegalStateException: index not rebuilt after the overflow')
  })
})

describe("a Go panic's goroutine trace is one unit (middle.ts isGoTraceLine)", () => {
  // `go test` on GitHub Actions: a panicking test, then the next packages' `ok` lines. A Go trace's
  // call lines are not indented (only the location under each is): the unit stopped at the first
  // one, and the budget left went to the `ok` lines of the tail, with the test's own frame cut.
  const stamp = (i: number): string => `2022-05-06T21:34:${String(10 + (i % 50)).padStart(2, '0')}.${String(1000000 + i).slice(1)}0Z `
  const calls = Array.from({ length: 12 }, (_, i) => [`github.com/acme/store/internal/cloud.layer${i}(0xc0001a6780, {0x15dbdf8?, 0xc00011b590?})`, `\t/home/runner/work/store/internal/cloud/layer${i}.go:${200 + i} +0x${(0xb6 + i).toString(16)}`])
  const log = (okAfter: number): string =>
    [
      ...Array.from({ length: 300 }, (_, i) => `go: downloading github.com/acme/dep${i} v1.${i}.0`),
      '--- FAIL: TestCloud_applyBasic (0.00s)',
      'panic: value has no attribute of that name [recovered]',
      '\tpanic: value has no attribute of that name',
      '',
      'goroutine 21 [running]:',
      ...calls.flat(),
      'github.com/acme/store/internal/cloud.TestCloud_applyBasic(0xc00020aea0)',
      '\t/home/runner/work/store/internal/cloud/backend_apply_test.go:67 +0x4a',
      'created by testing.(*T).Run',
      '\t/opt/hostedtoolcache/go/1.18.1/x64/src/testing/testing.go:1486 +0x35f',
      'FAIL\tgithub.com/acme/store/internal/cloud\t0.029s',
      ...Array.from({ length: okAfter }, (_, i) => `ok  \tgithub.com/acme/store/internal/pkg${i}\t0.0${i % 10}3s`),
      'FAIL',
    ]
      .map((l, i) => stamp(i) + l)
      .join('\n')

  it("shows the whole trace, the test's own frame included, before more of the tail's passing packages", () => {
    const out = trimResult(log(200), { maxChars: 8000, tool: 'terminal' }).text
    for (const [call, file] of calls) {
      expect(out).toContain(call)
      expect(out).toContain(file)
    }
    expect(out).toContain('backend_apply_test.go:67 +0x4a')
    expect(out).toContain('goroutine 21 [running]:')
    expect(out.length).toBeLessThanOrEqual(8000)
  })

  it("stops at the trace's end, and at the blank line before another goroutine of a dump", () => {
    // (a test binary's timeout dump: every goroutine's trace, the panicking one first)
    const other = Array.from({ length: 10 }, (_, i) => [`github.com/acme/store/internal/bus.wait${i}(0xc000010000)`, `\t/home/runner/work/store/internal/bus/bus.go:${12 + i} +0x1f`]).flat()
    const dump = log(0).replace(/FAIL\tgithub/, ['', 'goroutine 7 [chan receive]:', ...other, 'FAIL\tgithub'].join('\n'))
    const text = [dump, ...Array.from({ length: 400 }, (_, i) => `ok  \tgithub.com/acme/store/internal/more${i}\t0.01s`)].join('\n')
    const out = trimResult(text, { maxChars: 8000, tool: 'terminal' }).text
    expect(out).toContain('backend_apply_test.go:67 +0x4a')
    // (the next goroutine is not this panic's: its frames are not grown over; the verdict's
    // context above it may show its last ones)
    expect(out).not.toContain('goroutine 7 [chan receive]:')
    expect(out).not.toContain('bus.go:12 +0x1f')
  })
})

describe("a Go panic's trace after a long message (middle.ts isGoTraceLine, the blank line)", () => {
  // The panic's message runs over more lines than its context shows, then a blank line (on
  // GitHub Actions, a timestamp with or without a space after it), then its goroutine's trace.
  const stamp = (i: number): string => `2024-03-01T10:00:${String(10 + (i % 50)).padStart(2, '0')}.${String(1000000 + i).slice(1)}0Z`
  const frames = (path: (i: number) => string, extra = ''): string[] =>
    Array.from({ length: 10 }, (_, i) => [`github.com/acme/api/internal/store.step${i}(0xc0001a6780)`, `\t${path(i)}:${40 + i} +0x${(0x1f + i).toString(16)}${extra}`]).flat()
  const log = (blank: string, header: string, trace: string[]): string =>
    [
      ...Array.from({ length: 300 }, (_, i) => `${stamp(i)} go: downloading github.com/acme/dep${i} v1.${i}.0`),
      `${stamp(300)} --- FAIL: TestStore (0.00s)`,
      `${stamp(301)} panic: store: invariant broken [recovered]`,
      ...Array.from({ length: 8 }, (_, i) => `${stamp(302 + i)} \tpanic: store: invariant broken: shard ${i} holds a key of shard ${i + 1}`),
      blank,
      `${stamp(311)} ${header}`,
      ...trace.map((l, i) => `${stamp(312 + i)} ${l}`),
      `${stamp(340)} FAIL\tgithub.com/acme/api/internal/store\t0.021s`,
      ...Array.from({ length: 300 }, (_, i) => `${stamp(341 + i)} ok  \tgithub.com/acme/api/internal/pkg${i}\t0.01s`),
    ].join('\n')
  const linux = frames((i) => `/home/runner/work/api/internal/store/step${i}.go`)

  it.each([
    ['a timestamp and a space', `${stamp(310)} `],
    ['a timestamp alone', stamp(310)],
    ['nothing', ''],
  ])('grows over the blank line before the goroutine (blank: %s)', (_, blank) => {
    const out = trimResult(log(blank, 'goroutine 21 [running]:', linux), { maxChars: 8000, tool: 'terminal' }).text
    expect(out).toContain('goroutine 21 [running]:')
    // (a middle frame: the verdict's context above it shows the last ones)
    expect(out).toContain('step4.go:44 +0x23')
    expect(out.length).toBeLessThanOrEqual(8000)
  })

  it("reads Go 1.22's system traceback (gp= m= in the header, fp= sp= pc= after each offset) and a path with a space", () => {
    const system = frames((i) => `/home/runner/work/api/internal/store/step${i}.go`, ' fp=0xc000045f80 sp=0xc000045f60 pc=0x4a1b2c')
    const out = trimResult(log('', 'goroutine 21 gp=0xc0000061c0 m=0 mp=0x5b3e80 [running]:', system), { maxChars: 8000, tool: 'terminal' }).text
    expect(out).toContain('step4.go:44 +0x23 fp=0xc000045f80')
    const spaced = frames((i) => `C:/Users/ci/My Projects/api/internal/store/step${i}.go`)
    const win = trimResult(log('', 'goroutine 21 [running]:', spaced), { maxChars: 8000, tool: 'terminal' }).text
    expect(win).toContain('My Projects/api/internal/store/step4.go:44 +0x23')
  })
})

describe("a Go test's passing verdict ends a failure's context (middle.ts goPassed)", () => {
  // `go test -v` prints a parent test's subtest verdicts after its own `--- FAIL:` line: the
  // passing ones were shown as the failure's context, where the failing subtest's message fit.
  const log = [
    ...Array.from({ length: 200 }, (_, i) => `=== RUN   TestProviderTampering/step${i}`),
    '=== CONT  TestProviderTampering/cache_dir_totally_gone',
    '    providers_tamper_test.go:76: unexpected init error: exit status 1',
    '        stderr:',
    '        │ Error: Failed to install provider',
    '        │ Error while installing hashicorp/null v3.1.0: Get',
    '        │ "https://releases.hashicorp.com/terraform-provider-null/3.1.0/terraform-provider-null_3.1.0_windows_amd64.zip":',
    '        │ net/http: TLS handshake timeout',
    '=== RUN   TestProviderTampering/plugin_cache_dir_entirely_removed_after_plan',
    '--- FAIL: TestProviderTampering (14.05s)',
    '    --- FAIL: TestProviderTampering/cache_dir_totally_gone (10.32s)',
    ...['explicit_backend', 'modified_before_plan', 'constraint_changed_in_config', 'lock_file_modified_before_plan', 'lock_file_modified_after_plan'].map((t) => `    --- PASS: TestProviderTampering/${t} (0.${t.length}s)`),
    'FAIL',
    'FAIL\tgithub.com/hashicorp/terraform/internal/command/e2etest\t14.2s',
    ...Array.from({ length: 200 }, (_, i) => `ok  \tgithub.com/hashicorp/terraform/internal/pkg${i}\t0.01s`),
  ].join('\n')

  it("keeps the failing subtest's message before the passing subtests' verdicts under it", () => {
    const out = trimResult(log, { maxChars: 2000, tool: 'terminal' }).text
    expect(out).toContain('net/http: TLS handshake timeout')
    expect(out).toContain('--- FAIL: TestProviderTampering/cache_dir_totally_gone (10.32s)')
    expect(out).not.toContain('--- PASS: TestProviderTampering/lock_file_modified_before_plan')
    expect(out.length).toBeLessThanOrEqual(2000)
  })
})

/** Gap markers with a count note: `[from, to]`, the count and the line it names. */
function notes(out: string): Array<{ from: number; to: number; count: number; like: number }> {
  const re = /^\[\.\.\. (?:line (\d+)|lines (\d+)-(\d+)) omitted \(\d+ chars\), (\d+) of them like line (\d+) \.\.\.\]$/gm
  return [...out.matchAll(re)].map((m) => ({ from: Number(m[1] ?? m[2]), to: Number(m[1] ?? m[3]), count: Number(m[4]), like: Number(m[5]) }))
}

describe("the failing tests are named before one test's trace grows (middle.ts nameBeforeGrowth)", () => {
  // A Surefire run: the first failing test's Spring trace (80 frames) ranks above the other 12
  // tests' verdicts, which share their template; its growing took the budget that names them.
  const spring = (n: number): string[] => Array.from({ length: n }, (_, i) => `\tat org.springframework.test.context.support.Layer${i}.invoke(Layer${i}.java:${100 + i})`)
  const names = ['Alpha', 'Beta', 'Gamma', 'Delta', 'Epsilon', 'Zeta', 'Eta', 'Theta', 'Iota', 'Kappa', 'Lambda', 'Mu'].map((n) => `test${n}Route`)
  const failure = (verdict: string): string[] => [verdict, 'java.lang.IllegalStateException: Failed to load ApplicationContext', ...spring(60), 'Caused by: java.lang.ClassNotFoundException: javax.xml.bind.JAXBException', ...spring(20), '']
  const log = [
    '[INFO] Scanning for projects...',
    ...noise(400),
    'Running org.acme.camel.SendTest',
    'Tests run: 1, Failures: 0, Errors: 1, Skipped: 0, Time elapsed: 0.491 sec <<< FAILURE!',
    ...failure('doTest(org.acme.camel.SendTest)  Time elapsed: 0.01 sec  <<< ERROR!'),
    'Running org.acme.camel.RouteTest',
    'Tests run: 12, Failures: 0, Errors: 12, Skipped: 0, Time elapsed: 0.3 sec <<< FAILURE!',
    ...names.flatMap((t) => failure(`${t}(org.acme.camel.RouteTest)  Time elapsed: 0.001 sec  <<< ERROR!`)),
    'Results :',
    '',
    'Tests in error: ',
    ...Array.from({ length: 13 }, () => '   » IllegalState Failed to load ApplicationContext'),
    '',
    'Tests run: 13, Failures: 0, Errors: 13, Skipped: 0',
    '[INFO] BUILD FAILURE',
  ].join('\n')
  const named = (out: string): number => names.filter((t) => out.includes(`${t}(org.acme.camel.RouteTest)`)).length

  it('names most of the other failing tests at 8k (none before), and keeps the first trace and its cause', () => {
    const out = trimResult(log, { tool: 'terminal', maxChars: 8000 }).text
    expect(named(out)).toBeGreaterThanOrEqual(8)
    expect(out).toContain('java.lang.IllegalStateException: Failed to load ApplicationContext')
    expect(out).toContain('Caused by: java.lang.ClassNotFoundException: javax.xml.bind.JAXBException')
    expect(out.length).toBeLessThanOrEqual(8000)
  })

  it('gives a test named early its context at its own level when the budget holds it', () => {
    const out = trimResult(log, { tool: 'terminal', maxChars: 14_000 }).text
    expect(named(out)).toBe(12)
    // (named alone and never placed again, 2 of them showed their exception under them)
    expect(out.match(/<<< ERROR!\n\d+: java\.lang\.IllegalStateException/g)?.length ?? 0).toBeGreaterThanOrEqual(4)
  })

  it('names no test before a level with no trace to grow: its distinct failures keep their place', () => {
    const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima', 'mike', 'november', 'oscar', 'papa', 'quebec', 'romeo', 'sierra', 'tango', 'uniform', 'victor', 'whiskey', 'xray', 'yankee', 'zulu']
    const errors = words.flatMap((w, i) => [`Error: ${w} service refused the ${w} handshake`, `  while starting the ${w} pool`, `  after ${w} retries`, ...noise(6, 100 + i * 10)])
    const tests = Array.from({ length: 30 }, (_, k) => [`${k + 1}) Suite fails on case ${k + 1}:`, ...noise(4, 5000 + k * 4)]).flat()
    const text = [...noise(300), ...errors, ...noise(200, 3000), ...tests, ...noise(300, 7000)].join('\n')
    const out = trimResult(text, { tool: 'terminal', maxChars: 4000 }).text
    // 25 of the 26 errors (18 when a quarter of the budget named the tests before them)
    expect(words.filter((w) => out.includes(`Error: ${w} service`)).length).toBeGreaterThanOrEqual(24)
  })

  it('keeps the cost of a named line another piece took in: every excerpt numbered and within budget', () => {
    // Mocha: each test's header, a blank, its message; the message ranks above the header, which
    // joins its piece (headerAbove) after it was named alone. Refunding it then, gap marker and
    // all, under-counted the middle by up to 1,100 chars and the fitter fell back to a plain cut.
    const lines = ['[INFO] start', ...noise(30), 'Exception in thread "main" java.lang.IllegalStateException: broken', ...frames('Main', 30), ...noise(30, 31)]
    for (let k = 1; k <= 30; k++) {
      const stack = k === 1 ? Array.from({ length: 80 }, (_, i) => `    at f${i} (lib${i}.js:${i})`) : [`    at x (a${k}.js:${k})`]
      lines.push(`${k}) Suite fails on case ${k}:`, '', `Error: boom number ${k * 7}`, ...stack, `INFO between ${k}`, `INFO between ${k}b`, `INFO between ${k}c`)
    }
    const text = [...lines, ...noise(1500, 100), ...Array.from({ length: 5 }, (_, i) => `INFO tail ${i}`)].join('\n') + '\n'
    for (let budget = 9000; budget <= 9600; budget += 4) {
      const out = trimResult(text, { tool: 'terminal', maxChars: budget }).text
      expect(out.length).toBeLessThanOrEqual(budget)
      expect(out).toMatch(/^\d+: /m)
      expect(out.match(/Suite fails on case/g)?.length).toBe(30)
    }
  })
})

describe('count notes in gap markers (marker.ts, fit.ts)', () => {
  it('says how many repeats of a kept line a gap holds', () => {
    const lines = [...noise(100)]
    for (let i = 0; i < 400; i++) lines.push(i === 200 ? 'ERROR: link step failed for target parser' : `warning: deprecated call in src/mod${i}.c`, `INFO compiled unit ${i}`)
    lines.push(...noise(100, 101))
    const out = fitText(lines.join('\n'), 6000, profile).text
    expect(out.length).toBeLessThanOrEqual(6000)
    expect(out).toContain('ERROR: link step failed for target parser')
    const found = notes(out)
    expect(found.length).toBeGreaterThan(0)
    expect(found.some((n) => n.count > 100)).toBe(true)
    // A re-trim reads the noted markers back: each gap keeps its lines and chars.
    const parsed = parseExcerpt(out)
    expect(parsed).toBeDefined()
    const gaps = parsed!.pieces.filter((p) => p.kind === 'gap')
    for (const n of found) expect(gaps.some((g) => g.kind === 'gap' && g.from === n.from && g.to === n.to)).toBe(true)
  })

  it('property: every note is true (the count is the salient lines of that gap with the named line\'s own template) and the budget holds', () => {
    const line = fc.oneof(
      fc.nat(999).map((n) => `warning: deprecated call in src/mod${n}.c`),
      fc.nat(999).map((n) => `ERROR: request ${n} failed`),
      // (indented: its own template is not the one weighSalient's walk read, and is walked again)
      fc.nat(999).map((n) => `  ERROR: request ${n} failed`),
      fc.nat(999).map((n) => `INFO step ${n}`),
      fc.constantFrom('FATAL: out of memory', '  at frame()', ''),
    )
    fc.assert(
      fc.property(fc.array(line, { minLength: 50, maxLength: 600 }), fc.integer({ min: 500, max: 5000 }), (ls, budget) => {
        const text = ls.join('\n')
        const out = fitText(text, budget, profile).text
        expect(out.length).toBeLessThanOrEqual(budget)
        const found = notes(out)
        if (found.length === 0) return
        const weighed = weighSalient(text, scanLines(text, true).salient)
        const tpl = new Map(weighed.map((s) => [s.line, ownTemplate(text, s.start, s.end)]))
        const shown = shownLines(out)
        for (const n of found) {
          expect(shown.has(n.like)).toBe(true)
          const t = tpl.get(n.like)
          expect(t).toBeDefined()
          let count = 0
          for (const s of weighed) if (s.line >= n.from && s.line <= n.to && tpl.get(s.line) === t) count++
          expect(n.count).toBe(count)
          expect(n.count).toBeGreaterThanOrEqual(2)
        }
      }),
      { numRuns: 300 },
    )
  })
})

describe("a failure's context ends at the next item of its list (middle.ts)", () => {
  /** A Gradle build: tasks, one failing, more tasks after it. */
  const gradle = (prefix: string): { text: string; failed: number } => {
    const lines: string[] = []
    for (let i = 0; i < 400; i++) lines.push(`${prefix}> Task :module${i}:compileJava UP-TO-DATE`)
    const failed = lines.push(`${prefix}> Task :core:test FAILED`)
    for (let i = 0; i < 6; i++) lines.push(`${prefix}> Task :core:step${i}`)
    for (let i = 0; i < 400; i++) lines.push(`${prefix}> Task :tail${i}:jar UP-TO-DATE`)
    return { text: lines.join('\n'), failed }
  }

  it("stops before a line with the same list marker and word (Gradle's `> Task`) that is not a problem itself", () => {
    const { text, failed } = gradle('')
    const out = fitText(text, 4000, profile).text
    const kept = shownLines(out)
    expect(kept.has(failed)).toBe(true)
    expect(kept.has(failed + 1)).toBe(false)
    // Under a GitHub Actions timestamp too.
    const stamped = gradle('2022-05-07T21:37:50.4723428Z ')
    const keptStamped = shownLines(fitText(stamped.text, 6000, profile).text)
    expect(keptStamped.has(stamped.failed)).toBe(true)
    expect(keptStamped.has(stamped.failed + 1)).toBe(false)
  })

  it('keeps the context when the shared first word has letters (a job name every line carries) or the next line is a problem too', () => {
    const lines = [...noise(300).map((l) => `build-job\tbuild app\t${l}`)]
    const failed = lines.push('build-job\tbuild app\tERROR: link step failed for target parser')
    lines.push('build-job\tbuild app\tundefined symbol parse_header in parser.o', ...noise(300, 301).map((l) => `build-job\tbuild app\t${l}`))
    expect(shownLines(fitText(lines.join('\n'), 3000, profile).text).has(failed + 1)).toBe(true)
    const list = ['> Task :a:test FAILED', '> Task :b:test FAILED', '> Task :c:jar']
    const text = [...noise(300), ...list, ...noise(300, 301)].join('\n')
    const kept = shownLines(fitText(text, 3000, profile).text)
    expect(kept.has(301)).toBe(true)
    expect(kept.has(302)).toBe(true)
    expect(kept.has(303)).toBe(false)
  })
})

describe("a failure's context ends at another test's pass verdict, at the line's start or its end (middle.ts)", () => {
  it("shows no Gradle `Class > test() PASSED` line around a failing test's trace", () => {
    const passing = (from: number, n: number): string[] => Array.from({ length: n }, (_, i) => [`ParserTest > testCase${from + i}() PASSED`, '']).flat()
    const lines = [
      ...noise(300),
      '> Task :core:test FAILED',
      '',
      ...passing(0, 2),
      'ClientTest > testParsing() FAILED',
      '    java.lang.IllegalArgumentException: java.nio.file.NoSuchFileException: ../data/a.log',
      '        at com.acme.LogParser.parseLog(LogParser.java:39)',
      '',
      ...passing(2, 3),
      ...noise(300, 301),
    ]
    const out = fitText(lines.join('\n'), 4000, profile).text
    expect(out).toContain('ClientTest > testParsing() FAILED')
    expect(out).toContain('java.nio.file.NoSuchFileException: ../data/a.log')
    // before: the two passing tests above the failure and the first one under its trace were its context
    expect(out).not.toMatch(/PASSED/)
  })

  it("keeps a message's own detail that ends in `ok`, and the failing test's own `started` line", () => {
    const mocha = [...noise(300), '  1) api', '       returns 200:', '     AssertionError: expected response to be ok', '      at Context.<anonymous> (test/api.js:12:5)', ...noise(300, 400)]
    expect(fitText(mocha.join('\n'), 1500, profile).text).toContain('303:      AssertionError: expected response to be ok')
    const started = "Test Case '-[AcmeTests.ParserTests testRejectsBadInput]' started."
    const xctest = [...noise(300), started, '/src/Tests/ParserTests.swift:42: error: -[AcmeTests.ParserTests testRejectsBadInput] : XCTAssertEqual failed: ("1") is not equal to ("2")', "Test Case '-[AcmeTests.ParserTests testRejectsBadInput]' failed (0.002 seconds).", ...noise(300, 400)]
    expect(fitText(xctest.join('\n'), 2000, profile).text).toContain(`301: ${started}`)
  })

  it("ends the context below a failure at the next test's `started` line", () => {
    const next = "Test Case '-[AcmeTests.ParserTests testAcceptsGoodInput]' started."
    const lines = [...noise(300), '/src/Tests/ParserTests.swift:42: error: -[AcmeTests.ParserTests testRejectsBadInput] : XCTAssertEqual failed: ("1") is not equal to ("2")', "Test Case '-[AcmeTests.ParserTests testRejectsBadInput]' failed (0.002 seconds).", next, 'INFO fixture loaded', ...noise(300, 400)]
    const out = fitText(lines.join('\n'), 2000, profile).text
    expect(out).toContain('XCTAssertEqual failed')
    expect(out).not.toContain(next)
  })
})

describe('a crowded level gives later lines less context before them too (middle.ts)', () => {
  it('the first lines placed keep the source lines above them; later ones show their own line, so more failures fit', () => {
    const lines: string[] = [...noise(50)]
    const eLines: number[] = []
    // 40 failures of 40 different exception classes (no family of look-alikes: each is placed with its context).
    const cls = (i: number): string => `${String.fromCharCode(65 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}Error`
    for (let i = 0; i < 40; i++) {
      lines.push(`____ test_case_${i} ____`, '', `    def test_case_${i}():`, `>       check(compute(${i}), ${i + 1})`)
      eLines.push(lines.push(`${cls(i)}: value ${i * 7} out of range`))
      lines.push('', `demo.py:${10 + i}: in test_case_${i}`)
    }
    lines.push(...noise(50, 51))
    const out = fitText(lines.join('\n'), 4000, profile).text
    expect(out.length).toBeLessThanOrEqual(4000)
    const shown = shownLines(out)
    const kept = eLines.filter((n) => shown.has(n))
    const withSource = kept.filter((n) => shown.has(n - 1))
    expect(withSource.length).toBeGreaterThan(0)
    expect(kept.length - withSource.length).toBeGreaterThan(0)
    // With both lines before each (the profile's 2), 4000 chars showed 18 of the 40; now 25.
    expect(kept.length).toBeGreaterThanOrEqual(24)
  })
})

describe("a Python traceback's exception is part of its unit (middle.ts)", () => {
  it('takes the exception line after the frames before the frames themselves', () => {
    const frames: string[] = []
    for (let i = 0; i < 60; i++) frames.push(`  File "/srv/app/module${i}.py", line ${i + 10}, in step${i}`, `    value = step${i + 1}(value)`)
    const lines = [...noise(400), 'ERROR: test_export (app.tests.TestExport)', '-'.repeat(70), 'Traceback (most recent call last):', ...frames, "IOError: [Errno 2] No such file or directory: '/srv/app/fixtures/table.csv'", '', ...noise(400, 401)]
    const text = lines.join('\n')
    const exception = lines.findIndex((l) => l.startsWith('IOError')) + 1
    const out = fitText(text, 3000, profile).text
    expect(out.length).toBeLessThanOrEqual(3000)
    expect(out).toContain('ERROR: test_export (app.tests.TestExport)')
    expect(out).toContain(`${exception}: IOError: [Errno 2] No such file or directory`)
    // Not every frame fits: the exception was not reached by growing over them.
    expect(out).not.toContain('module59.py')
  })
})

describe("a crowded level shows a spread-out family's members first, with up to half the budget left (middle.ts)", () => {
  // 30 failing tests' look-alike headers, each with its detail under it, then 12 distinct errors with theirs.
  const build = (detail = ''): { text: string; headers: number[]; errors: number[] } => {
    const lines: string[] = [...noise(200)]
    const headers: number[] = []
    for (let i = 0; i < 30; i++) {
      headers.push(lines.push(`[ERROR] testCase${i}(com.acme.ServiceTest)  Time elapsed: 0.0${i % 10} s  <<< FAILURE!`))
      lines.push(`expected:<${i}> but was:<${i + 1}>${detail}`, `  step ${i} of the scenario`, `  value ${i * 3}`, `  value ${i * 5}`, '')
    }
    lines.push(...noise(50, 201))
    const errors: number[] = []
    const cls = (i: number): string => `${String.fromCharCode(65 + i)}Error`
    for (let i = 0; i < 12; i++) {
      errors.push(lines.push(`${cls(i)}: worker ${i} stopped`))
      lines.push(`  while reading shard ${i}`, `  retry ${i} of 3`, `  queue depth ${i * 11}`, `  last offset ${i * 97}`, '', '', '', '')
    }
    lines.push(...noise(200, 301))
    return { text: lines.join('\n'), headers, errors }
  }

  /** Headers and errors shown in the excerpt at 3,000 chars. */
  const shownAt3000 = (detail = ''): { headers: number; errors: number } => {
    const { text, headers, errors } = build(detail)
    const out = fitText(text, 3000, profile).text
    expect(out.length).toBeLessThanOrEqual(3000)
    const shown = shownLines(out)
    return { headers: headers.filter((n) => shown.has(n)).length, errors: errors.filter((n) => shown.has(n)).length }
  }

  it('shows more of the failing tests, and still most of the distinct errors', () => {
    const { headers, errors } = shownAt3000()
    // Before, the 12 errors took their context first and 3 headers fitted; now 6, and 10 errors.
    expect(headers).toBeGreaterThanOrEqual(5)
    expect(errors).toBeGreaterThanOrEqual(8)
  })

  it('counts the line each header brings with it against the half (a long message under each)', () => {
    const { headers, errors } = shownAt3000(` in ${'the order service of the checkout module '.repeat(3)}`)
    // Counting each header's line alone, the headers and their messages took the whole budget and
    // 1 error was shown; now 4 headers (3 before the rule) and 8 errors.
    expect(headers).toBeGreaterThanOrEqual(4)
    expect(errors).toBeGreaterThanOrEqual(7)
  })

  // (Passes without the rule too: it guards the progress-stream exception, and fails without it.)
  it("does not put a progress stream's failures (among passing entries) before another failure's context", () => {
    const lines: string[] = [...noise(200)]
    for (let i = 0; i < 30; i++) {
      lines.push(`[gw${i % 2}] [ ${i}%] FAILED tests/test_io.py::test_read_${i}`)
      for (let k = 0; k < 4; k++) lines.push(`[gw${(i + k + 1) % 2}] [ ${i}%] PASSED tests/test_ok.py::test_ok_${i}_${k}`)
    }
    lines.push(...noise(100, 201))
    const detail = ['    def test_parse():', '        data = load_fixture("orders.json")', '>       assert parse(data).total == 42', 'E       AssertionError: assert 41 == 42', 'E        +  where 41 = Order(total=41).total', '', 'tests/test_parse.py:18: AssertionError']
    const at = lines.length + 1
    lines.push(...detail, ...noise(100, 301))
    const out = fitText(lines.join('\n'), 4000, profile).text
    expect(out.length).toBeLessThanOrEqual(4000)
    const shown = shownLines(out)
    // The assertion keeps the source line above it and the line under it.
    expect(shown.has(at + 2)).toBe(true)
    expect(shown.has(at + 3)).toBe(true)
    expect(shown.has(at + 4)).toBe(true)
  })
})

describe("what the code under test logged to Jest's console scores 1 (salient.ts)", () => {
  // A Jest run of 20 passing suites that logged 60 distinct errors through console.error, and 5 failing suites among them.
  const failing = [3, 7, 11, 15, 19]
  const build = (): string => {
    const lines: string[] = []
    for (let s = 0; s < 20; s++) {
      if (failing.includes(s)) {
        lines.push(`FAIL test/order${s}.test.js`, `  ● Order › parses total ${s}`, '', '    expect(received).toBe(expected) // Object.is equality', '', `    Expected: ${40 + s}`, `    Received: ${30 + s}`, '')
        lines.push(`      at Object.<anonymous> (test/order${s}.test.js:12:5)`, '')
      }
      lines.push(`PASS test/suite${s}.test.js (${s + 1}.2 s)`, '  ● Console', '')
      for (let k = 0; k < 3; k++) {
        lines.push('    console.error', `      ERROR Crawler: request ${s * 3 + k} failed, reclaiming it (TypeError: cannot read properties of null, reading 'page${k}')`, '')
        lines.push(`      at Crawler._handle (src/crawler.js:${100 + k}:15)`, `      at test/suite${s}.test.js:${20 + k}:9`, '')
      }
    }
    lines.push('Test Suites: 5 failed, 20 passed, 25 total', 'Tests:       5 failed, 140 passed, 145 total', 'Time:        30.1 s')
    return lines.join('\n')
  }

  it('scans the logged errors as score 1 and the failing tests as before', () => {
    const text = build()
    const scan = scanLines(text, true)
    const logged = scan.salient.filter((s) => text.slice(s.start, s.end).includes('ERROR Crawler'))
    expect(logged.length).toBe(60)
    expect(logged.every((s) => s.score === 1)).toBe(true)
    const headers = scan.salient.filter((s) => text.slice(s.start, s.end).includes('● Order › parses total'))
    expect(headers.map((s) => s.score)).toEqual([3, 3, 3, 3, 3])
  })

  // One entry as Jest prints it: the message, a code frame whose marked line (`>`) sits at the
  // entry's own indentation, a blank line, the location frames.
  const entry = [
    '    console.error',
    '      ERROR Crawler: handleRequestFunction failed, reclaiming it',
    '        TypeError: Cannot read properties of null (reading 1)',
    '',
    '      125 |         if (shouldRetry) {',
    '    > 126 |             log.exception(err, "request failed");',
    '          |                 ^',
    '',
    '      at Log.exception (node_modules/log/log.js:170:14)',
    '      at BrowserCrawler._handleFailedRequest (src/crawlers/browser_crawler.js:620:13)',
    '',
    '  ● Crawler › retries a failed request',
    '',
    '    Error: expected 3 retries, got 0',
  ]
  it.each([
    ['\n line ends', (l: string): string => l, '\n'],
    ['\r\n line ends', (l: string): string => l, '\r\n'],
    ['GitHub Actions timestamps (a blank line as a bare timestamp)', (l: string): string => (l === '' ? '2022-06-23T12:17:29.3885809Z' : `2022-06-23T12:17:29.3885809Z ${l}`), '\n'],
  ])('keeps a whole entry (its code frame, its location, blank lines) in the block, with %s', (_, wrap, eol) => {
    const text = entry.map(wrap).join(eol)
    const scores = new Map(scanLines(text, true).salient.map((s) => [s.line, s.score]))
    // The entry line (`error` is a keyword) and every salient line of the entry score 1.
    for (let n = 1; n <= 11; n++) expect(scores.get(n) ?? 0).toBeLessThanOrEqual(1)
    expect(scores.get(1)).toBe(1)
    expect(scores.get(3)).toBe(1)
    expect(scores.get(6)).toBe(1)
    expect(scores.get(9)).toBe(1)
    // The next failing test's header ends the block.
    expect(scores.get(12)).toBe(3)
    expect(scores.get(14)).toBe(4)
  })

  it("shows every failing test's message rather than the logged errors", () => {
    const out = fitText(build(), 3000, profile).text
    expect(out.length).toBeLessThanOrEqual(3000)
    // Before, the logged errors (score 4: `ERROR`, `failed`) came first: the first failing test was shown, the other 4 were not.
    for (const s of failing) {
      expect(out).toContain(`● Order › parses total ${s}`)
      expect(out).toContain(`Expected: ${40 + s}`)
    }
  })
})

describe("in a crowded level, a message keeps the failure header right above it (middle.ts)", () => {
  // Mocha's spec reporter: each failure's numbered `N) Suite test:` header (3) over its `Error: ...` (4).
  const suites = ['Queue worker', 'Queue pause', 'Queue cleaner', 'repeat']
  const failures = Array.from({ length: 20 }, (_, i) => ({
    header: `  ${i + 1}) ${suites[i % 4]} should handle case ${i} of the job lifecycle:`,
    message: `     Error: Timeout of ${(i % 5) * 1000 + 2000}ms exceeded. For async tests and hooks, ensure "done()" is called; if returning a Promise, ensure it resolves.`,
  }))
  const lines = [...noise(200), '  104 passing (5m)', '  20 failing', '', ...failures.flatMap((f, i) => [f.header, f.message, `      at Context.<anonymous> (test/test_queue.js:${100 + i}:5)`, '', '']), ...noise(20, 900)]

  it('shows each message it places with its test header, so the failures are named', () => {
    const out = fitText(lines.join('\n'), 5000, profile).text
    expect(out.length).toBeLessThanOrEqual(5000)
    const shown = shownLines(out)
    let messages = 0
    for (const [i, f] of failures.entries()) {
      const n = 204 + i * 5
      expect(lines[n - 1]).toBe(f.header)
      if (shown.has(n + 1)) {
        messages++
        expect(shown.has(n)).toBe(true)
      }
    }
    expect(messages).toBeGreaterThan(5)
  })

  it('takes no header that does not announce its detail (no trailing colon)', () => {
    const noColon = lines.map((l) => (l.endsWith('lifecycle:') ? l.slice(0, -1) : l))
    const shown = shownLines(fitText(noColon.join('\n'), 5000, profile).text)
    const bare = failures.filter((_, i) => shown.has(205 + i * 5) && !shown.has(204 + i * 5))
    expect(bare.length).toBeGreaterThan(0)
  })
})

describe("a runner's summary list right above the tail joins the tail (fit.ts summaryAbove)", () => {
  const TS = '2022-03-22T19:28:57.6954776Z '
  // pytest-xdist: FAILED entries of the progress stream, each failure's section, then the short test summary.
  const tests = Array.from({ length: 30 }, (_, i) => `gammapy/datasets/tests/test_map${i}.py::test_stack_case_${i}`)
  const log = (tail: string[]): string[] => [
    ...noise(100).map((l) => TS + l),
    ...tests.map((t, i) => `${TS}[gw${i % 2}] [ ${10 + i}%] FAILED ${t} `),
    ...tests.flatMap((t, i) => [`${TS}_________________________ test_stack_case_${i} _________________________`, ...noise(20, 500 + i * 20).map((l) => TS + l), `${TS}E           ValueError: 'width' must be a strictly positive scalar (case ${i})`, `${TS}${t.split('::')[0]}:${40 + i}: ValueError`]),
    `${TS}=========================== short test summary info ============================`,
    ...tail,
  ]
  const summary = tests.map((t) => `${TS}FAILED ${t} - ValueError: 'width' must be a strictly...`)
  const end = [`${TS}===== 30 failed, 1062 passed, 544 skipped in 31.2s =====`, `${TS}make: *** [Makefile:84: test] Error 1`, `${TS}##[error]Process completed with exit code 2.`]

  it('shows the whole short test summary at 10,000 chars', () => {
    const out = fitText(log([...summary, ...end]).join('\n'), 10_000, profile).text
    expect(out.length).toBeLessThanOrEqual(10_000)
    for (const t of tests) expect(out).toContain(`FAILED ${t} - ValueError`)
  })

  it('keeps a line excerpt under a profile with a large head share (read_file: the middle gives what it has)', () => {
    const lines = ['ERROR: setup failed at step 1', ...noise(300), 'Traceback (most recent call last): error in middle', ...noise(300, 301)]
    for (let i = 0; i < 60; i++) lines.push(`FAILED tests/test_mod${i}.py::test_case_${i} - AssertionError: boom`)
    lines.push('===== 60 failed, 10 passed in 3.2s =====')
    const out = fitText(lines.join('\n'), 8000, DEFAULT_PROFILES.read_file!).text
    expect(out.length).toBeLessThanOrEqual(8000)
    expect(out).not.toMatch(/omitted chars/) // not the plain char cut
    expect(out).toContain('FAILED tests/test_mod59.py::test_case_59 - AssertionError: boom')
  })

  it('does not grow the tail over a logged trace that sits above it (no runner shape)', () => {
    const trace = Array.from({ length: 60 }, (_, i) => `${TS}[14396${i}.11]\tERROR:paramiko.transport:  File "/src/paramiko/transport.py", line ${2000 + i}, in run`)
    const withTrace = fitText(log([...trace, ...end]).join('\n'), 8000, profile).text
    // the tail keeps its usual share: the trace's lines shown are those of a quarter of the budget
    // (17 of its 60 lines at 8,000 chars; a tail grown over it showed 33)
    const shown = trace.filter((l) => withTrace.includes(l.slice(TS.length))).length
    expect(shown).toBeLessThanOrEqual(25)
  })
})

describe('a rule line starts a failure of its own (middle.ts afterRule)', () => {
  // unittest's report: `=====` over each `ERROR: test_x (mod.Case)` header, whose traceback ends
  // with the same exception each time, two lines above the next rule; earlier, distinct logged
  // import errors of the test loader.
  const loader = Array.from({ length: 16 }, (_, i) => [
    `ERROR: Could not import module: pkg.plugins.mod${i}`,
    'Traceback (most recent call last):',
    `  File "/src/pkg/plugins/mod${i}.py", line ${10 + i}, in <module>`,
    `    import dep${i}`,
    `ImportError: No module named dep${i}.core`,
    ...noise(30, 1000 + i * 30),
  ])
  const tests = Array.from({ length: 10 }, (_, i) => `test_loop_case_${i}`)
  const report = tests.flatMap((t, i) => [
    '======================================================================',
    `ERROR: ${t} (pkg.scripting.export.TestExport)`,
    '----------------------------------------------------------------------',
    'Traceback (most recent call last):',
    `  File "/src/pkg/scripting/export.py", line ${500 + i * 7}, in ${t}`,
    `    self.do_export('${t}')`,
    '  File "/src/pkg/scripting/export.py", line 480, in do_export',
    '    with open(path) as f:',
    "IOError: [Errno 2] No such file or directory: u'/src/pkg/tests/resources/export_loop.txt'",
    '',
  ])
  const lines = [...noise(200), ...loader.flat(), ...report, '----------------------------------------------------------------------', 'Ran 445 tests in 70.302s', '', 'FAILED (errors=10)', ...noise(3, 5000)]

  it('shows the failing tests named under the rules, not only the logged errors before them', () => {
    const out = fitText(lines.join('\n'), 6000, profile).text
    expect(out.length).toBeLessThanOrEqual(6000)
    const named = tests.filter((t) => out.includes(`ERROR: ${t} (pkg.scripting.export.TestExport)`)).length
    // 3 of 10 before, when each header counted as the detail of the failure above it (its exception two lines up)
    expect(named).toBeGreaterThanOrEqual(8)
  })
})

describe("the tail's top of passing tests goes to the middle (fit.ts quietTailTop)", () => {
  // Surefire: a failing class's trace in the middle, then classes that pass up to the run's end.
  const frames = Array.from({ length: 50 }, (_, i) => `\tat com.acme.miner.Step${i}.run(Step${i}.java:${10 + i})`)
  const passing = Array.from({ length: 14 }, (_, i) => [`[INFO] Running com.acme.processor.Check${i}Test`, `[INFO] Tests run: ${i + 3}, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.${i + 1}1 s - in com.acme.processor.Check${i}Test`]).flat()
  const end = ['[INFO] ', '[INFO] Results:', '[INFO] ', '[ERROR] Tests run: 469, Failures: 1, Errors: 0, Skipped: 2', '[INFO] ', '[INFO] BUILD FAILURE', '[INFO] Total time:  03:41 min']
  const failure = (cls: string, test: string): string[] => [`[ERROR] Tests run: 8, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 32.9 s <<< FAILURE! - in com.acme.miner.${cls}`, `[ERROR] ${test}  Time elapsed: 0.461 s  <<< FAILURE!`, `java.lang.IllegalStateException: ${test} found no repository`, ...frames.map((f) => `${f} // ${cls}`)]
  const log = (top: string[]): string[] => [...noise(200), ...failure('MinerTest', 'extract_stats'), ...noise(200, 400), ...failure('FetchTest', 'fetch_all'), ...noise(200, 600), ...top, ...end]

  it("shows more of the failure's trace instead of the passing classes at the tail's top", () => {
    const out = fitText(log(passing).join('\n'), 5000, profile).text
    expect(out.length).toBeLessThanOrEqual(5000)
    expect(out).not.toContain('Running com.acme.processor.Check13Test')
    expect(out).toContain('[ERROR] Tests run: 469, Failures: 1, Errors: 0, Skipped: 2')
    const shown = ['MinerTest', 'FetchTest'].flatMap((cls) => frames.filter((f) => out.includes(`${f.trim()} // ${cls}`))).length
    // 47 of the two traces' 100 frames when the tail kept the passing classes (56 now)
    expect(shown).toBeGreaterThan(50)
  })

  it('passes over blank lines that are a bare CI timestamp or a timestamp and blanks (Gradle between its PASSED lines)', () => {
    const gradle = Array.from({ length: 60 }, (_, i) => [`ParserTest > testCase${i}() PASSED`, '']).flat()
    const TS = '2024-01-02T03:04:05.1234567Z'
    for (const blank of [TS, `${TS} `]) {
      const text = log(gradle).map((l) => (l === '' ? blank : `${TS} ${l}`)).join('\n')
      const out = fitText(text, 5000, profile).text
      expect(out.length).toBeLessThanOrEqual(5000)
      // before: the tail stopped at the first timestamped blank line and kept the passing tests
      // (one comes back with the chars the middle leaves unused, since the second failing class's
      // verdict is named before the first class's trace grows: round 20)
      expect(out.split('\n').filter((l) => l.includes('PASSED')).length).toBeLessThanOrEqual(1)
    }
  })

  it("passes over a passing group's name above its pass verdicts (Jest's and Mocha's describe blocks)", () => {
    // Jest --verbose: a failing suite's blocks in the middle, then passing suites up to the summary
    const blocks = Array.from({ length: 40 }, (_, i) => [`  ● Publisher › publishes order ${i}`, '', '    expect(received).toHaveLength(expected)', '', `    Expected length: ${i + 1}`, '    Received length: 0', ''].concat(Array.from({ length: 6 }, (_, k) => `      at Object.<anonymous> (test/publisher.test.js:${20 + k}:${i + 3})`), ['']))
    const suites = Array.from({ length: 4 }, (_, p) => [`PASS test/catalog${p}.test.js`, `  catalog page ${p}`, ...Array.from({ length: 20 }, (_, k) => `    ✓ prices sku${p}-${k}${k % 3 === 0 ? ' (1 ms)' : ''}`), '']).flat()
    const text = [...noise(300), 'FAIL test/publisher.test.js', ...blocks.flat(), ...suites, 'Test Suites: 1 failed, 4 passed, 5 total', 'Tests:       40 failed, 80 passed, 120 total', 'Time:        1.265 s'].join('\n')
    const out = fitText(text, 4000, profile).text
    expect(out.length).toBeLessThanOrEqual(4000)
    expect(out).toContain('Tests:       40 failed, 80 passed, 120 total')
    // 29 of the 40 failures' headings before, 34 now
    const shown = blocks.filter((b) => out.includes(b[0]!.trim())).length
    expect(shown).toBeGreaterThanOrEqual(32)
    // before: the tail stopped at a group's name (`  catalog page 3`) and kept its 20 passing tests
    expect(out.split('✓ prices').length - 1).toBeLessThanOrEqual(2)
  })

  it("moves a nested group's names (describe in describe), never a failure's detail right above a pass verdict", () => {
    const at = (text: string, line: string): number => text.indexOf(`${line}\n`)
    const top = (lines: string[], from: string): string => {
      const text = ['(the middle)', ...lines].join('\n')
      const start = at(text, from)
      return text.slice(quietTailTop(text, scanLines(text, true).salient, start)).split('\n')[0]!
    }
    const summary = ['Test Suites: 1 failed, 2 passed, 3 total', 'Tests:       1 failed, 9 passed, 10 total']
    // Jest: nested describes over their passing tests
    const nested = ['PASS test/cart.test.js', '  Cart', '    add', '      ✓ adds an item (2 ms)', '      ✓ adds up quantities', '    totals', '      ✓ sums (1 ms)', '', ...summary]
    expect(top(nested, 'PASS test/cart.test.js')).toBe(summary[0])
    // Vitest: a failure's reason right above the next test's pass verdict stays in the tail
    const vitest = ['   × rejects the query 12ms', '     → Unsupported SQL syntax', '   ✓ inserts a row 3ms', '   ✓ reads it back', '', ' Test Files  1 failed (1)', '      Tests  1 failed | 2 passed (3)']
    expect(top(vitest, '     → Unsupported SQL syntax')).toBe('     → Unsupported SQL syntax')
    // Jest: a failure's last detail line running into the next suite's verdict
    const jest = ['    Expected length: 1', '    Received length: 0', 'PASS test/catalog.test.js', '  ✓ prices sku0', '', ...summary]
    expect(top(jest, '    Received length: 0')).toBe('    Received length: 0')
  })

  it("keeps a tail's top that did not pass: a tool's report without keywords", () => {
    const report = Array.from({ length: 8 }, (_, i) => `  ${String(i + 1).padStart(2, '0')}. [L${400 + i}] 301 https://github.com/acme/lib${i}  → https://github.com/acme-archive/lib${i}`)
    const out = fitText(log(['> Links ', ...report]).join('\n'), 5000, profile).text
    for (const r of report) expect(out).toContain(r.trim())
  })
})

describe('the cluster that runs into the tail is the verdict (middle.ts rankSalient)', () => {
  // 40 earlier errors, each its own cluster, then a run of 12 failure lines that ends in the tail.
  const early = Array.from({ length: 40 }, (_, i) => [`ERROR: module m${i} failed to load plugin p${i}`, ...noise(6, 1000 + i * 6)]).flat()
  const words = ['compile', 'link', 'package', 'sign', 'upload', 'verify', 'index', 'archive', 'deploy', 'notify', 'report', 'clean']
  const last = words.map((w, i) => `ERROR: ${w} stage of the ${words[(i + 5) % 12]} job failed`)
  const lines = [...noise(100), ...early, ...noise(20, 2000), ...last, ...noise(12, 3000), 'Process completed with exit code 1.']

  it('shows every line of the run above the tail before the earlier errors', () => {
    const out = fitText(lines.join('\n'), 2000, profile).text
    expect(out.length).toBeLessThanOrEqual(2000)
    // before: the run's lines past its first line and its context, above the tail, ranked after
    // all 40 earlier errors (one of them not shown)
    for (const l of last) expect(out).toContain(l)
  })

  it("keeps the run's own first line ahead of its later lines", () => {
    const run = ['[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.8.1:compile on project core: Compilation failure', ...Array.from({ length: 20 }, (_, i) => `[ERROR] /src/main/java/org/p/C${i}.java:[${i + 3},9] cannot find symbol`)]
    const text = [...noise(100), ...early, ...noise(20, 2000), ...run, ...noise(3, 3000), 'Process completed with exit code 1.'].join('\n')
    // (a first form ranked the later lines latest first, ahead of the run's start: lost at all three)
    for (const budget of [1000, 1200, 1500]) expect(fitText(text, budget, profile).text).toContain('Failed to execute goal')
  })

  it('takes one line of each message from the run: a burst of one message does not crowd out earlier failures', () => {
    const info = (n: number, p: string): string[] => Array.from({ length: n }, (_, i) => `[INFO] ${p} ${i} Downloading from central: https://repo.maven.apache.org/maven2/org/x/${p}${i}.pom`)
    const text = [
      ...info(40, 'b'),
      ...Array.from({ length: 8 }, (_, i) => [`[ERROR] testParse${i}(org.p.ParserTest)  Time elapsed: 0.01 s  <<< FAILURE!`, `java.lang.AssertionError: expected:<${i}> but was:<${i + 1}>`, `\tat org.p.ParserTest.testParse${i}(ParserTest.java:${20 + i})`, ...info(4, `c${i}`)]).flat(),
      ...info(10, 'd'),
      ...Array.from({ length: 30 }, (_, i) => `[ERROR] shutdown: connection ${i} to db-${i % 7}.internal:5432 refused while closing pool slot ${i * 13}`),
      '[INFO] done', '[INFO] cleanup', 'Error: Process completed with exit code 1.',
    ].join('\n')
    const out = fitText(text, 4000, profile).text
    // (a first form promoted every line of the burst: 5 of the 8 failures shown)
    for (let i = 0; i < 8; i++) expect(out).toContain(`expected:<${i}> but was:<${i + 1}>`)
  })
})

describe("a piece that ends on another line of output grows no further than a context (middle.ts grow)", () => {
  it("hspec's passing tests under a group's name after a failing test are not that failure's detail", () => {
    const passing = Array.from({ length: 40 }, (_, i) => `  works for Word${i}`)
    const lines = [
      ...noise(200),
      'Production tier: getObject',
      "  is able to fetch Facebook's own page FAILED [1]",
      'Beta tier: getTestUsers',
      '  gets a list of test users',
      'SimpleType',
      ...passing,
      'parseSignedRequest',
      '  works for Facebook example',
      ...noise(2000, 201),
    ]
    const out = fitText(lines.join('\n'), 4000, profile).text
    expect(out).toContain("is able to fetch Facebook's own page FAILED [1]")
    expect(out).toContain('SimpleType') // the failure's context after it
    expect(out).toContain('  works for Word0') // at most a context's lines past it ...
    expect(out).not.toContain('  works for Word20') // ... not the whole group
  })

  it("a failure's own indented detail still grows past its context", () => {
    const frames = Array.from({ length: 30 }, (_, i) => `\tat com.acme.Parser.step${i}(Parser.java:${i + 10})`)
    const lines = [...noise(200), 'java.lang.IllegalStateException: parser state broken', ...frames, ...noise(2000, 201)]
    const out = fitText(lines.join('\n'), 4000, profile).text
    expect(out).toContain('at com.acme.Parser.step25(Parser.java:35)')
  })
})

describe("a JVM exception's message lines before its first frame are its unit (middle.ts grow)", () => {
  const failure = (test: string, frameLine: number): string[] => [
    `[ERROR] ${test}  Time elapsed: 0.015 s  <<< FAILURE!`,
    'java.lang.AssertionError: ',
    '',
    'Expecting actual:',
    '  {"answer"="n",',
    '   "prompt"="(y)es or (n)o:",',
    '   "tries"=1}',
    'to be equal to:',
    '  {"answer"="y",',
    '   "prompt"="(y)es or (n)o:",',
    `   "tries"=2, "test"="${test}"}`,
    'when comparing values using key comparator',
    '',
    `\tat de.acme.cli.SystemInUtilTest.${test}(SystemInUtilTest.java:${frameLine})`,
    '',
  ]
  it("AssertJ's `Expecting actual:` / `to be equal to:` block and the test's frame are shown with the failure", () => {
    const lines = [...noise(300), ...failure('should_ask_again', 42), ...noise(300, 301)]
    const out = fitText(lines.join('\n'), 3000, profile).text
    expect(out).toContain('to be equal to:')
    expect(out).toContain('"tries"=2, "test"="should_ask_again"}')
    expect(out).toContain('when comparing values using key comparator')
    expect(out).toContain('SystemInUtilTest.should_ask_again(SystemInUtilTest.java:42)')
  })

  it("a trace whose opener is not salient still grows: Rust's `stack backtrace:`, an exception with no keyword", () => {
    const rust = ["thread 'tests::integration_connects' panicked at src/db.rs:41:10:", 'called `Result::unwrap()` on an `Err` value: Os { code: 111, kind: ConnectionRefused }', 'stack backtrace:']
    for (let i = 0; i < 10; i++) rust.push(`  ${i}: tokio::runtime::frame${i}`, `             at /home/runner/.cargo/registry/src/x-1.0/src/lib.rs:${100 + i}:5`)
    rust.push('  10: myapp::db::connect', '             at ./src/db.rs:50:9')
    const rustOut = fitText([...noise(300), ...rust, ...noise(2000, 301)].join('\n'), 4000, profile).text
    expect(rustOut).toContain('at ./src/db.rs:50:9')
    const frames = Array.from({ length: 20 }, (_, i) => `\tat com.acme.Lexer.step${i}(Lexer.java:${i + 10})`)
    const java = ['[ERROR] lexesNumbers(com.acme.LexerTest)  Time elapsed: 0.01 s  <<< ERROR!', 'com.acme.Lexer$Oops: unexpected char at 3', ...frames, '\tat com.acme.LexerTest.lexesNumbers(LexerTest.java:77)']
    const javaOut = fitText([...noise(300), ...java, ...noise(2000, 301)].join('\n'), 4000, profile).text
    expect(javaOut).toContain('LexerTest.java:77')
  })

  it("the search for an exception's first frame stops at other output (a level tag, `Running`, another exception)", () => {
    const lines = [...noise(300), '[INFO] Running com.acme.ClientTest', 'java.net.ConnectException: Connection refused (printed by a retry loop, no trace)', ...Array.from({ length: 8 }, (_, i) => `[INFO] retry ${i + 1} of 8`), '', '[INFO] Running com.acme.OtherTest', 'com.acme.Scheduler$Stop: tick budget exhausted', '\tat com.acme.Scheduler.tick(Scheduler.java:88)', ...noise(2000, 400)]
    const out = fitText(lines.join('\n'), 3000, profile).text
    expect(out).toContain('java.net.ConnectException: Connection refused')
    expect(out).not.toContain('[INFO] retry 8 of 8')
  })

  it('lines after an exception with no frame within reach are not its message', () => {
    const lines = [...noise(300), 'java.lang.IllegalStateException: broken', 'retrying the connection', 'retrying the connection again', ...noise(40, 301), '\tat de.acme.Late.call(Late.java:1)', ...noise(300, 400)]
    const out = fitText(lines.join('\n'), 3000, profile).text
    expect(out).toContain('java.lang.IllegalStateException: broken')
    expect(out).not.toContain('at de.acme.Late.call(Late.java:1)')
  })
})

describe("every failing test's own line ranks with the first line of each template (middle.ts diverse)", () => {
  // A pytest run whose 8 failing tests' verdicts share one template, and whose failures each
  // logged a traceback through a library's logger: 36 lines, each a template of its own.
  const names = ['auto_add_policy', 'cleanup', 'context_manager', 'negotiation_1', 'negotiation_2', 'negotiation_3', 'negotiation_4', 'update_environment']
  const run = (): string => {
    const lines: string[] = ['platform linux -- Python 3.4.6, pytest-3.2.3', 'collected 217 items', '']
    for (let i = 0; i < 40; i++) {
      lines.push(`tests/test_auth.py::AuthTest::test_case_${i} PASSED`)
      if (i % 5 === 2) lines.push(`tests/test_client.py::SSHClientTest::test_${names[(i / 5) | 0]} FAILED`)
    }
    for (let i = 0; i < 200; i++) lines.push(`tests/test_util.py::UtilTest::test_util_${i} PASSED`)
    lines.push('=================================== FAILURES ===================================')
    const fns = ['_check_banner', 'readline', '_read_timeout', 'run', 'start_client', 'connect', '_auth', 'open_session', '_send', '_recv', 'handshake', 'negotiate', 'kex_init', 'parse', 'verify', 'close']
    names.forEach((n, k) => {
      lines.push(`_____________________ SSHClientTest.test_${n} _____________________`, '', `    def test_${n}(self):`, '>       self.tc.connect()', '')
      lines.push(`[${1000 * k}.5]\tERROR:paramiko.transport:Exception: Error reading SSH protocol banner`, `[${1000 * k}.6]\tERROR:paramiko.transport:Traceback (most recent call last):`)
      fns.forEach((f, j) => lines.push(`[${1000 * k + j}.7]\tERROR:paramiko.transport:  File "/home/build/paramiko/${f}.py", line ${100 + j}, in ${f}`, `[${1000 * k + j}.8]\tERROR:paramiko.transport:    self.${f}_${j}()`))
      lines.push(`[${1000 * k}.9]\tERROR:paramiko.transport:paramiko.ssh_exception.SSHException: Error reading SSH protocol banner`, 'E               paramiko.ssh_exception.SSHException: Error reading SSH protocol banner', '')
    })
    lines.push('============== 8 failed, 195 passed, 14 skipped in 211.53 seconds ==============')
    for (let i = 0; i < 60; i++) lines.push(`copying static file ${i} ... done`)
    return lines.join('\n')
  }

  it('names all 8 failing tests at 6,000 chars (3 before the rule: the logged lines came first)', () => {
    const out = fitText(run(), 6000, profile).text
    expect(out.length).toBeLessThanOrEqual(6000)
    const named = names.filter((n) => out.split('\n').some((l) => l.endsWith(`SSHClientTest::test_${n} FAILED`)))
    expect(named).toEqual(names)
    expect(out).toContain('8 failed, 195 passed')
  })

  it('not when the tests\' own lines would take over a quarter of the budget: one example of each kind first', () => {
    // (at 4,000 chars the 16 own lines, a verdict and a header per test, are over a quarter of the middle's budget)
    const at4k = fitText(run(), 4000, profile).text
    expect(names.filter((n) => at4k.includes(`SSHClientTest::test_${n} FAILED`)).length).toBeLessThan(8)
    const line = (n: number, template: number, instance: number, chars: number): SalientLine => ({ line: n, start: 0, end: chars, score: 4, template, instance })
    const order = [line(1, 0, -1, 50), line(2, 1, 0, 50), line(3, 0, -2, 50), line(4, 2, 1, 50)]
    expect(diverse(order, false, 100).map((s) => s.line)).toEqual([1, 2, 3, 4])
    expect(diverse(order, false, 99).map((s) => s.line)).toEqual([1, 2, 4, 3])
  })

  it('a test\'s own line (negative instance) is a first copy; a repeat of its template under no test is not', () => {
    const line = (n: number, template: number, instance?: number): SalientLine => ({ line: n, start: 0, end: 0, score: 4, template, ...(instance !== undefined ? { instance } : {}) })
    const order = [line(1, 0, -1), line(2, 1), line(3, 0, -2), line(4, 1), line(5, 2), line(6, 0, -1)]
    // test -2's verdict (line 3) comes before line 5's new template; line 4 (a repeat) and line 6 (test -1 again) after
    expect(diverse(order, false).map((s) => s.line)).toEqual([1, 2, 3, 5, 4, 6])
  })
})

describe("the markers' reserve, picked again (fit.ts RETRY_SLACK)", () => {
  // 60 compile errors, each after 30 lines of progress: a middle of many pieces, each piece
  // reserving a gap marker's longest form (GAP_MARKER_MAX) where the marker it gets is shorter.
  const lines: string[] = []
  for (let i = 0; i < 60; i++) {
    for (let k = 0; k < 30; k++) lines.push(`[INFO] compiling module ${i}.${k} of the build`)
    lines.push(`[ERROR] src/main/java/a/Module${i}.java:[${i + 10},5] cannot find symbol ${String.fromCharCode(97 + (i % 26))}${i}`)
  }
  const text = lines.join('\n')

  it('leaves at most 5% of the budget unused, and shows more errors with it', () => {
    // (one pick alone left 298, 525 and 921 chars unused, showing 5, 17 and 40 of the 60 errors)
    for (const [budget, errors] of [[2000, 8], [4000, 21], [8000, 46]] as const) {
      const out = fitText(text, budget, profile).text
      expect(out.length).toBeLessThanOrEqual(budget)
      expect(budget - out.length).toBeLessThanOrEqual(budget * 0.05)
      expect(out.match(/cannot find symbol/g)).toHaveLength(errors)
      // every kept error is numbered with its own line
      for (const m of out.matchAll(/^(\d+): \[ERROR\] src\/main\/java\/a\/Module(\d+)\.java/gm)) expect(Number(m[1])).toBe(31 * (Number(m[2]) + 1))
    }
  })
})

describe("a runner's list further above the tail joins it (fit.ts summaryAbove, listAbove)", () => {
  // Surefire 2.x's Results block: its `Failed tests:` items hold no keyword, and Maven's reactor
  // summary stands between it and the tail.
  const items = ['compositeProperty:281', 'defaultLayoutRule:153', 'fileAppenderCollision:171', 'zeroNesting:129'].map((t) => `  SiftingAppenderTest.${t}`)
  const results = ['Results :', '', 'Failed tests: ', ...items, '', 'Tests run: 402, Failures: 7, Errors: 0, Skipped: 27', '']
  const reactor = [
    '[INFO] Reactor Summary for Logback-Parent 1.3.0-alpha16-SNAPSHOT:',
    '[INFO] Logback-Parent ..................................... SUCCESS [  2.284 s]',
    '[INFO] Logback Classic Module ............................. FAILURE [  8.416 s]',
    '[INFO] Logback Access Module .............................. SKIPPED',
    '[INFO] ------------------------------------------------------------------------',
    '[INFO] BUILD FAILURE',
  ]
  const at = (lines: string[], n: number): number => lines.slice(0, n).reduce((sum, l) => sum + l.length + 1, 0)

  it("starts the tail at the list's header when the list is within the cap", () => {
    const lines = [...noise(200), ...results, ...reactor]
    const text = lines.join('\n')
    const tailStart = at(lines, lines.length - 2) // the tail holds the last two lines
    const header = at(lines, 200 + 2)
    expect(summaryAbove(text, scanLines(text, true).salient, tailStart, 2000)).toBe(header)
    // (beyond the cap, the tail stays)
    expect(summaryAbove(text, scanLines(text, true).salient, tailStart, 500)).toBe(tailStart)
  })

  it('starts it there too when the tail starts right under a salient line (the reactor\'s FAILURE line)', () => {
    const lines = [...noise(200), ...results, ...reactor]
    const text = lines.join('\n')
    const tailStart = at(lines, lines.length - 3) // right under `... FAILURE [  8.416 s]`
    expect(summaryAbove(text, scanLines(text, true).salient, tailStart, 2000)).toBe(at(lines, 200 + 2))
  })

  it.each([
    ['not indented', 'SiftingAppenderTest.compositeProperty:281'],
    ['blank', ''],
    ['spaces only', '      '],
    ['spaces and a CR', '      \r'],
    ['more spaces than an indent is read', ' '.repeat(40)],
    ['a CI timestamp alone', '2022-05-18T15:22:11.3883736Z'],
  ])('takes no header whose next line is no item: %s', (_, next) => {
    const lines = [...noise(200), 'Results :', '', 'Failed tests: ', next, ...items.slice(1), '', 'Tests run: 402, Failures: 7, Errors: 0, Skipped: 27', '', ...reactor]
    const text = lines.join('\n')
    const tailStart = at(lines, lines.length - 2)
    expect(summaryAbove(text, scanLines(text, true).salient, tailStart, 2000)).toBe(tailStart)
  })
})

describe('the first failing test a cluster names ranks after its starts (middle.ts rankSalient)', () => {
  // A compiler's tests print the errors they expect, every third line (one cluster), before
  // Surefire's verdict of the one test that failed, in the same cluster.
  const expected = Array.from({ length: 20 }, (_, i) => [`e: /tmp/junit${1000 + i}/kapt/stubs/Case${i}.java:6: error: @JsonClass can't be applied to Case${i}: must be a Kotlin class`, `public final class Case${i} {`, '             ^'])
  const failure = [
    '[ERROR] Tests run: 21, Failures: 1, Errors: 0, Skipped: 1, Time elapsed: 18.994 s <<< FAILURE! - in com.acme.CodegenTest',
    '[ERROR] typeAliasesShareAdapters(com.acme.CodegenTest)  Time elapsed: 2.265 s  <<< FAILURE!',
  ]
  const text = [...noise(100), ...expected.flat(), ...failure, ...noise(10, 2000)].join('\n')

  it("ranks the cluster's first named test before the cluster's later lines of its score", () => {
    const weighed = weighSalient(text, scanLines(text, true).salient)
    const { order } = rankSalient(text, weighed, text.length)
    const test = order.findIndex((s) => text.slice(s.start, s.end).includes('Tests run: 21, Failures: 1'))
    const expectedLines = order.filter((s) => s.score === order[test]!.score && text.slice(s.start, s.end).startsWith('e: /tmp/junit1'))
    expect(order[test]!.instance).toBeLessThan(0)
    expect(expectedLines.length).toBeGreaterThan(5)
    for (const s of expectedLines.slice(1)) expect(order.indexOf(s)).toBeGreaterThan(test)
  })
})

describe("an exception's message before another trace's frames (middle.ts grow)", () => {
  // Two failures of one level: an exception with 80 frames, then one whose message runs over 12
  // lines of its own before its first frame (more than a line's context after it).
  const message = Array.from({ length: 12 }, (_, i) => `  row ${i}: expected <${i * 7}> but was <${i * 7 + 1}>`)
  const lines = [...noise(300), 'java.lang.IllegalStateException: store closed', ...frames('Store', 80), ...noise(60, 1000), 'org.opentest4j.AssertionFailedError: table differs', ...message, ...frames('TableTest', 20), ...noise(300, 3000)]

  it.each([3000, 4000])("keeps the second exception's whole message when the first's frames do not all fit (%i chars)", (budget) => {
    const out = fitText(lines.join('\n'), budget, profile).text
    expect(out.length).toBeLessThanOrEqual(budget)
    expect(out).toContain('at com.acme.Store.call0(Store.java:10)')
    for (const m of message) expect(out).toContain(m)
  })
})

describe("a bare header taken in as another line's context still shows its unit (middle.ts headed)", () => {
  it("Gradle's `* What went wrong:` under `FAILURE: Build failed` shows its two lines, not a 4-line gap, beside the --stacktrace trace", () => {
    // devextra's dita-ot build (round 27): the header came as the line above's context, so its
    // unit was never added, and the excerpt showed 23 Gradle frames around a 168-char gap
    const lines: string[] = ['> Task :compileJava', '> Task :test']
    for (let i = 0; i < 300; i++) lines.push(`org.acme.Suite${i}Test > testCase${i} PASSED`)
    for (const t of ['testRead', 'testAnyAttribute', 'testAnyAttributeDisabled']) {
      lines.push('', `org.dita.dost.reader.TestDitaValReader > ${t} FAILED`, '    java.lang.NullPointerException', '        at org.dita.dost.reader.DitaValReader.read(DitaValReader.java:133)', `        at org.dita.dost.reader.TestDitaValReader.${t}(TestDitaValReader.java:49)`)
    }
    lines.push('', '597 tests completed, 3 failed, 9 skipped', '', '> Task :test FAILED', '', 'FAILURE: Build failed with an exception.', '', '* What went wrong:', "Execution failed for task ':test'.", '> There were failing tests. See the report at: file:///home/travis/build/dita-ot/dita-ot/build/reports/tests/test/index.html', '', '* Try:', 'Run with --debug option to get more log output. Run with --scan to get full insights.', '', '* Exception is:', "org.gradle.api.tasks.TaskExecutionException: Execution failed for task ':test'.")
    for (let k = 0; k < 120; k++) lines.push(`\tat org.gradle.api.internal.tasks.execution.Step${k}Executer.execute(Step${k}Executer.java:${100 + k})`)
    lines.push('Caused by: org.gradle.api.GradleException: There were failing tests. See the report at: file:///home/travis/build/dita-ot/dita-ot/build/reports/tests/test/index.html')
    for (let k = 0; k < 40; k++) lines.push(`\tat org.gradle.api.tasks.testing.AbstractTestTask.step${k}(AbstractTestTask.java:${600 + k})`)
    lines.push('', '* Get more help at https://help.gradle.org', '', 'BUILD FAILED in 1m 7s')
    const at = lines.indexOf('* What went wrong:') + 1
    for (const budget of [4000, 8000]) {
      const shown = shownLines(fitText(lines.join('\n'), budget, profile).text)
      expect(shown.has(at)).toBe(true)
      expect(shown.has(at + 1) && shown.has(at + 2)).toBe(true)
    }
  })
})
