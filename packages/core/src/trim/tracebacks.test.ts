// Round 17 (issue 16): pytest's long tracebacks (listing.ts, frames.ts, middle.ts) and go test
// -json's event stream (middle.ts), from the generated development logs of bench/devextra/gen.
import { describe, expect, it } from 'vitest'
import { appFrames } from './frames.js'
import { fitText } from './fit.js'
import { demoteSourceListings } from './listing.js'
import { DEFAULT_PROFILES } from './profiles.js'
import { scanLines } from './salient.js'
import { noise } from './fixture.js'

const profile = DEFAULT_PROFILES.terminal!

/** Scores by line text (the first line with that text). */
function scores(text: string): Map<string, number> {
  const lines = text.split('\n')
  const out = new Map<string, number>()
  for (const s of scanLines(text, true).salient) if (!out.has(lines[s.line - 1]!)) out.set(lines[s.line - 1]!, s.score)
  return out
}

/** A pytest ERRORS section: a fixture's connection refused, through the standard library's source. */
const SETUP_ERROR = [
  '==================================== ERRORS ====================================',
  '_____________________ ERROR at setup of test_send_invoice ______________________',
  '',
  '    @pytest.fixture',
  '    def smtp_server():',
  '        import socket',
  '>       s = socket.create_connection(("127.0.0.1", 2525), timeout=0.2)',
  '',
  'tests/conftest.py:21: ',
  '_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ ',
  '',
  'address = (\'127.0.0.1\', 2525), timeout = 0.2, source_address = None',
  '',
  '    def create_connection(address, timeout=_GLOBAL_DEFAULT_TIMEOUT,',
  '                          source_address=None, *, all_errors=False):',
  '        """Connect to *address* and return the socket object.',
  '    ',
  '        cannot be created, raises the last error if *all_errors* is False,',
  '        and an ExceptionGroup of all errors if *all_errors* is True.',
  '        """',
  '    ',
  '        exceptions = []',
  '        for res in getaddrinfo(host, port, 0, SOCK_STREAM):',
  '            try:',
  '                sock = socket(af, socktype, proto)',
  '>               sock.connect(sa)',
  'E               ConnectionRefusedError: [Errno 111] Connection refused',
  '',
  '/usr/lib/python3.11/socket.py:836: ConnectionRefusedError',
]

/** A pytest FAILURES section: a dict comparison whose explanation runs over nine `E` lines. */
const DICT_FAILURE = [
  '=================================== FAILURES ===================================',
  '_________________________________ test_to_dict _________________________________',
  '',
  '    def test_to_dict(invoice):',
  '>       assert invoice.to_dict() == {"number": "INV-2024-00001", "lines": 2, "currency": "EUR"}',
  "E       AssertionError: assert {'country': '...ines': 2, ...} == {'country': '... '53.23', ...}",
  'E         ',
  'E         Omitting 7 identical items, use -vv to show',
  'E         Right contains 1 more item:',
  "E         {'currency': 'EUR'}",
  'E         ',
  'E         Full diff:',
  'E           {...',
  "E         ...Full output truncated (9 lines hidden), use '-vv' to show",
  '',
  'tests/test_core.py:20: AssertionError',
]

