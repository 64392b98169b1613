// Redis client comparison for @spillway/redis: node-redis (`redis`) and `ioredis` running the
// store's own command sequences (put = MULTI { SET, EVAL meta }, get = GET, getRange = GETRANGE)
// against one redis-server on loopback. Clients alternate on every repetition; medians and p95.
import { Redis } from 'ioredis'
import { createClient, RESP_TYPES } from 'redis'
import { median, quantile } from '../metrics/stats.js'
import type { Progress } from '../progress.js'

/** One (client, operation, size) row. */
export interface ClientRow {
  client: 'redis' | 'ioredis'
  op: 'put' | 'get' | 'getRange 64 KiB' | 'put 4 KiB' | 'get 4 KiB'
  /** Blob size in bytes. */
  bytes: number
  reps: number
  medianMs: number
  p95Ms: number
  /** medianMs / node-redis medianMs for the same (op, size). */
  vsNodeRedis: number
}

// The meta script of @spillway/redis's put (kept in step by hand: it is what a put costs).
const PUT_META = `redis.call('HSETNX', KEYS[1], 'c', ARGV[1])
local a = tonumber(redis.call('HGET', KEYS[1], 'a') or '0')
if a < tonumber(ARGV[1]) then redis.call('HSET', KEYS[1], 'a', ARGV[1]) end
redis.call('HSET', KEYS[1], 'n', ARGV[2], 'm', ARGV[3])
return 1`

type Ops = {
  put(key: string, data: Buffer): Promise<void>
  get(key: string): Promise<number>
  range(key: string, start: number, end: number): Promise<number>
  close(): Promise<void>
}

async function nodeRedis(url: string): Promise<Ops> {
  const c = createClient({ url })
  await c.connect()
  const b = c.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer })
  return {
    async put(key, data) {
      await b.multi().set(`${key}:d`, data).eval(PUT_META, { keys: [`${key}:m`], arguments: ['1', String(data.length), '{}'] }).exec()
    },
    get: async (key) => ((await b.get(`${key}:d`)) as Buffer).length,
    range: async (key, s, e) => ((await b.getRange(`${key}:d`, s, e - 1)) as Buffer).length,
    close: () => c.close(),
  }
}

async function ioRedis(port: number): Promise<Ops> {
  const c = new Redis({ port, host: '127.0.0.1', lazyConnect: true })
  await c.connect()
  return {
    async put(key, data) {
      await c.multi().set(`${key}:d`, data).eval(PUT_META, 1, `${key}:m`, '1', String(data.length), '{}').exec()
    },
    get: async (key) => (await c.getBuffer(`${key}:d`))!.length,
    range: async (key, s, e) => (await c.getrangeBuffer(`${key}:d`, s, e - 1)).length,
    close: async () => {
      await c.quit()
    },
  }
}

/** Runs the comparison on `sizes` (MiB) against the server at `port`. */
export async function runClientComparison(port: number, sizes: readonly number[], reps: (bytes: number) => number, progress: Progress): Promise<ClientRow[]> {
  const clients = { redis: await nodeRedis(`redis://127.0.0.1:${port}`), ioredis: await ioRedis(port) }
  const names = ['redis', 'ioredis'] as const
  const rows: ClientRow[] = []
  try {
    const cases: Array<{ op: ClientRow['op']; bytes: number; run: (o: Ops, key: string, data: Buffer) => Promise<unknown> }> = []
    for (const bytes of [4096, ...sizes.map((mb) => mb << 20)]) {
      if (bytes === 4096) {
        cases.push({ op: 'put 4 KiB', bytes, run: (o, key, data) => o.put(key, data) }, { op: 'get 4 KiB', bytes, run: (o, key) => o.get(key) })
        continue
      }
      cases.push(
        { op: 'put', bytes, run: (o, key, data) => o.put(key, data) },
        { op: 'get', bytes, run: (o, key) => o.get(key) },
        { op: 'getRange 64 KiB', bytes, run: (o, key) => o.range(key, bytes >> 1, (bytes >> 1) + 65536) },
      )
    }
    for (const c of cases) {
      const data = Buffer.alloc(c.bytes, 0x61)
      const key = `clients:${c.bytes}`
      await clients.redis.put(key, data) // what get / getRange read
      const times: Record<(typeof names)[number], number[]> = { redis: [], ioredis: [] }
      const n = reps(c.bytes)
      for (let i = 0; i < n + 1; i++) {
        const order = i % 2 === 0 ? names : ([...names].reverse() as unknown as typeof names)
        for (const name of order) {
          const t = performance.now()
          await c.run(clients[name], key, data)
          if (i > 0) times[name].push(performance.now() - t) // the first round warms both up
        }
      }
      const base = median(times.redis)
      for (const name of names) rows.push({ client: name, op: c.op, bytes: c.bytes, reps: n, medianMs: median(times[name]), p95Ms: quantile(times[name], 0.95), vsNodeRedis: median(times[name]) / base })
      progress(`store clients: ${c.op} ${c.bytes} B: redis ${base.toFixed(3)} ms, ioredis ${median(times.ioredis).toFixed(3)} ms`)
    }
  } finally {
    await clients.redis.close()
    await clients.ioredis.close()
  }
  return rows
}
