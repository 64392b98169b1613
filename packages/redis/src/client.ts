import { SpillwayError } from '@spillway/core'
import { createClient, RESP_TYPES, type RedisClientType, type RedisClusterType } from 'redis'

/** Any node-redis client (`createClient(...)`), whatever its modules, scripts or RESP version. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type RedisClient = RedisClientType<any, any, any, any, any>
/** Any node-redis cluster client (`createCluster(...)`). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type RedisCluster = RedisClusterType | RedisClusterType<any, any, any, any, any>

/** How the store reaches Redis: the caller's client, or one it creates lazily from a URL. */
export interface ClientSource {
  client?: RedisClient | RedisCluster | undefined
  url?: string | undefined
  /** How long a command waits for a (re)connecting client before failing, in ms. */
  readyTimeoutMs: number
  /** Time bound of one command of a client the store creates, in ms (node-redis `commandOptions.timeout`). */
  commandTimeoutMs: number
}

/**
 * The client in two views: strings (keys) and buffers (blob bytes). A cluster client answers the
 * same single-slot commands, so both are typed as a plain client; `scan` visits every master.
 */
export interface Connection {
  text: RedisClient
  bytes: RedisClient
  /** `SCAN MATCH` over the whole keyspace (every master of a cluster); keys may repeat. */
  scan(match: string, count: number): AsyncIterable<string[]>
}

const isCluster = (c: RedisClient | RedisCluster): c is RedisCluster => 'masters' in c && 'nodeClient' in c

async function* scanAll(c: RedisClient | RedisCluster, match: string, count: number): AsyncIterable<string[]> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const cl = c as RedisClusterType<any, any, any, any, any>
  const nodes: RedisClient[] = isCluster(c) ? await Promise.all(cl.masters.map((m) => cl.nodeClient(m))) : [c as RedisClient]
  for (const node of nodes) for await (const keys of node.scanIterator({ MATCH: match, COUNT: count })) yield keys as string[]
}

/** Lazily connects (or adopts the caller's client) and wraps every failure in a short `store` error. */
export interface ClientHandle {
  /** Runs `fn` on a ready connection; any Redis failure becomes a `SpillwayError` of code `store`. */
  run<T>(op: string, fn: (c: Connection) => Promise<T>): Promise<T>
  /** Closes the client if this store created it; a caller's client is left alone. */
  close(): Promise<void>
}

/**
 * Refuses, in words and without the password, a URL the client would reject only at the first
 * command (or with a bare `TypeError`): another scheme, or a database that is not a number.
 */
export function assertRedisUrl(url: string): void {
  let u: URL
  try {
    u = new URL(url)
  } catch {
    throw new SpillwayError('invalid_argument', 'redis store: the URL is not valid; use redis://[user:password@]host[:port][/db] (rediss:// for TLS)')
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') throw new SpillwayError('invalid_argument', `redis store: the URL must start with redis:// or rediss://, not ${u.protocol}//`)
  if (u.pathname !== '' && u.pathname !== '/' && !/^\/\d{1,5}$/.test(u.pathname)) {
    throw new SpillwayError('invalid_argument', `redis store: the database in the URL must be a number (redis://${u.host}/0), not "${u.pathname.slice(1, 40)}"`)
  }
}

/** Where the store points, for messages (never the password). */
function describe(url: string | undefined): string {
  if (url === undefined) return 'redis'
  try {
    const u = new URL(url)
    return `${u.protocol}//${u.host}${u.pathname === '/' ? '' : u.pathname}`
  } catch {
    return 'redis'
  }
}

/**
 * The client of one store. An own client is created on first use with the offline queue off, so
 * that while Redis is down commands fail at once (after waiting up to `readyTimeoutMs` for a
 * reconnect) instead of queueing without bound; it reconnects in the background.
 */
export function clientHandle(src: ClientSource): ClientHandle {
  if (src.client === undefined && src.url !== undefined) assertRedisUrl(src.url)
  const where = describe(src.url)
  let own: RedisClient | undefined
  let conn: Connection | undefined
  let lastError: unknown

  const connection = (): Connection => {
    if (conn !== undefined) return conn
    let client: RedisClient | RedisCluster | undefined = src.client
    if (client === undefined) {
      if (src.url === undefined) throw new SpillwayError('invalid_argument', 'redisStore needs a `client` or a `url`')
      own = client = createClient({ url: src.url, disableOfflineQueue: true, socket: { connectTimeout: src.readyTimeoutMs }, commandOptions: { timeout: src.commandTimeoutMs } }) as RedisClient
      client.on('error', (e: unknown) => {
        lastError = e // the client reconnects by itself; the error is reported by the next command
      })
      client.connect().catch((e: unknown) => {
        lastError = e
      })
    }
    const c = client
    conn = { text: c as RedisClient, bytes: c.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer }) as RedisClient, scan: (match, count) => scanAll(c, match, count) }
    return conn
  }

  // One 'ready' listener however many commands wait (a burst of puts while reconnecting).
  let readyEvent: Promise<void> | undefined
  const ready = async (c: RedisClient): Promise<void> => {
    if (c.isReady) return
    if (own === undefined && !c.isOpen) throw new SpillwayError('store', 'redis store: the client passed in is not connected (call `await client.connect()` first)')
    readyEvent ??= new Promise<void>((resolve) => c.once('ready', () => {
      readyEvent = undefined
      resolve()
    }))
    let timer: ReturnType<typeof setTimeout> | undefined
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new SpillwayError('store', `redis store unavailable: ${where} not reachable within ${src.readyTimeoutMs} ms${lastError ? ` (${message(lastError)})` : ''}; retry later`)), src.readyTimeoutMs)
    })
    try {
      await Promise.race([readyEvent, late])
    } finally {
      clearTimeout(timer)
    }
  }

  return {
    async run(op, fn) {
      const c = connection()
      await ready(c.text)
      try {
        return await fn(c)
      } catch (err) {
        if (SpillwayError.is(err)) throw err
        throw new SpillwayError('store', `redis store: ${op} failed on ${where}: ${message(err)}; retry later`, { cause: err })
      }
    },
    async close() {
      const c = own
      own = undefined
      conn = undefined
      if (c === undefined) return
      try {
        if (c.isReady) await c.close()
        else c.destroy() // still (re)connecting: nothing in flight worth waiting for
      } catch {
        // already closed
      }
    },
  }
}

function message(err: unknown): string {
  const m = err instanceof Error ? err.message : String(err)
  return m.length > 200 ? `${m.slice(0, 200)}...` : m
}
