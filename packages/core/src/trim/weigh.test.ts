import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { scanLines } from './salient.js'
import { focusTerms, lastOwnKey, lineTemplate, ownTemplate, ownTemplateKey, templateKey, weighSalient } from './weigh.js'

const weigh = (text: string, repeat = 1) => weighSalient(text, scanLines(text, true).salient, { weights: { repeat } })

describe('lineTemplate', () => {
  it('masks numbers, hex, quoted strings and paths', () => {
    expect(lineTemplate('ERROR 42 at 0xdeadbeef in "foo bar" /src/a/b.ts:12')).toBe(lineTemplate('ERROR 7 at 0x12345678 in "baz" /lib/c.ts:99'))
    expect(lineTemplate('warning: unused variable x')).not.toBe(lineTemplate('error: cannot find symbol x'))
  })
  it('masks a generated id (12+ id chars with digits and letters) as one token, not short tokens or words', () => {
    const failed = (id: string) => `Error: browserController.newPage() failed: ${id}`
    expect(lineTemplate(failed('1x61V655x9SaxZEUDJW1g'))).toBe(lineTemplate(failed('TyL-NyB_hv0Ma7y7NyQk-')))
    expect(lineTemplate('pod api-7d9f8b6c4-x2kqz restarted')).toBe(lineTemplate('pod api-5c8d7f9b2-k8mzp restarted'))
    expect(lineTemplate(failed('1x61V655x9SaxZEUDJW1g'))).toBe('Error: browserController.newPage() failed: #')
    // shorter tokens keep their letters; a long run with no digit is a word
    expect(lineTemplate('FAILED test_v2_login')).not.toBe(lineTemplate('FAILED test_v3_logout'))
    expect(lineTemplate('FAILED test_login_with_token')).not.toBe(lineTemplate('FAILED test_logout_with_token'))
    // camelCase names change class less often than random chars: a name with digits stays a name
    expect(lineTemplate('FAILED shouldReturn404WhenUserNotFound')).not.toBe(lineTemplate('FAILED shouldReturn404WhenUserIsGone'))
  })
  it('never throws and is deterministic', () => {
    fc.assert(fc.property(fc.string({ maxLength: 300 }), (s) => {
      expect(lineTemplate(s)).toBe(lineTemplate(s))
    }))
  })
  it('keeps a token without a digit as it is and masks each kind of token that has one', () => {
    // (the walk copies a token with no digit whole: hex letters alone are a word, not a hash)
    expect(lineTemplate('deadbeef cafe 0xfe face0ff')).toBe('deadbeef cafe # #')
    expect(lineTemplate('g123456 worker-12 abc123def')).toBe('g# worker-0 #')
    expect(lineTemplate('at 0x1F in cafe12 build-7f3a9c2e1b')).toBe('at # in # #')
    expect(lineTemplate('Fe12 ab12cd ABCDEF ABCDE1')).toBe('Fe0 # ABCDEF #')
    expect(lineTemplate('"quoted 12" and \'x\' /src/a1.ts C:\\x1')).toBe('" and " / /')
  })
})