describe("source a pytest traceback prints is code, not a failure (listing.ts)", () => {
  it("sinks a failure word in a frame's source listing (a docstring, `exceptions = []`) to 1; the marked line and the E lines keep their scores", () => {
    const s = scores(SETUP_ERROR.join('\n'))
    expect(s.get('        cannot be created, raises the last error if *all_errors* is False,')).toBe(1)
    expect(s.get('        and an ExceptionGroup of all errors if *all_errors* is True.')).toBe(1)
    expect(s.get('        exceptions = []')).toBe(1)
    expect(s.get('E               ConnectionRefusedError: [Errno 111] Connection refused')).toBe(4)
    expect(s.get('_____________________ ERROR at setup of test_send_invoice ______________________')).toBeGreaterThanOrEqual(3)
  })

  it('leaves indented lines alone when no `>` mark ends their run (a plain Python traceback, a message)', () => {
    const lines = [
      'Traceback (most recent call last):',
      '  File "app/sync.py", line 12, in run',
      '    raise ConnectionError("upstream failed")',
      'ConnectionError: upstream failed',
      'Retry summary:',
      '    error: upstream failed after 3 attempts',
      '    error: giving up on batch 7',
      '',
    ]
    const before = new Map(scanLines(lines.join('\n'), true).salient.map((s) => [s.line, s.score]))
    expect(before.get(6)).toBeGreaterThan(1)
    expect(before.get(3)).toBeGreaterThan(1)
    const copy = scanLines(lines.join('\n'), true).salient.map((s) => ({ ...s }))
    demoteSourceListings(lines.join('\n'), copy)
    expect(new Map(copy.map((s) => [s.line, s.score]))).toEqual(before)
  })

  it('stops walking a run of indented lines after a bounded number of lines', () => {
    const long = ['    raise ValueError("x")', ...Array.from({ length: 400 }, (_, i) => `    line ${i}`), '>   assert x', 'E   AssertionError']
    const s = scores(long.join('\n'))
    expect(s.get('    raise ValueError("x")')).toBeGreaterThan(1)
  })

  it('frees the budget for what failed: the fixture error, the location lines and the E explanation', () => {
    const text = [...noise(2000), ...SETUP_ERROR, ...DICT_FAILURE, ...noise(400, 2001), '=========================== short test summary info ============================', 'ERROR tests/test_core.py::test_send_invoice - ConnectionRefusedError: [Errno ...', 'FAILED tests/test_core.py::test_to_dict - AssertionError: assert {\'country\': ...', '============== 1 failed, 329 passed, 1 error in 0.49s ==============='].join('\n')
    const out = fitText(text, 2500, profile).text
    expect(out.length).toBeLessThanOrEqual(2500)
    for (const line of ['E               ConnectionRefusedError: [Errno 111] Connection refused', 'tests/conftest.py:21: ', "E         {'currency': 'EUR'}", 'E         Right contains 1 more item:']) expect(out).toContain(line)
  })
})

describe("the test's own location in a pytest traceback (frames.ts)", () => {
  it('adds the first location line in the project under a section header as a frame candidate, not a dependency\'s', () => {
    const text = SETUP_ERROR.join('\n')
    const scan = scanLines(text, true)
    const added = appFrames(text, scan.salient, 0, text.length).map((f) => text.split('\n')[f.line - 1])
    expect(added).toContain('tests/conftest.py:21: ')
    expect(added).not.toContain('/usr/lib/python3.11/socket.py:836: ConnectionRefusedError')
  })

  it('does not read past the next section rule', () => {
    const text = ['_________________________________ test_a _________________________________', '', '    def test_a():', '>       assert f() == 1', 'E       assert 2 == 1', '', '/usr/lib/python3.11/site-packages/x.py:3: AssertionError', '_________________________________ test_b _________________________________', '', 'tests/test_b.py:9: '].join('\n')
    const scan = scanLines(text, true)
    const first = scan.salient.find((s) => s.line === 1)!
    const added = appFrames(text, [first], 0, text.length)
    expect(added).toEqual([])
  })
})

/** `go test -json` events of one package. */
const ev = (test: string | undefined, output: string, action = 'output'): string =>
  JSON.stringify({ Time: '2026-11-27T22:40:24.39Z', Action: action, Package: 'example.com/ledger/store', ...(test === undefined ? {} : { Test: test }), ...(action === 'output' ? { Output: output } : {}) })

