import { parseArgs, type ParseArgsConfig } from 'node:util'
import { trimResult, type FetchRequest, type TrimOptions } from '@spillway/core'
import { defaultStoreDir } from './dir.js'
import { HELP } from './help.js'
import { EXIT, UsageError, readAll, write, type CliIO } from './io.js'
import { openSpillway } from './spillway.js'
import { runSidecar } from './sidecar.js'

/** Version of the CLI (and of the sidecar protocol it speaks), as in package.json. */
export const VERSION = '0.1.0'

const STORE_OPTIONS = {
  dir: { type: 'string' },
  session: { type: 'string' },
  json: { type: 'boolean' },
} as const satisfies ParseArgsConfig['options']

function parse<O extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: O) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true })
  } catch (err) {
    throw new UsageError((err as Error).message)
  }
}

function int(value: string | undefined, name: string, min = 0): number | undefined {
  if (value === undefined) return undefined
  const n = Number(value)
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be an integer >= ${min}, got "${value}"`)
  return n
}

/**
 * Runs the `spillway` command line with `argv` (without `node` and the script) and returns the
 * exit code. Never throws: errors are written to `io.stderr`.
 */
export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const [command, ...rest] = argv
  try {
    switch (command) {
      case undefined:
        // No command is a usage error: the help goes to stderr so stdout stays clean for pipes.
        await write(io.stderr, HELP)
        return EXIT.usage
      case '-h':
      case '--help':
      case 'help':
        await write(io.stdout, HELP)
        return EXIT.ok
      case '-v':
      case '--version':
        await write(io.stdout, `${VERSION}\n`)
        return EXIT.ok
      case 'trim':
        return await trim(rest, io)
      case 'fetch':
        return await fetch(rest, io)
      case 'stats':
        return await stats(rest, io)
      case 'sweep':
        return await sweep(rest, io)
      case 'sidecar':
        return await sidecar(rest, io)
      default:
        throw new UsageError(`unknown command "${command}"`)
    }
  } catch (err) {
    if (err instanceof UsageError) {
      await write(io.stderr, `spillway: ${err.message}\nRun "spillway --help" for usage.\n`)
      return EXIT.usage
    }
    await write(io.stderr, `spillway: ${(err as Error)?.message ?? String(err)}\n`)
    return EXIT.failure
  }
}

async function trim(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(args, {
    tool: { type: 'string' },
    'max-chars': { type: 'string' },
    'context-window': { type: 'string' },
    json: { type: 'boolean' },
  })
  if (positionals.length > 0) throw new UsageError(`trim reads stdin and takes no arguments, got "${positionals[0]}"`)
  const options: TrimOptions = {}
  if (values.tool !== undefined) options.tool = values.tool
  const maxChars = int(values['max-chars'], 'max-chars', 1) // 0 would print nothing: refuse it, like the sidecar
  const contextWindow = int(values['context-window'], 'context-window', 1)
  if (maxChars !== undefined) options.maxChars = maxChars
  if (contextWindow !== undefined) options.contextWindow = contextWindow
  const out = trimResult(await readAll(io.stdin), options)
  await write(io.stdout, values.json ? `${JSON.stringify(out)}\n` : out.text)
  return EXIT.ok
}

const storeDir = (values: { dir?: string | undefined }, io: CliIO): string => values.dir ?? defaultStoreDir(io.env)
const sessionOf = (values: { session?: string | undefined }, io: CliIO): string => values.session ?? io.env['SPILLWAY_SESSION'] ?? 'cli'

async function fetch(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(args, {
    ...STORE_OPTIONS,
    mode: { type: 'string', default: 'stat' },
    start: { type: 'string' },
    count: { type: 'string' },
    offset: { type: 'string' },
    pattern: { type: 'string' },
    literal: { type: 'boolean' },
    'ignore-case': { type: 'boolean', short: 'i' },
    context: { type: 'string' },
    page: { type: 'string' },
  })
  const id = positionals[0]
  if (id === undefined || positionals.length > 1) throw new UsageError('fetch takes exactly one handle id')
  const mode = values.mode
  if (mode !== 'stat' && mode !== 'range' && mode !== 'grep' && mode !== 'full') throw new UsageError(`--mode must be stat, range, grep or full, got "${mode}"`)
  const request: FetchRequest = { id, mode }
  for (const key of ['start', 'count', 'offset', 'context', 'page'] as const) {
    const n = int(values[key], key, key === 'start' || key === 'page' ? 1 : 0)
    if (n !== undefined) request[key] = n
  }
  if (values.pattern !== undefined) request.pattern = values.pattern
  if (values.literal !== undefined) request.literal = values.literal
  if (values['ignore-case'] !== undefined) request.ignoreCase = values['ignore-case']
  const sw = await openSpillway({ dir: storeDir(values, io) })
  try {
    const res = await sw.fetch(request, { sessionId: sessionOf(values, io) })
    // --json is machine output (stdout, `ok` tells); otherwise a refusal is an error: stderr.
    if (values.json) await write(io.stdout, `${JSON.stringify(res)}\n`)
    else await write(res.ok ? io.stdout : io.stderr, `${res.text}\n`)
    return res.ok ? EXIT.ok : EXIT.failure
  } finally {
    await sw.dispose()
  }
}

async function stats(args: string[], io: CliIO): Promise<number> {
  const { values } = parse(args, STORE_OPTIONS)
  const sw = await openSpillway({ dir: storeDir(values, io) })
  try {
    const s = await sw.stats(values.session !== undefined ? { sessionId: values.session } : undefined)
    await write(io.stdout, `${JSON.stringify(s, null, values.json ? undefined : 2)}\n`)
    return EXIT.ok
  } finally {
    await sw.dispose()
  }
}

async function sweep(args: string[], io: CliIO): Promise<number> {
  const { values } = parse(args, STORE_OPTIONS)
  const sw = await openSpillway({ dir: storeDir(values, io) })
  try {
    const s = await sw.sweep()
    await write(io.stdout, `${JSON.stringify(s, null, values.json ? undefined : 2)}\n`)
    return EXIT.ok
  } finally {
    await sw.dispose()
  }
}

async function sidecar(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(args, { dir: { type: 'string' }, 'max-chars': { type: 'string' } })
  if (positionals.length > 0) throw new UsageError('sidecar takes no arguments')
  const maxChars = int(values['max-chars'], 'max-chars', 1)
  return runSidecar(io, { dir: storeDir(values, io), ...(maxChars !== undefined ? { maxChars } : {}), version: VERSION })
}
