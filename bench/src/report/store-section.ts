import type { StoreResult } from '../suites/store.js'
import { table } from './markdown.js'

const num = (v: number, d = 1): string => (Number.isFinite(v) ? v.toFixed(d) : '-')

/** The `## Store` section of report.md: put and cold reads per store, concurrent puts, Redis clients. */
export function storeSection(s: StoreResult): string[] {
  const out: string[] = ['## Store', '']
  out.push(`Per store, through \`createSpillway\` (the current blob format): \`put\` = \`handle()\` of the whole input into an empty store; reads are cold (a new spillway with an empty cache per call, as the next turn on another replica). Ratio = median / SHA-256 of the same UTF-8 bytes in the same run. Redis: ${s.redisServer}.`, '')
  out.push(table(['store', 'op', 'MiB', 'reps', 'median ms', 'p95 ms', 'MB/s', 'x SHA-256', 'failures'], s.rows.map((r) => [r.store, r.op, String(r.mb), String(r.reps), num(r.medianMs, 2), num(r.p95Ms, 2), num(r.mbPerS, 0), num(r.vsSha256, 1), String(r.failures)])), '')
  if (s.concurrent.length > 0) {
    out.push('Concurrent puts: each process spills its results concurrently into one store (one ~16 KiB result per put, its own session); every result is then read back from this process.', '')
    out.push(table(['store', 'processes', 'puts each', 's', 'puts/s', 'lost', 'torn'], s.concurrent.map((c) => [c.store, String(c.processes), String(c.putsPerProcess), num(c.seconds, 2), num(c.putsPerS, 0), String(c.lost), String(c.torn)])), '')
  }
  if (s.clients.length > 0) {
    out.push('Redis clients on the store\'s own commands (put = MULTI { SET, EVAL meta }, get = GET, getRange = GETRANGE), alternating, same server:', '')
    out.push(table(['op', 'bytes', 'client', 'median ms', 'p95 ms', 'x node-redis'], s.clients.map((c) => [c.op, String(c.bytes), c.client, num(c.medianMs, 3), num(c.p95Ms, 3), num(c.vsNodeRedis, 2)])), '')
  }
  for (const n of s.notes) out.push(`Note: ${n}.`, '')
  return out
}
