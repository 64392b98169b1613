import { existsSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { afterAll, describe, expect, it } from 'vitest'
import { EXIT, VERSION, defaultStoreDir, runCli } from '../src/index.js'
import { MAX_INPUT_BYTES } from '../src/input.js'
import { memoryIO, pipeIO } from './io.js'

const dir = mkdtempSync(join(tmpdir(), 'spillway-cli-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima', 'mike']

/** A log whose lines differ in words (so dedup cannot fold them) with one error in the middle. */
function bigLog(lines = 5000): string {
  const out: string[] = []
  for (let i = 1; i <= lines; i++) {
    const w = (k: number) => WORDS[(i * k) % WORDS.length]
    out.push(i === 2500 ? 'ERROR: disk quota exceeded while writing /var/lib/app.db' : `${w(1)} ${w(3)} ${w(7)} ${w(11)} step`)
  }
  return out.join('\n')
}

describe('spillway usage', () => {
  it('prints help on --help (exit 0) and on no command (to stderr, exit 2)', async () => {
    const a = memoryIO()
    expect(await runCli(['--help'], a.io)).toBe(EXIT.ok)
    expect(a.stdout.text()).toContain('Usage:')
    expect(a.stdout.text()).toContain('Exit codes')
    const b = memoryIO()
    expect(await runCli([], b.io)).toBe(EXIT.usage)
    expect(b.stdout.text()).toBe('')
    expect(b.stderr.text()).toContain('Usage:')
  })

  it('prints the version, the one in package.json', async () => {
    const { io, stdout } = memoryIO()
    expect(await runCli(['--version'], io)).toBe(EXIT.ok)
    expect(stdout.text().trim()).toBe(VERSION)
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
    expect(VERSION).toBe(pkg.version)
  })

  it.each([
    [['frobnicate'], 'unknown command "frobnicate"'],
    [['trim', '--max-chars', 'lots'], '--max-chars must be an integer'],
    [['trim', '--max-chars', '0'], '--max-chars must be an integer >= 1'],
    [['trim', '--bogus'], 'unknown option --bogus'],
    [['trim', 'a.txt', 'b.txt'], 'trim takes at most one FILE'],
    [['spill', 'a.txt', 'b.txt'], 'spill takes at most one FILE'],
    [['stats', 'extra'], 'stats takes no arguments'],
    [['mcp', '--profile', 'gh__get=fast', '--', 'node', 'server.js'], '--profile must be TOOL=PROFILE'],
    [['fetch'], 'fetch takes exactly one handle id'],
    [['fetch', 'abc', 'def'], 'fetch takes exactly one handle id'],
    [['fetch', '0123456789ab', '--mode', 'tail'], '--mode must be stat, range, grep or full'],
    [['fetch', '0123456789ab', '--start', '0'], '--start must be an integer >= 1'],
    [['sidecar', 'extra'], 'sidecar takes no arguments'],
  ])('%j is a usage error (exit 2, message on stderr)', async (argv, message) => {
    const { io, stdout, stderr } = memoryIO()
    expect(await runCli(argv, io)).toBe(EXIT.usage)
    expect(stdout.text()).toBe('')
    expect(stderr.text()).toContain(message)
    expect(stderr.text()).toMatch(/Run "spillway (\w+ )?--help" for usage/)
  })

  it.each(['trim', 'spill', 'fetch', 'stats', 'sweep', 'sidecar'])('%s --help prints that command\'s usage (exit 0, stdout)', async (cmd) => {
    const { io, stdout, stderr } = memoryIO()
    expect(await runCli([cmd, '--help'], io)).toBe(EXIT.ok)
    expect(stdout.text()).toMatch(new RegExp(`^Usage: spillway ${cmd}\\b`))
    expect(stderr.text()).toBe('')
  })

  it('suggests the option or command meant by a typo, in plain quotes', async () => {
    const a = memoryIO()
    expect(await runCli(['trim', '--max-char', '10'], a.io)).toBe(EXIT.usage)
    expect(a.stderr.text()).toContain('unknown option --max-char (did you mean --max-chars?)')
    expect(a.stderr.text()).toContain('Run "spillway trim --help" for usage.')
    expect(a.stderr.text()).not.toContain("'-- ")
    const b = memoryIO()
    expect(await runCli(['fecth', 'abc'], b.io)).toBe(EXIT.usage)
    expect(b.stderr.text()).toContain('unknown command "fecth" (did you mean "fetch"?)')
    const c = memoryIO()
    expect(await runCli(['trim', '--zzzzzz'], c.io)).toBe(EXIT.usage)
    expect(c.stderr.text()).not.toContain('did you mean')
  })
})

describe('spillway trim', () => {
  it('passes a small result through byte for byte', async () => {
    const { io, stdout } = memoryIO('hello\nworld\n')
    expect(await runCli(['trim'], io)).toBe(EXIT.ok)
    expect(stdout.text()).toBe('hello\nworld\n')
  })

  it('keeps a leading byte-order mark (U+FEFF is part of the result)', async () => {
    const { io, stdout } = memoryIO('\ufeffhello\nworld\n')
    expect(await runCli(['trim'], io)).toBe(EXIT.ok)
    expect(stdout.text()).toBe('\ufeffhello\nworld\n')
  })

  it('fits a large result into --max-chars and keeps the salient line', async () => {
    const { io, stdout } = memoryIO(bigLog())
    expect(await runCli(['trim', '--tool', 'terminal', '--max-chars', '3000'], io)).toBe(EXIT.ok)
    const text = stdout.text()
    expect(text.length).toBeLessThanOrEqual(3000)
    expect(text).toContain('disk quota exceeded')
  })

  it('reads a FILE argument, and - for stdin', async () => {
    const file = join(dir, 'big.log')
    writeFileSync(file, bigLog())
    const a = memoryIO()
    expect(await runCli(['trim', file, '--tool', 'terminal', '--max-chars', '3000'], a.io)).toBe(EXIT.ok)
    expect(a.stdout.text()).toContain('disk quota exceeded')
    const b = memoryIO('piped\n')
    expect(await runCli(['trim', '-'], b.io)).toBe(EXIT.ok)
    expect(b.stdout.text()).toBe('piped\n')
    const c = memoryIO()
    expect(await runCli(['trim', join(dir, 'missing.log')], c.io)).toBe(EXIT.failure)
    expect(c.stderr.text()).toContain('no such file')
  })

  it('refuses an input past the longest text the engine holds, in words, without reading it (file) or buffering past the bound (stdin)', async () => {
    const file = join(dir, 'huge.log')
    writeFileSync(file, '')
    truncateSync(file, 600 * 1024 * 1024) // sparse: no disk used
    const a = memoryIO()
    expect(await runCli(['trim', file], a.io)).toBe(EXIT.failure)
    expect(a.stderr.text()).toContain(`huge.log is ${600 * 1024 * 1024} bytes; spillway reads results up to ${MAX_INPUT_BYTES} bytes`)
    rmSync(file)
    // stdin: the same 64 MiB chunk ten times (no memory held but references); stops at the bound.
    const chunk = Buffer.alloc(64 * 1024 * 1024, 0x61)
    let served = 0
    const stdin = Readable.from((function* () {
      for (; served < 10; served++) yield chunk
    })())
    const b = memoryIO()
    expect(await runCli(['trim', '-'], { ...b.io, stdin })).toBe(EXIT.failure)
    expect(b.stderr.text()).toContain(`the input on stdin is more than ${MAX_INPUT_BYTES} bytes`)
    expect(served).toBeLessThan(10)
  })

  it('prints a placeholder with type and size for binary input, never the raw bytes', async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(2000, 0)])
    const file = join(dir, 'shot.png')
    writeFileSync(file, png)
    const a = memoryIO()
    expect(await runCli(['trim', file], a.io)).toBe(EXIT.ok)
    expect(a.stdout.text()).toBe('[binary output: image/png, 2,008 bytes (NUL byte at 8); not shown]\n')
    const latin1 = memoryIO()
    latin1.io.stdin = Readable.from([Buffer.from('caf\xe9 au lait', 'latin1')])
    expect(await runCli(['spill', '--dir', dir], latin1.io)).toBe(EXIT.ok)
    expect(latin1.stdout.text()).toContain('invalid UTF-8 at byte 3')
    expect(latin1.stdout.text()).not.toContain('\ufffd')
  })

  it('prints the whole outcome with --json', async () => {
    // (each line numbered: bigLog repeats a block of 13 lines, which dedup-cycles alone would fit)
    const { io, stdout } = memoryIO(bigLog().split('\n').map((l, i) => `${l} ${i + 1}`).join('\n'))
    expect(await runCli(['trim', '--max-chars', '2000', '--json'], io)).toBe(EXIT.ok)
    const out = JSON.parse(stdout.text())
    expect(out.changed).toBe(true)
    expect(out.text.length).toBeLessThanOrEqual(2000)
    expect(out.original.lines).toBe(5000)
    expect(out.omitted.length).toBeGreaterThan(0)
  })
})

