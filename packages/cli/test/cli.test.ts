import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { EXIT, VERSION, defaultStoreDir, runCli } from '../src/index.js'
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
    [['trim', '--bogus'], "Unknown option '--bogus'"],
    [['trim', 'file.txt'], 'trim reads stdin'],
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
    expect(stderr.text()).toContain('spillway --help')
  })
})

describe('spillway trim', () => {
  it('passes a small result through byte for byte', async () => {
    const { io, stdout } = memoryIO('hello\nworld\n')
    expect(await runCli(['trim'], io)).toBe(EXIT.ok)
    expect(stdout.text()).toBe('hello\nworld\n')
  })

  it('fits a large result into --max-chars and keeps the salient line', async () => {
    const { io, stdout } = memoryIO(bigLog())
    expect(await runCli(['trim', '--tool', 'terminal', '--max-chars', '3000'], io)).toBe(EXIT.ok)
    const text = stdout.text()
    expect(text.length).toBeLessThanOrEqual(3000)
    expect(text).toContain('disk quota exceeded')
  })

  it('prints the whole outcome with --json', async () => {
    const { io, stdout } = memoryIO(bigLog())
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

  it('stats and sweep print JSON', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'spillway-cli-empty-'))
    const a = memoryIO()
    expect(await runCli(['stats', '--dir', empty, '--json'], a.io)).toBe(EXIT.ok)
    expect(JSON.parse(a.stdout.text())).toMatchObject({ blobs: 0 })
    rmSync(empty, { recursive: true, force: true })
    const b = memoryIO()
    expect(await runCli(['sweep', '--dir', dir], b.io)).toBe(EXIT.ok)
    expect(JSON.parse(b.stdout.text())).toMatchObject({ expired: 0, evicted: 0 })
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