describe('weighSalient', () => {
  it('a repeated warning loses a point between its first and last copy; a one-off failure keeps its score', () => {
    const lines = ['[WARNING] deprecated API in Foo1.java']
    for (let i = 2; i <= 40; i++) lines.push(`[WARNING] deprecated API in Foo${i}.java`)
    lines.splice(20, 0, 'ERROR: could not resolve dependency com.acme:lib:1.2')
    const text = lines.join('\n')
    const before = new Map(scanLines(text, true).salient.map((s) => [s.line, s.score]))
    const after = new Map(weigh(text).map((s) => [s.line, s.score]))
    expect(after.get(21)).toBe(before.get(21)) // the one-off error
    expect(after.get(1)).toBe(before.get(1)) // first copy
    expect(after.get(41)).toBe(before.get(41)) // last copy
    expect(after.get(10)).toBe(Math.max(1, before.get(10)! - 1))
  })

  it('a repeated header followed by different lines is not a repeat (minitest "Error:" blocks)', () => {
    const text = ['Error:', 'FooTest#test_a:', 'ArgumentError: x', 'Error:', 'FooTest#test_b:', 'ArgumentError: y', 'Error:', 'FooTest#test_c:', 'ArgumentError: z'].join('\n')
    const before = new Map(scanLines(text, true).salient.map((s) => [s.line, s.score]))
    for (const s of weigh(text)) expect(s.score).toBe(before.get(s.line))
  })

  it.each([
    ['Surefire', 'Results :\n\nFailed tests: \n  FooTest.testBar:42 expected:<1> but was:<2>\n  FooTest.testBaz:50 null\n\nTests run: 3', [4, 5]],
    ['CTest', 'The following tests FAILED:\n\t  1 - parser_test (Failed)\n\t  4 - io_test (SEGFAULT)\nErrors while running CTest', [2, 3]],
    ['xcodebuild', 'Failing tests:\n\tAppTests.testLogin()\n\tAppTests.testLogout()\n\n** TEST FAILED **', [2, 3]],
    ['cargo', 'failures:\n    tests::parses_empty\n    tests::parses_unicode\n\ntest result: FAILED. 10 passed; 2 failed', [2, 3]],
    ['PHPUnit', 'There was 1 failure:\n\n1) Tests\\FooTest::testBar\nFailed asserting that false is true.', []],
    ['RSpec', 'Failed examples:\n\nrspec ./spec/foo_spec.rb:10 # Foo does x', []],
  ])('%s: the items under a failure-list header become candidates', (_name, text, items) => {
    const lines = new Set(weigh(text as string).map((s) => s.line))
    for (const n of items as number[]) expect(lines.has(n)).toBe(true)
  })

  it("a failure list whose entries have detail under them: every entry is a candidate, above the header's score", () => {
    // JUnit Platform's console summary (here under Ant's junitlauncher, round 27): 14 failing tests
    // named at the list's first level, each with its source, exception and frames
    const lines = ['Failures (14):']
    for (let t = 0; t < 14; t++) {
      lines.push(`  JUnit Jupiter:VaultFileServiceTest:put${t}()`, `    MethodSource [className = 'com.acme.VaultFileServiceTest', methodName = 'put${t}']`, '    => java.lang.RuntimeException: copevaultfilesv1')
      for (let k = 0; k < 10; k++) lines.push(`       com.acme.VaultFileService.step${k}(VaultFileService.java:${200 + k})`)
    }
    lines.push('', 'Test run finished after 14714 ms', '[        14 tests failed          ]')
    const text = lines.join('\n')
    // (a detail line of the first entry: an item the list rule adds with its header's score)
    const detail = weigh(text).find((s) => s.line === 3)!
    const entries = weigh(text).filter((s) => lines[s.line - 1]!.startsWith('  JUnit Jupiter:'))
    expect(entries).toHaveLength(14)
    for (const e of entries) expect(e.score).toBe(detail.score + 1)
    // a flat list's entries keep the header's score as the scan gave it (Surefire's `Failed tests:` above)
    const flat = 'Results :\n\nFailed tests: \n  FooTest.testBar:42 expected:<1> but was:<2>\n  FooTest.testBaz:50 null\n\nTests run: 3'
    const scanned = scanLines(flat, true).salient.find((s) => s.line === 3)!.score
    expect(weigh(flat).filter((s) => s.line === 4 || s.line === 5).map((s) => s.score)).toEqual([scanned, scanned])
  })

  it("lists read past their first 40 lines share a cap that never takes a later list's first 40", () => {
    // 40 long lists (30 entries of 20 lines each) use the 20,000 lines read past 40, then Surefire's
    // summary list still has its two entries (review, round 27: the cap counted every line read)
    const lines: string[] = []
    for (let m = 0; m < 40; m++) {
      lines.push(`Failures (30) in module m${m}:`)
      for (let t = 0; t < 30; t++) {
        lines.push(`  JUnit Jupiter:M${m}Test:t${t}()`, `    => java.lang.AssertionError: boom ${t}`)
        for (let k = 0; k < 18; k++) lines.push(`       com.acme.M${m}.step${k}(M.java:${k})`)
      }
      lines.push('')
    }
    lines.push('Tests in error: ', '  FinalTest.testA:12 NullPointer', '  FinalTest.testB:13 IllegalState', '', 'BUILD FAILURE')
    const picked = new Set(weigh(lines.join('\n')).map((s) => s.line))
    expect(picked.has(lines.length - 3)).toBe(true)
    expect(picked.has(lines.length - 2)).toBe(true)
  })

  it("a list under a CI timestamp: items are indented past the stamp, not from the line's start", () => {
    const ts = (i: number) => `2023-04-10T02:45:${String(10 + i).padStart(2, '0')}.6900044Z `
    // Surefire 2's plain summary in a GitHub Actions log: the entries hold no keyword of their own
    const lines = ['Results :', '', 'Tests in error: ', '  NowriteTest.prepareFilesAndService:56 » FileNotFound target\\sub\\a.txt', '  NowriteTest.setUp:31 » IllegalState', '', 'Tests run: 488, Failures: 0, Errors: 2']
    const picked = new Set(weigh(lines.map((l, i) => ts(i) + l).join('\n')).map((s) => s.line))
    expect(picked.has(4) && picked.has(5)).toBe(true)
    // the same text unstamped gives the same items
    const plain = new Set(weigh(lines.join('\n')).map((s) => s.line))
    expect(plain.has(4) && plain.has(5)).toBe(true)
  })

  it("a logger's `- ` after its stamp is its format, not a list's bullet (Python logging, log4j)", () => {
    const python = ['2024-03-01 12:00:00,001 - app.worker - ERROR - Job failed with the following errors:', '2024-03-01 12:00:00,002 - app.worker - INFO - heartbeat ok', '2024-03-01 12:00:00,003 - app.db - INFO - pool size 5'].join('\n')
    expect(weigh(python).map((s) => s.line)).toEqual([1])
    const log4j = ['2015-07-29 23:44:28,903 - ERROR [CommitProcessor:1:NIOServerCnxn@180] - Unexpected Exception: ', '2015-07-29 23:52:08,962 - INFO  [CommitProcessor:1:ZooKeeperServer@595] - Established session', '2015-07-29 23:52:09,163 - INFO  [NIOServerCxn.Factory:NIOServerCnxnFactory@197] - Accepted socket'].join('\n')
    expect(weigh(log4j).map((s) => s.line)).toEqual([1])
    // a bullet under a header that does not start with one is still an item
    const bullets = ['2024-01-02T03:04:05.1234567Z Error: the following checks failed:', '2024-01-02T03:04:06.1234567Z - lint', '2024-01-02T03:04:07.1234567Z - typecheck', '2024-01-02T03:04:08.1234567Z done'].join('\n')
    expect(weigh(bullets).map((s) => s.line)).toEqual([1, 2, 3])
  })

  it('a salient line of indented code ending with `:` is no list header: the code under it stays out', () => {
    const text = ['E   docker.errors.DockerException: Error while fetching server API version', '            except DockerException as error:', "                log('the daemon went away')", "                print('Repository already exists')", '', '1 failed'].join('\n')
    const lines = new Set(weigh(text).map((s) => s.line))
    expect(lines.has(2)).toBe(true) // salient by its keyword
    expect(lines.has(3) || lines.has(4)).toBe(false)
  })

  it('the same project frame under many failures is one kind of line; the test file at another line is another', () => {
    const ts = (i: number) => `2022-06-06T09:56:${String(10 + i).padStart(2, '0')}.5780460Z `
    const log = (frame: (i: number) => string) => {
      const lines: string[] = []
      for (let i = 0; i < 6; i++) {
        lines.push(`${ts(i)}  ${i + 1}) BuildSystem`, `${ts(i)}     Error: Failed to generate def for node.lib`)
        lines.push(`${ts(i)}      at ${frame(i)}`, `${ts(i)}      at process.processTicksAndRejections (node:internal/process/task_queues:95:5)`, `${ts(i)}`)
      }
      return lines.join('\n')
    }
    const same = log(() => 'CMake._generateNodeLibDef (lib/cMake.js:278:15)')
    const frames = weigh(same, 0).filter((s) => s.frame === true)
    expect(frames.length).toBe(6)
    // the six frames differ only in their timestamps: one template, which no other line has
    expect(frames[0]!.template).toBeTypeOf('number')
    expect(new Set(frames.map((f) => f.template)).size).toBe(1)
    expect(weigh(same, 0).filter((s) => s.frame !== true).map((s) => s.template)).not.toContain(frames[0]!.template)
    // the test file's frame at six lines: six kinds (a template would mask the line numbers)
    const distinct = weigh(log((i) => `Context.<anonymous> (tests/es6/buildSystem.js:${40 + i}:9)`), 0).filter((s) => s.frame === true)
    expect(distinct.length).toBe(6)
    expect(new Set(distinct.map((f) => f.template)).size).toBe(6)
  })
  it("a Python traceback's header is not a failure list: its frames are not added as items", () => {
    const tb = (k: number) => [
      `ERROR: test_list_${k} (vistrails.core.scripting.export.TestExport)`,
      '----------------------------------------------------------------------',
      'Traceback (most recent call last):',
      `  File "/home/travis/build/V/venv/lib/python2.7/site-packages/vistrails/core/scripting/export.py", line ${500 + k}, in test_list`,
      '    self.assertEqual(expected, actual)',
      '  File "/home/travis/build/V/venv/lib/python2.7/site-packages/vistrails/core/modules/module_registry.py", line 757, in get',
      '    raise MissingPackageVersion(identifier, package_version)',
      'MissingPackageVersion: Missing version 0.2.4 of package org.vistrails.vistrails.basic',
      '',
    ]
    const text = [0, 1, 2].flatMap(tb).join('\n')
    const lines = text.split('\n')
    const added = weigh(text, 0).filter((s) => lines[s.line - 1]!.startsWith('  File ') || lines[s.line - 1]!.startsWith('    '))
    // the header is salient (so the list rule looked at it) ...
    expect(weigh(text, 0).some((s) => lines[s.line - 1] === 'Traceback (most recent call last):' && s.score >= 2)).toBe(true)
    // ... yet no frame or code line became a list item (a trace's own project frame could: frames.ts; these are all site-packages)
    expect(added.filter((s) => s.frame !== true).map((s) => s.line)).toEqual([])
  })

  it('lines holding a term of the call gain a point', () => {
    const text = 'error: a.c:3 oops\nerror: parser.c:9 bad token'
    const plain = weighSalient(text, scanLines(text, true).salient)
    const focused = weighSalient(text, scanLines(text, true).salient, { focus: focusTerms({ command: 'make parser.c' }) })
    expect(focused[1]!.score).toBe(plain[1]!.score + 1)
    expect(focused[0]!.score).toBe(plain[0]!.score)
  })
})

