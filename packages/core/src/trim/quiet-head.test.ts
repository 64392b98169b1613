// A quiet head gives its share to the middle (fit.ts, QUIET_HEAD_SHARE; issue 16, section 1,
// round 7): a CI log's set-up (checkout, toolchain, dependency download) before the failing step
// holds nothing salient, and in a crowded log its chars show another failing test instead.
import { describe, expect, it } from 'vitest'
import { fitText } from './fit.js'
import { noise } from './fixture.js'
import { DEFAULT_PROFILES } from './profiles.js'

const profile = DEFAULT_PROFILES.terminal!

/** A set-up step's lines: long, and nothing in them is salient. */
const setup = (n: number): string[] => noise(n).map((l) => `${l} (resolving dependency org.acme:module-${l.length}:1.0.0 from the remote repository)`)

describe('a quiet head gives its share to the middle (fit.ts)', () => {
  it('shows every failing test of a crowded log after a quiet set-up', () => {
    const tests = Array.from({ length: 16 }, (_, i) => `test_case_${String.fromCharCode(97 + i)}`)
    const block = (t: string, i: number): string[] => [
      `FAIL: ${t} (acme.tests.ParserTests)`,
      `AssertionError: expected token ${i} to close the block`,
      `  File "tests/test_parser.py", line ${100 + i}, in ${t}`,
      ...noise(12, 1000 + i * 20),
    ]
    const lines = [...setup(120), ...tests.flatMap(block), ...noise(60, 5000), `FAILED (failures=${tests.length})`]
    const out = fitText(lines.join('\n'), 4000, profile).text
    expect(out.length).toBeLessThanOrEqual(4000)
    // the log's first line, what ran, is still shown
    expect(out.startsWith(lines[0]!)).toBe(true)
    for (const t of tests) expect(out).toContain(`FAIL: ${t} (acme.tests.ParserTests)`)
  })

  it('keeps a single failure\'s context after a quiet set-up', () => {
    // as many detail lines as the profile shows after an error line
    const detail = Array.from({ length: profile.contextAfter }, (_, i) => `    expected field ${i} of the parsed record to be "name-${i}" but it was missing from the output`)
    const lines = ['$ make check', ...setup(120), 'ERROR: record parser rejected input.csv', ...detail, ...noise(200, 500), 'BUILD FAILED in 3s']
    const out = fitText(lines.join('\n'), 1500, profile).text
    expect(out.length).toBeLessThanOrEqual(1500)
    expect(out.startsWith('$ make check\n')).toBe(true)
    expect(out).toContain('ERROR: record parser rejected input.csv')
    for (const d of detail) expect(out).toContain(d)
  })

  it('leaves the head alone when it holds a salient line', () => {
    const lines = [...noise(3), 'warning: config file missing, using defaults', ...setup(240), 'ERROR: record parser rejected input.csv', ...noise(400, 500), 'BUILD FAILED in 3s']
    // 8k: a head share (5%) of 400 chars, past the warning into the set-up
    const withWarning = fitText(lines.join('\n'), 8000, profile).text
    // the head's share is kept: its lines past the warning are shown
    const head = (out: string): string => out.slice(0, out.indexOf('[... spillway'))
    expect(head(withWarning)).toContain(setup(2)[1]!)
    const quiet = fitText(lines.filter((l) => !l.startsWith('warning')).join('\n'), 8000, profile).text
    expect(head(quiet)).toContain(lines[0]!)
    expect(head(quiet)).not.toContain(setup(2)[1]!)
  })

  it('keeps the first line whole when a quarter of the head would cut it', () => {
    const first = `$ ./gradlew check --continue --stacktrace ${'-Pflag '.repeat(30)}`
    const lines = [first, ...setup(240), 'ERROR: record parser rejected input.csv', ...noise(400, 500), 'BUILD FAILED in 3s']
    // 8k: the head's share (400 chars) holds the first line, a quarter of it (100) would not
    expect(first.length).toBeGreaterThan(8000 * profile.head / 4)
    expect(first.length).toBeLessThan(8000 * profile.head)
    const out = fitText(lines.join('\n'), 8000, profile).text
    expect(out.startsWith(first + '\n[... spillway: omitted lines 2-')).toBe(true)
  })
})
