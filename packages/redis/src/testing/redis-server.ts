import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createConnection, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Options of {@link startRedisServer}. */
export interface RedisServerOptions {
  /** The `redis-server` binary. @default process.env.REDIS_SERVER_BIN ?? 'redis-server' */
  bin?: string
  /** Port on 127.0.0.1. @default a free port picked by the OS */
  port?: number
  /** Extra arguments, e.g. `['--maxmemory', '64mb']`. */
  args?: string[]
  /** How long to wait for the first `PONG`, in ms. @default 10000 */
  readyTimeoutMs?: number
}

/** A running `redis-server` on a loopback port, in a temp folder, without persistence. */
export interface RedisServer {
  readonly port: number
  /** `redis://127.0.0.1:<port>` */
  readonly url: string
  /** The server's working folder (removed by {@link RedisServer.stop}). */
  readonly dir: string
  /** The server process id (changes on restart). */
  readonly pid: number
  /** Stops the server (SIGTERM, SIGKILL after 3 s) and removes its folder. Safe to call twice. */
  stop(): Promise<void>
  /** Kills the server with SIGKILL and starts a fresh, empty one on the same port. */
  restart(): Promise<void>
  /** Kills the server (SIGKILL) without starting it again; {@link RedisServer.start} brings it back. */
  kill(): Promise<void>
  /** Starts the server again on the same port after {@link RedisServer.kill}. */
  start(): Promise<void>
}

/** Default time to wait for a started `redis-server` to answer `PING`, in ms. */
export const DEFAULT_REDIS_READY_TIMEOUT_MS = 10_000

const live = new Set<ChildProcess>()
let exitHook = false

/**
 * Starts a real `redis-server` for tests and benchmarks: `--port X --save '' --appendonly no` in a
 * temp folder, bound to 127.0.0.1, and waits until it answers `PING`. Throws, with the server's
 * own output, when it cannot be started: a suite that needs Redis must fail, never skip.
 * Stop it in `afterAll`; servers still running when the process exits are killed.
 *
 * @example
 * ```ts
 * let server: RedisServer
 * beforeAll(async () => { server = await startRedisServer() })
 * afterAll(() => server?.stop())
 * ```
 */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const bin = options.bin ?? process.env['REDIS_SERVER_BIN'] ?? 'redis-server'
  const readyTimeoutMs = options.readyTimeoutMs ?? DEFAULT_REDIS_READY_TIMEOUT_MS
  const dir = mkdtempSync(join(tmpdir(), 'spillway-redis-'))
  let port = options.port ?? (await freePort())
  let child: ChildProcess | undefined
  let stopped = false
  if (!exitHook) {
    exitHook = true
    process.once('exit', () => {
      for (const c of live) c.kill('SIGKILL')
    })
  }

  const launch = async (): Promise<void> => {
    for (let attempt = 1; ; attempt++) {
      try {
        child = await spawnReady(bin, port, dir, options.args ?? [], readyTimeoutMs)
        return
      } catch (err) {
        // Another process took the free port between the probe and the bind: pick another one.
        if (attempt < 3 && options.port === undefined && String(err).includes('in use') && !stopped) {
          port = await freePort()
          continue
        }
        throw err
      }
    }
  }
  const kill = async (): Promise<void> => {
    const c = child
    child = undefined
    if (c !== undefined) await terminate(c, 'SIGKILL')
  }

  try {
    await launch()
  } catch (err) {
    rmSync(dir, { recursive: true, force: true })
    throw err
  }
  return {
    get port() {
      return port
    },
    get url() {
      return `redis://127.0.0.1:${port}`
    },
    dir,
    get pid() {
      return child?.pid ?? -1
    },
    async stop() {
      if (stopped) return
      stopped = true
      const c = child
      child = undefined
      if (c !== undefined) await terminate(c, 'SIGTERM')
      rmSync(dir, { recursive: true, force: true })
    },
    kill,
    async start() {
      if (child === undefined) await launch()
    },
    async restart() {
      await kill()
      await launch()
    },
  }
}