describe('focusTerms', () => {
  it('takes words of the call, drops flags and short words, never throws', () => {
    expect(focusTerms({ pattern: 'TimeoutError', path: './src/net/client.ts', flags: ['-n', '-i'] })).toEqual(['TimeoutError', 'src/net/client.ts'])
    fc.assert(fc.property(fc.anything(), (a) => {
      expect(Array.isArray(focusTerms(a))).toBe(true)
    }))
  })
})

describe('templateKey', () => {
  // Two windows of a text, as weighSalient takes them: a line's first chars and the next line's.
  const piece = fc.constantFrom('ERROR', ' ', '  ', '\t', '\u00a0', '\u2003', '0', '42', '0x1f', 'deadbeef', 'abc123def', '"q"', "'s'", '"', '/a/b', 'C:\\x', 'x', 'é', '😀', ':', '\r')
  const line = fc.array(piece, { maxLength: 30 }).map((a) => a.join(''))
  const keyOf = (a: string, b: string): number => {
    const text = `${a}\n${b}`
    return templateKey(text, 0, Math.min(a.length, 120), a.length + 1, Math.min(text.length, a.length + 1 + 60))
  }
  const stringOf = (a: string, b: string): string => `${lineTemplate(a.slice(0, 120).trimStart())}\n${lineTemplate(b.slice(0, 60).trimStart())}`

  it('groups exactly as the template strings do (equal strings, equal keys; different strings, different keys)', () => {
    fc.assert(
      fc.property(line, line, line, line, (a, b, c, d) => {
        expect(keyOf(a, b) === keyOf(c, d)).toBe(stringOf(a, b) === stringOf(c, d))
        expect(keyOf(a, b)).toBe(keyOf(a, b))
      }),
      { numRuns: 3000 },
    )
  })

  it('ownTemplateKey groups exactly as ownTemplate does', () => {
    fc.assert(
      fc.property(line, line, (a, c) => {
        const text = `${a}\n${c}`
        const ka = ownTemplateKey(text, 0, a.length)
        const kc = ownTemplateKey(text, a.length + 1, text.length)
        expect(ka === kc).toBe(ownTemplate(text, 0, a.length) === ownTemplate(text, a.length + 1, text.length))
      }),
      { numRuns: 3000 },
    )
  })

  it('gives the line\'s ownTemplateKey from the same walk when its window starts with no blank, else -1', () => {
    fc.assert(
      fc.property(line, line, (a, b) => {
        keyOf(a, b)
        const own = lastOwnKey
        if (a === '' || /^\s/.test(a)) expect(own).toBe(-1)
        else expect(own).toBe(ownTemplateKey(`${a}\n${b}`, 0, a.length))
      }),
      { numRuns: 3000 },
    )
  })

  it('masks numbers, hashes, quotes and paths like lineTemplate', () => {
    expect(keyOf('ERROR 42 at 0xdeadbeef in "foo bar" /src/a/b.ts:12', 'next 1')).toBe(keyOf('  ERROR 7 at 0x12345678 in "baz" /lib/c.ts:99', 'next 2'))
    expect(keyOf('ERROR 42', 'a')).not.toBe(keyOf('WARN 42', 'a'))
    expect(keyOf('ERROR 42', 'a')).not.toBe(keyOf('ERROR 42', 'b'))
  })
})
