// Test helpers: in-memory streams for runCli, and the CLI run from source as a child process.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { dirname, join, resolve } from 'node:path'
import { PassThrough, Readable, Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import type { CliIO } from '../src/io.js'

const HERE = dirname(fileURLToPath(import.meta.url))
export const BIN = resolve(HERE, '../src/bin.ts')
const TSX = resolve(HERE, '../../../node_modules/tsx/dist/loader.mjs')

/** A writable that keeps everything written to it. */
export function sink(): Writable & { text(): string } {
  const chunks: Buffer[] = []
  const w = new Writable({
    write(chunk: Buffer | string, _enc, cb) {
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)
      cb()
    },
  })
  return Object.assign(w, { text: () => Buffer.concat(chunks).toString('utf8') })
}

/** Runs `fn` with stdin holding `input` and collects stdout / stderr. */
export function memoryIO(input = '', env: Record<string, string | undefined> = {}) {
  const stdout = sink()
  const stderr = sink()
  const io: CliIO = { stdin: Readable.from([Buffer.from(input)]), stdout, stderr, env }
  return { io, stdout, stderr }
}

/** An open stdin the test writes to (for the in-process sidecar). */
export function pipeIO(env: Record<string, string | undefined> = {}) {
  const stdin = new PassThrough()
  const stdout = sink()
  const stderr = sink()
  const io: CliIO = { stdin, stdout, stderr, env }
  return { io, stdin, stdout, stderr }
}

/** `spillway <args>` from source (tsx + the @spillway/source condition), as a child process. */
export function spawnCli(args: string[], env: Record<string, string> = {}): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--conditions=@spillway/source', '--import', TSX, BIN, ...args], {
    cwd: join(HERE, '..'),
    stdio: 'pipe',
    env: { ...process.env, ...env },
  })
}

/** Reads JSON reply lines from a child's stdout, one per call. */
export function replies(child: ChildProcessWithoutNullStreams) {
  let buf = ''
  const queue: unknown[] = []
  const waiters: ((v: unknown) => void)[] = []
  child.stdout.on('data', (d: Buffer) => {
    buf += d.toString('utf8')
    let nl: number
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl)
      buf = buf.slice(nl + 1)
      const msg: unknown = JSON.parse(line)
      const w = waiters.shift()
      if (w) w(msg)
      else queue.push(msg)
    }
  })
  return {
    next(): Promise<any> {
      if (queue.length > 0) return Promise.resolve(queue.shift())
      return new Promise((resolve) => waiters.push(resolve))
    },
  }
}

/** Resolves with the exit code once the child has exited. */
export function exited(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode)
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)))
}
