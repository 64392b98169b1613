// One process of the multi-process tests: spills `count` results concurrently into a Redis store
// and prints one JSON line per result ({ i, id }), then `done`.
import { createSpillway } from '@spillway/core'
import { redisStore } from '../src/index.js'
import { resultText } from './fixtures.js'

const { url, prefix, worker, count, sessionId } = JSON.parse(process.argv[2]!) as { url: string; prefix: string; worker: number; count: number; sessionId: string }
const store = redisStore({ url, prefix })
const sw = createSpillway({ store, maxChars: 2000 })
await Promise.all(
  Array.from({ length: count }, async (_, i) => {
    const out = await sw.handle({ tool: 'terminal', result: resultText(worker, i), sessionId, toolCallId: `c${i}` })
    process.stdout.write(`${JSON.stringify({ i, id: out.handle?.id ?? null })}\n`)
  }),
)
process.stdout.write('done\n')
await sw.dispose()
await store.dispose?.()