describe('spillway fetch / stats / sweep on an fs store', () => {
  it('fetch of an unknown id fails with exit 1 and the answer on stderr (stdout with --json)', async () => {
    const { io, stdout, stderr } = memoryIO()
    expect(await runCli(['fetch', '0123456789ab', '--dir', dir], io)).toBe(EXIT.failure)
    expect(stdout.text()).toBe('')
    expect(stderr.text()).toContain('0123456789ab')
    const json = memoryIO()
    expect(await runCli(['fetch', '0123456789ab', '--dir', dir, '--json'], json.io)).toBe(EXIT.failure)
    expect(json.stderr.text()).toBe('')
    expect(JSON.parse(json.stdout.text())).toMatchObject({ ok: false })
  })

  it('fetch reads what a sidecar spilled, in the same session only', async () => {
    const side = pipeIO()
    const done = runCli(['sidecar', '--dir', dir], side.io)
    side.stdin.end(`${JSON.stringify({ id: 1, op: 'handle', sessionId: 'agent-7', tool: 'terminal', result: bigLog() })}\n`)
    expect(await done).toBe(EXIT.ok)
    const blobId: string = JSON.parse(side.stdout.text()).result.handle.id
    const mine = memoryIO('', { SPILLWAY_SESSION: 'agent-7' })
    expect(await runCli(['fetch', blobId, '--dir', dir, '--mode', 'grep', '--pattern', 'disk quota'], mine.io)).toBe(EXIT.ok)
    expect(mine.stdout.text()).toContain('2500')
    const upper = memoryIO('', { SPILLWAY_SESSION: 'agent-7' })
    expect(await runCli(['fetch', blobId, '--dir', dir, '--mode', 'grep', '--pattern', 'DISK QUOTA', '-i', '--literal'], upper.io)).toBe(EXIT.ok)
    expect(upper.stdout.text()).toContain('disk quota exceeded')
    const other = memoryIO()
    expect(await runCli(['fetch', blobId, '--dir', dir, '--mode', 'grep', '--pattern', 'disk quota', '--session', 'intruder', '--json'], other.io)).toBe(EXIT.failure)
    expect(JSON.parse(other.stdout.text()).ok).toBe(false)
    expect(other.stdout.text()).not.toContain('disk quota exceeded')
  })

  it('spill stores what does not fit and prints the handle; fetch reads it back, same session', async () => {
    const { io, stdout } = memoryIO(bigLog(), { SPILLWAY_SESSION: 'shell-1' })
    expect(await runCli(['spill', '--dir', dir, '--max-chars', '4000'], io)).toBe(EXIT.ok)
    const text = stdout.text()
    expect(text.length).toBeLessThanOrEqual(4001) // the budget, plus the final newline
    const blobId = /fetch_result \{"id":"([0-9a-f]{12,64})"/.exec(text)?.[1]
    expect(blobId).toBeDefined()
    const back = memoryIO('', { SPILLWAY_SESSION: 'shell-1' })
    expect(await runCli(['fetch', blobId!, '--dir', dir, '--mode', 'range', '--start', '2500', '--count', '1'], back.io)).toBe(EXIT.ok)
    expect(back.stdout.text()).toContain('ERROR: disk quota exceeded')
    const json = memoryIO(bigLog(), { SPILLWAY_SESSION: 'shell-1' })
    expect(await runCli(['spill', '--dir', dir, '--max-chars', '4000', '--json'], json.io)).toBe(EXIT.ok)
    expect(JSON.parse(json.stdout.text()).handle.id).toBe(blobId)
    const small = memoryIO('fits\n')
    expect(await runCli(['spill', '--dir', dir], small.io)).toBe(EXIT.ok)
    expect(small.stdout.text()).toBe('fits\n')
  })

  it('fetch --raw reads the output as the tool returned it (colour codes kept)', async () => {
    const coloured = Array.from({ length: 3000 }, (_, i) => (i === 1500 ? '\x1b[31mERROR\x1b[0m: disk quota exceeded' : `step ${i} ok`)).join('\n')
    const { io, stdout } = memoryIO(coloured, { SPILLWAY_SESSION: 'shell-raw' })
    expect(await runCli(['spill', '--dir', dir, '--max-chars', '4000'], io)).toBe(EXIT.ok)
    const blobId = /fetch_result \{"id":"([0-9a-f]{12,64})"/.exec(stdout.text())![1]!
    const clean = memoryIO('', { SPILLWAY_SESSION: 'shell-raw' })
    expect(await runCli(['fetch', blobId, '--dir', dir, '--mode', 'range', '--start', '1501', '--count', '1'], clean.io)).toBe(EXIT.ok)
    expect(clean.stdout.text()).toContain('\nERROR: disk quota exceeded')
    const raw = memoryIO('', { SPILLWAY_SESSION: 'shell-raw' })
    expect(await runCli(['fetch', blobId, '--dir', dir, '--mode', 'range', '--start', '1501', '--count', '1', '--raw'], raw.io)).toBe(EXIT.ok)
    expect(raw.stdout.text()).toContain('\n\x1b[31mERROR\x1b[0m: disk quota exceeded')
  })

  it('stats and sweep print a table, or JSON with --json', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'spillway-cli-empty-'))
    const a = memoryIO()
    expect(await runCli(['stats', '--dir', empty, '--json'], a.io)).toBe(EXIT.ok)
    expect(JSON.parse(a.stdout.text())).toMatchObject({ blobs: 0 })
    const t = memoryIO()
    expect(await runCli(['stats', '--dir', dir], t.io)).toBe(EXIT.ok)
    expect(t.stdout.text()).toMatch(/^store +fs:/)
    expect(t.stdout.text()).toMatch(/^blobs +[1-9]/m)
    rmSync(empty, { recursive: true, force: true })
    const b = memoryIO()
    expect(await runCli(['sweep', '--dir', dir, '--json'], b.io)).toBe(EXIT.ok)
    expect(JSON.parse(b.stdout.text())).toMatchObject({ expired: 0, evicted: 0 })
    const c = memoryIO()
    expect(await runCli(['sweep', '--dir', dir], c.io)).toBe(EXIT.ok)
    expect(c.stdout.text()).toMatch(/^expired +0$/m)
  })

  it('stats, sweep and fetch on a store folder that does not exist fail clearly (exit 1)', async () => {
    const nowhere = join(dir, 'no-such-store')
    for (const argv of [['stats'], ['sweep'], ['fetch', '0123456789ab']]) {
      const { io, stdout, stderr } = memoryIO()
      expect(await runCli([...argv, '--dir', nowhere], io)).toBe(EXIT.failure)
      expect(stdout.text()).toBe('')
      expect(stderr.text()).toContain(`no spillway store at ${nowhere}`)
    }
    expect(existsSync(nowhere)).toBe(false)
  })
})

describe('defaultStoreDir', () => {
  it('prefers $SPILLWAY_DIR, then the platform cache folder', () => {
    expect(defaultStoreDir({ SPILLWAY_DIR: '/x/y' }, 'linux')).toBe('/x/y')
    expect(defaultStoreDir({ XDG_CACHE_HOME: '/c' }, 'linux')).toBe(join('/c', 'spillway'))
    expect(defaultStoreDir({}, 'darwin')).toMatch(/Library[\\/]Caches[\\/]spillway$/)
    expect(defaultStoreDir({ LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' }, 'win32')).toContain('spillway')
  })
})
