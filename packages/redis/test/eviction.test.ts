// Redis evicting keys on its own (maxmemory-policy allkeys-lru): every fetch answers with the exact
// result or says it is gone, never other bytes; cleanup removes halves of evicted blobs.
import { createSpillway } from '@spillway/core'
import { createClient } from 'redis'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { redisStore } from '../src/index.js'
import { startRedisServer, type RedisServer } from '../src/testing/index.js'

let server: RedisServer
beforeAll(async () => {
  server = await startRedisServer({ args: ['--maxmemory', '12mb', '--maxmemory-policy', 'allkeys-lru'] })
})
afterAll(async () => {
  await server?.stop()
})

/** About 600 KB of barely compressible text, different for each n. */
function noisy(n: number): string {
  let x = (n + 1) * 2654435761
  const lines: string[] = []
  for (let i = 0; i < 8000; i++) {
    let line = `${n}:${i} `
    for (let j = 0; j < 8; j++) {
      x ^= x << 13
      x ^= x >>> 17
      x ^= x << 5
      line += (x >>> 0).toString(36)
    }
    lines.push(line)
  }
  return lines.join('\n')
}

it('under allkeys-lru eviction every fetch is exact or "gone", and cleanup leaves no half blob', async () => {
  const store = redisStore({ url: server.url, prefix: 'evict' })
  const sw = createSpillway({ store, maxChars: 2000, fullMaxChars: 1 << 21 })
  const ids: string[] = []
  for (let n = 0; n < 40; n++) {
    const out = await sw.handle({ tool: 'terminal', result: noisy(n), sessionId: 's' })
    expect(out.handle).toBeDefined()
    ids.push(out.handle!.id)
  }
  let exact = 0
  let gone = 0
  for (const [n, id] of ids.entries()) {
    const reader = createSpillway({ store, maxChars: 2000, fullMaxChars: 1 << 21 }) // no cache: read from Redis
    const r = await reader.fetch({ id, mode: 'full' }, { sessionId: 's' })
    if (r.ok) {
      expect(r.text.slice(r.text.indexOf('\n') + 1)).toBe(noisy(n))
      exact++
    } else gone++
  }
  expect(gone).toBeGreaterThan(0) // Redis did evict (12 MB for ~40 x 600 KB)
  expect(exact).toBeGreaterThan(0)
  expect(exact + gone).toBe(40)
  await store.cleanup!()
  const c = createClient({ url: server.url })
  await c.connect()
  try {
    const keys = await c.keys('evict:[bm]:*')
    const ids = (prefix: string): string[] => keys.filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length)).sort()
    expect(ids('evict:b:')).toEqual(ids('evict:m:'))
  } finally {
    await c.close()
    await store.dispose?.()
  }
}, 60_000)
