// A writer for the kill -9 test: prints `putting` and then stores one large blob with a raw
// store.put (one MULTI on the wire); the test kills it while the bytes are in flight.
import { redisStore } from '../src/index.js'

const { url, prefix, id, mb } = JSON.parse(process.argv[2]!) as { url: string; prefix: string; id: string; mb: number }
const store = redisStore({ url, prefix })
const data = new Uint8Array(mb << 20)
for (let i = 0; i < 65536; i++) data[i] = (i * 31) & 255
for (let n = 65536; n < data.length; n *= 2) data.copyWithin(n, 0, Math.min(n, data.length - n))
await store.has(id) // connected before the put starts
process.stdout.write('putting\n')
await store.put(id, data, { sha256: 'f'.repeat(64), tool: 'terminal', kind: 'log', chars: data.length, lines: 1, createdAt: Date.now() })
process.stdout.write('done\n')
await store.dispose?.()