/** A port that was free on 127.0.0.1 a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address()
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0
      srv.close(() => resolve(port))
    })
  })
}

async function spawnReady(bin: string, port: number, dir: string, extra: string[], timeoutMs: number): Promise<ChildProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir, ...extra]
  const child = spawn(bin, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] })
  live.add(child)
  let output = ''
  const keep = (b: Buffer): void => {
    if (output.length < 8000) output += b.toString()
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  const exited = new Promise<string>((resolve) => {
    child.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ENOENT' ? `${bin} not found: install the Debian package redis-server (apt-get install redis-server) or set REDIS_SERVER_BIN` : e.message))
    child.once('exit', (code, signal) => resolve(`exited (code ${code}, signal ${signal})`))
  })
  child.once('exit', () => live.delete(child))
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const early = await Promise.race([exited, ping(port).then((ok) => (ok ? 'ready' : undefined))])
    if (early === 'ready') {
      // Output is only needed while starting; keep draining the pipes so the server never blocks.
      child.stdout?.off('data', keep).resume()
      child.stderr?.off('data', keep).resume()
      return child
    }
    if (early !== undefined) throw new Error(`redis-server could not be started on 127.0.0.1:${port}: ${early}\n${output.trim()}`)
    if (Date.now() > deadline) {
      await terminate(child, 'SIGKILL')
      throw new Error(`redis-server on 127.0.0.1:${port} did not answer PING within ${timeoutMs} ms\n${output.trim()}`)
    }
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** True when a Redis server on `port` answers `PING` with `PONG`. */
function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = createConnection({ port, host: '127.0.0.1' })
    let buf = ''
    const done = (ok: boolean): void => {
      sock.destroy()
      resolve(ok)
    }
    sock.setTimeout(1000, () => done(false))
    sock.once('error', () => done(false))
    sock.on('data', (d) => {
      buf += d.toString()
      if (buf.includes('\r\n')) done(buf.startsWith('+PONG'))
    })
    sock.once('connect', () => sock.write('PING\r\n'))
  })
}

function terminate(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const hard = setTimeout(() => child.kill('SIGKILL'), 3000)
    child.once('exit', () => {
      clearTimeout(hard)
      resolve()
    })
    child.kill(signal)
  })
}

/** A running Redis Cluster of {@link startRedisCluster}. */
export interface RedisClusterServers {
  /** One server per master, each on its own loopback port. */
  readonly servers: readonly RedisServer[]
  /** `[{ url }]` for node-redis `createCluster({ rootNodes })`. */
  readonly rootNodes: ReadonlyArray<{ url: string }>
  /** Stops every server. */
  stop(): Promise<void>
}

/**
 * Starts `masters` (>= 3) `redis-server`s in cluster mode on free loopback ports and joins them
 * into one cluster with `redis-cli --cluster create` (same Debian package); resolves once every
 * node reports `cluster_state:ok`. Throws, with the tool's output, when it cannot.
 */
export async function startRedisCluster(masters = 3, options: Pick<RedisServerOptions, 'bin' | 'readyTimeoutMs'> = {}): Promise<RedisClusterServers> {
  const servers: RedisServer[] = []
  const stop = async (): Promise<void> => {
    await Promise.all(servers.map((s) => s.stop()))
  }
  try {
    for (let i = 0; i < masters; i++) servers.push(await startRedisServer({ ...options, args: ['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--cluster-node-timeout', '5000'] }))
    const cli = (options.bin ?? process.env['REDIS_SERVER_BIN'] ?? 'redis-server').replace(/redis-server$/, 'redis-cli')
    const out = await run(cli, ['--cluster', 'create', ...servers.map((s) => `127.0.0.1:${s.port}`), '--cluster-replicas', '0', '--cluster-yes'])
    if (out.code !== 0) throw new Error(`redis-cli --cluster create failed (exit ${out.code}):\n${out.output.trim()}`)
    const deadline = Date.now() + (options.readyTimeoutMs ?? DEFAULT_REDIS_READY_TIMEOUT_MS)
    for (const s of servers) {
      for (;;) {
        const info = await run(cli, ['-p', String(s.port), 'cluster', 'info'])
        if (info.output.includes('cluster_state:ok')) break
        if (Date.now() > deadline) throw new Error(`the Redis cluster did not reach cluster_state:ok:\n${info.output.trim()}`)
        await new Promise((r) => setTimeout(r, 100))
      }
    }
    return { servers, rootNodes: servers.map((s) => ({ url: s.url })), stop }
  } catch (err) {
    await stop()
    throw err
  }
}

function run(bin: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout?.on('data', (d: Buffer) => (output += d.toString()))
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()))
    child.once('error', (e) => resolve({ code: -1, output: `${bin}: ${e.message}` }))
    child.once('close', (code) => resolve({ code, output }))
  })
}
