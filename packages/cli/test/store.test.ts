// One store for every entry point: the sidecar and the CLI in separate processes sharing a real
// redis-server (started here), by --store and by $SPILLWAY_STORE.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startRedisServer, type RedisServer } from '@spillway/redis/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { describeStore, openStore, runCli, storeSpec } from '../src/index.js'
import { BIN, exited, memoryIO, replies } from './io.js'

const HERE = dirname(fileURLToPath(import.meta.url))
const TSX = resolve(HERE, '../../../node_modules/tsx/dist/loader.mjs')

function spawnCliEnv(args: string[], env: Record<string, string>): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--conditions=@spillway/source', '--import', TSX, BIN, ...args], { cwd: join(HERE, '..'), stdio: 'pipe', env: { ...process.env, ...env } })
}

async function runChild(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnCliEnv(args, env)
  child.stdin.end()
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  return { code: await exited(child), stdout, stderr }
}

function bigResult(marker: string): string {
  return Array.from({ length: 4000 }, (_, i) => (i === 2500 ? `FAILED test_${marker}: expected 3, got 4` : `[${i}] step ${i % 17} ok`)).join('\n')
}

// The tests that start CLI processes (each through tsx) have 90 s: a cap, not a timing. With the
// machine loaded, one of them took over 30 s in CI (16 s for the whole file on a quiet one).
let server: RedisServer
beforeAll(async () => {
  server = await startRedisServer()
})
afterAll(async () => {
  await server?.stop()
})

async function spillThroughSidecar(args: string[], env: Record<string, string>, marker: string): Promise<string> {
  const child = spawnCliEnv(['sidecar', ...args], env)
  const r = replies(child)
  child.stdin.write(`${JSON.stringify({ id: 1, op: 'handle', sessionId: 'hermes-1', tool: 'terminal', result: bigResult(marker) })}\n`)
  const reply = await r.next()
  child.stdin.end()
  expect(await exited(child)).toBe(0)
  expect(reply.ok).toBe(true)
  return reply.result.handle.id as string
}

describe('--store redis:// shared by the sidecar and the CLI', () => {
  it('a spill through the sidecar (--store) is fetched by another process, in its session only', async () => {
    const url = `${server.url}/0?prefix=cli`
    const id = await spillThroughSidecar(['--store', url], {}, 'flag')
    const got = await runChild(['fetch', id, '--store', url, '--session', 'hermes-1', '--mode', 'grep', '--pattern', 'test_flag'])
    expect(got.stderr).toBe('')
    expect(got.code).toBe(0)
    expect(got.stdout).toContain('FAILED test_flag: expected 3, got 4')
    const other = await runChild(['fetch', id, '--store', url, '--session', 'someone-else', '--mode', 'stat'])
    expect(other.code).toBe(1)
    expect(other.stdout).not.toContain('test_flag')
  }, 90_000)

  it('a sidecar started as the Hermes plugin starts it (--dir, $SPILLWAY_STORE inherited) uses the shared store', async () => {
    const url = `${server.url}/1`
    const id = await spillThroughSidecar(['--dir', '/nonexistent/never-used', '--max-chars', '4000'], { SPILLWAY_STORE: url }, 'env')
    const got = await runChild(['fetch', id, '--session', 'hermes-1', '--mode', 'range', '--start', '2501', '--count', '1'], { SPILLWAY_STORE: url })
    expect(got.code).toBe(0)
    expect(got.stdout).toContain('FAILED test_env')
    const stats = await runChild(['stats', '--json', '--store', url])
    expect(JSON.parse(stats.stdout)).toMatchObject({ blobs: 1, store: 'redis' })
    // Usage lives in the shared store too: the sidecar's handle (another process) shows up here.
    expect(JSON.parse(stats.stdout).usage).toMatchObject({ persisted: true, totals: { results: 1, spilled: 1 } })
    const table = await runChild(['stats', '--days', '1', '--store', url])
    expect(table.stdout).toMatch(/^terminal +1 +0 +0 +1 /m)
  }, 90_000)
})

describe('store spec', () => {
  it('picks --store, else $SPILLWAY_STORE, else the folder (--dir, $SPILLWAY_DIR)', () => {
    expect(storeSpec({ store: '/a' }, { SPILLWAY_STORE: 'redis://h:1' })).toBe('/a')
    expect(storeSpec({ dir: '/a' }, { SPILLWAY_STORE: 'redis://h:1', SPILLWAY_DIR: '/d' })).toBe('redis://h:1')
    expect(storeSpec({ dir: '/a' }, { SPILLWAY_DIR: '/d' })).toBe('/a')
    expect(storeSpec({}, { SPILLWAY_DIR: '/d' })).toBe('/d')
  })

  it('refuses other URL schemes and hides passwords in messages', async () => {
    await expect(openStore('s3://bucket/x', {})).rejects.toThrow(/unsupported store s3:\/\/bucket\/x/)
    expect(describeStore('redis://user:secret@host:6379/0')).not.toContain('secret')
  })

  it('never prints a password, even from a URL that does not parse (review 2, finding 9)', async () => {
    // An unencoded "/" in the password: the URL does not parse, or parses with the rest of the
    // password in the host, port or path. Only the scheme may be shown then.
    for (const url of ['redis://:s3cr/et@127.0.0.1:6379/0', 'redis://u:12/s3cret@127.0.0.1:6379/0', 'rediss://:s3c#ret@h:1/0', 'redis://:s3cr?et@h/0']) {
      expect(describeStore(url)).toBe(url.startsWith('rediss') ? 'rediss://…' : 'redis://…')
      const err = await openStore(url, {}).then(() => undefined, (e: Error) => e)
      expect(err?.message).toMatch(/^invalid store URL rediss?:\/\/… .*percent-encoded/)
      expect(err?.message).not.toMatch(/s3c|et@/)
    }
    expect(describeStore('redis://:p@ss@h:1/0?prefix=x&password=s3cret')).toBe('redis://:***@h:1/0?prefix=x&password=***')
    // the sidecar (as the Hermes plugin starts it, $SPILLWAY_STORE inherited) says the same on stderr
    const child = await runChild(['sidecar', '--dir', '/nonexistent/never-used'], { SPILLWAY_STORE: 'redis://:s3cr/et@127.0.0.1:1/0' })
    expect(child.code).not.toBe(0)
    expect(child.stderr).toContain('invalid store URL redis://…')
    expect(child.stderr).not.toContain('s3cr')
  }, 90_000)

  it('refuses --store together with --dir (exit 2)', async () => {
    const { io, stderr } = memoryIO('')
    expect(await runCli(['stats', '--store', 'redis://127.0.0.1:1', '--dir', '/tmp'], io)).toBe(2)
    expect(stderr.text()).toContain('--store or --dir')
  })
})

describe('openStore', () => {
  it('opens a folder as an fs store, and takes both flags with $SPILLWAY_STORE between them', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const dir = mkdtempSync(join(tmpdir(), 'spillway-openstore-'))
    try {
      const fs = await openStore({ dir }, {})
      expect(fs.name).not.toBe('redis')
      await fs.dispose?.()
      const shared = await openStore({ dir }, { SPILLWAY_STORE: `${server.url}/2` })
      expect(shared.name).toBe('redis')
      expect(await shared.has('0123456789ab')).toBe(false) // really talks to the server
      await shared.dispose?.()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
