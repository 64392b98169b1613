// One process of the store suite's concurrent test: opens the store, prints `ready`, waits for
// `go` on stdin, spills `count` results concurrently, then prints their ids as one JSON array.
import { createInterface } from 'node:readline'
import { createSpillway } from '@spillway/core'
import { fsStore } from '@spillway/core/fs'
import { redisStore } from '@spillway/redis'
import { concurrentResult } from './store.js'

const { kind, spec, worker, count } = JSON.parse(process.argv[2]!) as { kind: 'fs' | 'redis'; spec: string; worker: number; count: number }
const store = kind === 'fs' ? fsStore({ dir: spec }) : redisStore({ url: spec, prefix: 'concurrent' })
const sw = createSpillway({ store, maxChars: 8000 })
const results = Array.from({ length: count }, (_, i) => concurrentResult(worker, i))
await store.has('000000000000') // connected before the clock starts
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]()
process.stdout.write('ready\n')
await lines.next()
const ids = await Promise.all(results.map(async (result, i) => (await sw.handle({ tool: 'terminal', result, sessionId: `worker-${worker}`, toolCallId: `c${i}` })).handle?.id ?? null))
process.stdout.write(`${JSON.stringify(ids)}\n`)
await lines.next() // stdin closed by the parent
await sw.dispose()
await store.dispose?.()
process.exit(0)
