import type { SpillStats, SweepReport } from '@spillway/core'

const n = (x: number): string => x.toLocaleString('en-US')

/** Bytes as people read them: `0 B`, `12.3 KiB`, `4.0 MiB`. */
export function humanBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB']
  let v = bytes
  let u = 0
  while (v >= 1024 && u < units.length - 1) (v /= 1024), u++
  return u === 0 ? `${v} B` : `${v.toFixed(1)} ${units[u]}`
}

function table(rows: readonly (readonly [string, string])[]): string {
  const width = Math.max(...rows.map(([k]) => k.length))
  return rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n') + '\n'
}

/** `spillway stats` for people: one aligned line per figure. */
export function statsTable(s: SpillStats, sessionId?: string): string {
  const rows: [string, string][] = [
    ['store', s.store],
    ...(sessionId !== undefined ? [['session', sessionId] as [string, string]] : []),
    ['blobs', n(s.blobs)],
    ['stored', `${humanBytes(s.bytes)} (${n(s.bytes)} bytes, compressed)`],
  ]
  if (sessionId !== undefined) rows.push(['original chars', n(s.chars)])
  rows.push(['tombstones', n(s.tombstones)])
  if (s.sessions !== undefined) rows.push(['sessions', n(s.sessions)])
  return table(rows)
}

/** `spillway sweep` for people. */
export function sweepTable(r: SweepReport): string {
  return table([
    ['expired', n(r.expired)],
    ['evicted', n(r.evicted)],
    ['tombstones removed', n(r.tombstonesRemoved)],
    ['temp files removed', n(r.tempFilesRemoved)],
    ['stored after', `${humanBytes(r.bytes)} (${n(r.bytes)} bytes)`],
  ])
}