describe('go test -json (middle.ts)', () => {
  const passing = (i: number): string[] => [ev(`TestOk${i}`, '', 'run'), ev(`TestOk${i}`, `=== RUN   TestOk${i}\n`), ev(`TestOk${i}`, `    store_test.go:${i}: step ${i} done\n`), ev(`TestOk${i}`, `--- PASS: TestOk${i} (0.00s)\n`), ev(`TestOk${i}`, '', 'pass')]

  it("a failing test's message lines, events of their own, grow with it (the Output field is what is indented)", () => {
    const failing = (k: number): string[] => [
      ev(`TestShape${k}`, `=== RUN   TestShape${k}\n`),
      ev(`TestShape${k}`, `    store_test.go:${70 + k}: entry ${k} shape mismatch:\n`),
      ev(`TestShape${k}`, `        \tgot:  {ID:e-${k} Minor:42}\n`),
      ev(`TestShape${k}`, `        \twant: {ID:e-${k} Minor:42 Currency:EUR}\n`),
      ev(`TestShape${k}`, `        \tdiff: entry ${k} has no Currency field\n`),
      ev(`TestShape${k}`, `--- FAIL: TestShape${k} (0.00s)\n`),
      ev(`TestShape${k}`, '', 'fail'),
    ]
    const lines = [
      ...Array.from({ length: 60 }, (_, i) => passing(i)).flat(),
      ...Array.from({ length: 8 }, (_, k) => [...failing(k), ...passing(200 + k)]).flat(),
      ...Array.from({ length: 60 }, (_, i) => passing(100 + i)).flat(),
      ev(undefined, 'FAIL\texample.com/ledger/store\t0.024s\n'),
    ]
    const out = fitText(lines.join('\n'), 8000, profile).text
    expect(out.length).toBeLessThanOrEqual(8000)
    expect(out.match(/shape mismatch:/g)).toHaveLength(8)
    // (before: 5 of the 24 detail lines, each only as a context line)
    expect((out.match(/\\t(got|want|diff):/g) ?? []).length).toBeGreaterThanOrEqual(9)
  })

  it("a package's event (its FAIL line) takes no other test's events as context", () => {
    const pkg = (k: number): string[] => [
      ev(`TestRound${k}`, `--- FAIL: TestRound${k} (0.00s)\n`),
      ev(undefined, 'FAIL\n'),
      ev(undefined, `FAIL\texample.com/ledger/money${k}\t0.003s\n`),
      ev(`TestGetMissing${k}`, `=== RUN   TestGetMissing${k}\n`),
      ev(`TestGetMissing${k}`, '    store_test.go:18: Get(e-404): as expected\n'),
      ev(`TestGetMissing${k}`, `--- PASS: TestGetMissing${k} (0.00s)\n`),
      ev(`TestGetMissing${k}`, '', 'pass'),
      ...noise(300, 1000 * k),
    ]
    const out = fitText([...noise(2000), ...pkg(1), ...pkg(2), ...pkg(3), ...pkg(4), ...noise(2000, 20001)].join('\n'), 2500, profile).text
    expect(out.length).toBeLessThanOrEqual(2500)
    for (const k of [1, 2, 3, 4]) expect(out).toContain(`FAIL\\texample.com/ledger/money${k}`)
    expect(out).not.toContain('=== RUN   TestGetMissing')
  })
})

describe("a Jest failure's message is its header's unit (middle.ts grow)", () => {
  const block = (k: number): string[] => [
    `  ● pricing › rounds case ${k}`, '', '    expect(received).toBe(expected) // Object.is equality', '', `    Expected: ${400 + k}`, `    Received: ${300 + k}`, '',
    `      ${10 + k} |     const cart = build(${k})`, `    > ${11 + k} |     expect(cart.total()).toBe(${400 + k})`, '         |                          ^', `      ${12 + k} |   })`, '',
    `      at Object.toBe (test/pricing.test.js:${11 + k}:26)`, '']
  const text = [...noise(1500), 'FAIL test/pricing.test.js', ...Array.from({ length: 12 }, (_, k) => block(k)).flat(), ...noise(300, 1501), 'Tests:       12 failed, 300 passed, 312 total'].join('\n')

  it('shows Expected / Received under each of 12 crowded headers, up to the code frame (before: 1 of 12 at 4,000 chars)', () => {
    const out = fitText(text, 4000, profile).text
    expect(out.length).toBeLessThanOrEqual(4000)
    expect(out.match(/● pricing › rounds case/g)).toHaveLength(12)
    expect((out.match(/Received: 3\d\d/g) ?? []).length).toBeGreaterThanOrEqual(8)
  })

  it('does not take the code frame as the message', () => {
    const out = fitText(text, 4000, profile).text
    expect(out).not.toMatch(/^\d+: +> \d+ \|/m)
  })
})
