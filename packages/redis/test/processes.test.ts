// Multi-process behaviour of @spillway/redis against a real redis-server started here: concurrent
// spills from 4 processes, a writer killed mid-put, Redis restarted mid-run, session isolation.
import { createSpillway } from '@spillway/core'
import { createClient, type RedisClientType } from 'redis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { redisStore } from '../src/index.js'
import { startRedisServer, type RedisServer } from '../src/testing/index.js'
import { resultText, startWorker } from './fixtures.js'

let server: RedisServer
beforeAll(async () => {
  server = await startRedisServer()
})
afterAll(async () => {
  await server?.stop()
})

// The full text without the `[full result ...]` header line.
const full = async (sw: ReturnType<typeof createSpillway>, id: string, sessionId: string) => {
  const r = await sw.fetch({ id, mode: 'full' }, { sessionId })
  return { ok: r.ok, text: r.ok ? r.text.slice(r.text.indexOf('\n') + 1) : r.text }
}

async function withClient<T>(fn: (c: RedisClientType) => Promise<T>): Promise<T> {
  const c = createClient({ url: server.url })
  await c.connect()
  try {
    return await fn(c)
  } finally {
    await c.close()
  }
}

describe('@spillway/redis across processes', () => {
  it('4 processes x 100 concurrent spills: none lost, none torn, each session sees only its own', async () => {
    const prefix = 'multi'
    const workers = [0, 1, 2, 3].map((w) => startWorker('spill-worker.ts', { url: server.url, prefix, worker: w, count: 100, sessionId: `session-${w}` }))
    const ids: string[][] = []
    await Promise.all(
      workers.map(async (w, wi) => {
        const got: string[] = []
        for await (const line of w.lines) {
          if (line === 'done') continue
          const { i, id } = JSON.parse(line) as { i: number; id: string | null }
          expect(id, `worker ${wi} result ${i} was not spilled`).not.toBeNull()
          got[i] = id!
        }
        expect(await w.exit).toBe(0)
        ids[wi] = got
      }),
    )
    // A fifth process (this one), as the next turn on another replica.
    const readerStore = redisStore({ url: server.url, prefix })
    const reader = createSpillway({ store: readerStore, maxChars: 2000, fullMaxChars: 1 << 20 })
    let ok = 0
    for (let w = 0; w < 4; w++) {
      expect(ids[w]!.filter(Boolean)).toHaveLength(100)
      for (let i = 0; i < 100; i++) {
        const r = await full(reader, ids[w]![i]!, `session-${w}`)
        expect(r.ok).toBe(true)
        if (r.text === resultText(w, i)) ok++
      }
      // Another session cannot read them, not even by exact id.
      const other = await full(reader, ids[w]![0]!, `session-${(w + 1) % 4}`)
      expect(other.ok).toBe(false)
      expect(other.text).not.toContain(`worker ${w} result 0`)
    }
    expect(ok).toBe(400)
    expect((await reader.stats()).blobs).toBe(400)
    await reader.dispose()
    await readerStore.dispose?.()
  }, 120_000)

  it('a writer killed with kill -9 mid-put leaves nothing visible', async () => {
    const prefix = 'killed'
    const id = 'deadbeef0001'
    await withClient(async (admin) => {
      const netIn = async (): Promise<number> => Number(/total_net_input_bytes:(\d+)/.exec(await admin.info('stats'))![1])
      const before = await netIn()
      const w = startWorker('put-worker.ts', { url: server.url, prefix, id, mb: 256 })
      let sawDone = false
      for await (const line of w.lines) {
        if (line === 'done') sawDone = true
        if (line !== 'putting') continue
        // Wait until part of the put has reached the server, then kill the writer.
        for (let t = 0; t < 2000 && (await netIn()) - before < 8 << 20; t++) await new Promise((r) => setTimeout(r, 2))
        w.child.kill('SIGKILL')
      }
      await w.exit
      expect(sawDone).toBe(false)
      const sent = (await netIn()) - before
      expect(sent).toBeGreaterThan(8 << 20) // the put was in flight when it died ...
      expect(sent).toBeLessThan(256 << 20) // ... and had not been sent whole
    })
    const store = redisStore({ url: server.url, prefix })
    expect(await store.has(id)).toBe(false)
    expect(await store.get(id)).toBeUndefined()
    expect(await store.getRange!(id, 0, 10)).toBeUndefined()
    const listed = []
    for await (const b of store.list()) listed.push(b)
    expect(listed).toEqual([])
    expect(await withClient((c) => c.keys(`${prefix}:*`))).toEqual([])
    await store.dispose?.()
  }, 60_000)

  it('Redis restarted mid-run: clear errors while down, then recovery, nothing served wrong', async () => {
    const prefix = 'restart'
    const store = redisStore({ url: server.url, prefix, readyTimeoutMs: 300 })
    const sw = createSpillway({ store, maxChars: 2000, fullMaxChars: 1 << 20 })
    const a = await sw.handle({ tool: 'terminal', result: resultText(9, 1), sessionId: 's' })
    expect(a.handle).toBeDefined()
    expect((await full(sw, a.handle!.id, 's')).text).toBe(resultText(9, 1))

    await server.kill()
    const err = await store.get(a.handle!.id).then(() => undefined, (e: unknown) => e as { code?: string; message?: string })
    expect(err?.code).toBe('store')
    expect(err?.message).toMatch(/redis store/)
    // The agent loop sees answers, not exceptions: a spill degrades, a fetch says why.
    const down = await sw.handle({ tool: 'terminal', result: resultText(9, 2), sessionId: 's' })
    expect(down.content.length).toBeLessThanOrEqual(2000)
    const fetchDown = await sw.fetch({ id: a.handle!.id, mode: 'range', start: 1, count: 5 }, { sessionId: 's' })
    expect(fetchDown.ok).toBe(false)
    expect(fetchDown.text.length).toBeGreaterThan(0)

    await server.start() // a fresh, empty Redis (no persistence): the old blob is gone
    let recovered = false
    for (let t = 0; t < 50 && !recovered; t++) {
      recovered = await store.has('000000000000').then(() => true, () => false)
      if (!recovered) await new Promise((r) => setTimeout(r, 100))
    }
    expect(recovered).toBe(true)
    const gone = await full(sw, a.handle!.id, 's')
    expect(gone.ok).toBe(false)
    expect(gone.text).not.toContain('worker 9 result 1 line 0')
    const b = await sw.handle({ tool: 'terminal', result: resultText(9, 3), sessionId: 's' })
    expect(b.handle).toBeDefined()
    expect((await full(sw, b.handle!.id, 's')).text).toBe(resultText(9, 3))
    await sw.dispose()
    await store.dispose?.()
  }, 30_000)
})
