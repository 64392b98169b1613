// Round 17 (issue 16): pytest's long tracebacks (listing.ts) and go test -json's event stream
// (middle.ts), from the generated development logs of bench/devextra/gen.
import { describe, expect, it } from 'vitest'
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
    const s = scores(lines.join('\n'))
    expect(s.get('    raise ConnectionError("upstream failed")')).toBeGreaterThan(1)
    expect(s.get('    error: upstream failed after 3 attempts')).toBeGreaterThan(1)
    expect(s.get('    error: giving up on batch 7')).toBeGreaterThan(1)
  })

  it('takes only `>` and three spaces for the mark: a Gradle task line under an indented run is none', () => {
    const lines = ['    error: compilation failed in :core', '    error: 3 errors', '> Task :core:compileJava FAILED', 'FAILURE: Build failed with an exception.', ...SETUP_ERROR]
    const s = scores(lines.join('\n'))
    expect(s.get('    error: compilation failed in :core')).toBeGreaterThan(1)
    expect(s.get('    error: 3 errors')).toBeGreaterThan(1)
  })

  it("frees the budget for what failed: the fixture's error and the failing assertion (before: the docstring took it)", () => {
    const text = [...noise(2000), ...SETUP_ERROR, ...DICT_FAILURE, ...noise(400, 2001), '=========================== short test summary info ============================', 'ERROR tests/test_core.py::test_send_invoice - ConnectionRefusedError: [Errno ...', 'FAILED tests/test_core.py::test_to_dict - AssertionError: assert {\'country\': ...', '============== 1 failed, 329 passed, 1 error in 0.49s ==============='].join('\n')
    const out = fitText(text, 2000, profile).text
    expect(out.length).toBeLessThanOrEqual(2000)
    for (const line of ['E               ConnectionRefusedError: [Errno 111] Connection refused', "E       AssertionError: assert {'country': '...ines': 2, ...} == {'country': '... '53.23', ...}"]) expect(out).toContain(line)
  })

  it('leaves an indented failure line alone when its run ends at anything but a `>` mark, even with a listing further down', () => {
    const lines = [
      '=== RUN   TestParse',
      '    parse_test.go:12: error: got 1, want 2',
      '    parse_test.go:13: error: got 3, want 4',
      '--- FAIL: TestParse (0.00s)',
      ...SETUP_ERROR,
    ]
    const s = scores(lines.join('\n'))
    expect(s.get('    parse_test.go:12: error: got 1, want 2')).toBeGreaterThan(1)
    expect(s.get('    parse_test.go:13: error: got 3, want 4')).toBeGreaterThan(1)
    expect(s.get('        exceptions = []')).toBe(1)
  })

  it('reads a listing whose blank source lines lost their four spaces (a tool that strips trailing blanks), also right above the mark', () => {
    const listing = ['    def test_retry():', '        """Raises the last error after three attempts."""', '        client = connect()', '    ', '>       assert client.retry() == 3', 'E       assert 2 == 3']
    const stripped = listing.map((l) => (l.trim() === '' ? '' : l))
    expect(scores(stripped.join('\n')).get('        """Raises the last error after three attempts."""')).toBe(1)
    const s = scores(SETUP_ERROR.map((l) => (l.trim() === '' ? '' : l)).join('\n'))
    expect(s.get('        cannot be created, raises the last error if *all_errors* is False,')).toBe(1)
    expect(s.get('        exceptions = []')).toBe(1)
  })

  it('reads a listing under a CI timestamp on every line, with CRLF line ends and stripped blank lines', () => {
    const stamp = (i: number): string => `2024-01-02T03:04:${String(i % 60).padStart(2, '0')}.1234567Z`
    const listing = ['    def test_retry():', '        """Raises the last error after three attempts."""', '        client = connect()', '    ', '>       assert client.retry() == 3', 'E       assert 2 == 3']
    const text = listing.map((l, i) => (l.trim() === '' ? stamp(i) : `${stamp(i)} ${l}`)).join('\r\n')
    const lines = text.split('\n')
    const doc = scanLines(text, true).salient.find((x) => lines[x.line - 1]!.includes('Raises the last error'))!
    expect(doc.score).toBe(1)
  })

  it('takes a run whose mark comes more than 200 lines below its first failure word for no listing, its later lines too', () => {
    const run = ['    raise ValueError("first")', ...Array.from({ length: 250 }, (_, i) => `    line ${i}`), '    raise ValueError("later")', ...Array.from({ length: 50 }, (_, i) => `    tail ${i}`), '>   assert x', 'E   AssertionError']
    const s = scores(run.join('\n'))
    expect(s.get('    raise ValueError("first")')).toBeGreaterThan(1)
    expect(s.get('    raise ValueError("later")')).toBeGreaterThan(1)
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

describe("a test runner's failed-test mark outranks a logger's ERROR lines (shapes.ts)", () => {
  it("keeps Jest's ✕ lines next to 16 ERROR lines an app's logger wrote straight to stdout (before: none at 4,000 chars)", () => {
    const logs = Array.from({ length: 16 }, (_, i) => [
      `[Nest] 4242  - 11/27/2026, 10:40:00 PM   ERROR [DomainEventPublisher] Failed to publish OrderPlaced e${i}: connect ECONNREFUSED 127.0.0.1:5432 (attempt 1)`,
      'Error: connect ECONNREFUSED 127.0.0.1:5432 (attempt 1)',
      '    at Object.append (/home/runner/work/cart/cart/test/publisher.test.js:11:21)',
      '    at OrderEvents.append [as publish] (/home/runner/work/cart/cart/src/events.js:13:22)',
      `[Nest] 4242  - 11/27/2026, 10:40:00 PM    WARN [DomainEventPublisher] retrying e${i} (1/3)`,
      `[Nest] 4242  - 11/27/2026, 10:40:00 PM     LOG [DomainEventPublisher] publishing OrderPlaced o${i + 1}`,
    ]).flat()
    const list = Array.from({ length: 24 }, (_, i) => (i % 3 === 0 ? `    ✓ publishes order ${i} after transient errors (1 ms)` : `    ✕ publishes order ${i} after transient errors (${i} ms)`))
    const blocks = Array.from({ length: 24 }, (_, i) => i).filter((i) => i % 3 !== 0).map((i) => [`  ● DomainEventPublisher › publishes order ${i} after transient errors`, '', '    expect(received).toHaveLength(expected)', '', '    Expected length: 1', '    Received length: 0', '', '    > 34 |       expect(store.log).toHaveLength(1)', '', '      at Object.toHaveLength (test/publisher.test.js:34:25)', '']).flat()
    const text = [...noise(1000), ...logs, 'FAIL test/publisher.test.js', '  DomainEventPublisher', ...list, '', ...blocks, ...noise(400, 1001), 'Tests:       16 failed, 300 passed, 316 total'].join('\n')
    expect(scores(text).get('    ✕ publishes order 1 after transient errors (1 ms)')).toBe(4)
    const out = fitText(text, 4000, profile).text
    expect(out.length).toBeLessThanOrEqual(4000)
    expect((out.match(/✕ publishes order/g) ?? []).length).toBeGreaterThanOrEqual(5)
  })
})
