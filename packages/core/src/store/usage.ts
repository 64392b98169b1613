import { SpillwayError } from '../errors.js'
import type { UsageCounts, UsageRange, UsageRow } from './types.js'

/** A UTC day as stores key usage: `YYYY-MM-DD`. */
export const USAGE_DAY_PATTERN = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/
/** A usage counter name: lower-case, digits, `_ . -`; starts with a letter; at most 80 chars. */
export const USAGE_COUNTER_PATTERN = /^[a-z][a-z0-9_.-]{0,79}$/
/** Days a store keeps usage counters (Redis expiry; fs `cleanup` removes older day folders). */
export const USAGE_KEEP_DAYS = 400

/** The UTC day of `ms` (ms since the epoch), `YYYY-MM-DD`. */
export const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10)

/** Longest tool name a store accepts in a usage row. */
export const MAX_USAGE_TOOL_CHARS = 256

const bad = (message: string): SpillwayError => new SpillwayError('invalid_argument', message)

/** Throws `invalid_argument` unless every row has a valid day, tool, counter names and non-negative safe-integer counts. */
export function assertUsageRows(rows: readonly UsageRow[]): void {
  if (!Array.isArray(rows)) throw bad('usage rows must be an array')
  for (const r of rows) {
    if (typeof r?.day !== 'string' || !USAGE_DAY_PATTERN.test(r.day)) throw bad(`invalid usage day ${JSON.stringify(String(r?.day).slice(0, 20))}: expected YYYY-MM-DD`)
    if (typeof r.tool !== 'string' || r.tool === '' || r.tool.length > MAX_USAGE_TOOL_CHARS) throw bad(`invalid usage tool name: 1-${MAX_USAGE_TOOL_CHARS} chars`)
    if (typeof r.counts !== 'object' || r.counts === null) throw bad('usage counts must be an object')
    for (const [k, v] of Object.entries(r.counts as Record<string, unknown>)) {
      if (!USAGE_COUNTER_PATTERN.test(k)) throw bad(`invalid usage counter name ${JSON.stringify(k.slice(0, 40))}`)
      if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw bad(`usage counter ${k} must be a non-negative integer, got ${String(v)}`)
    }
  }
}

/** Throws `invalid_argument` unless both bounds are valid days (or unset). */
export function assertUsageRange(range: UsageRange | undefined): void {
  for (const d of [range?.from, range?.to]) if (d !== undefined && (typeof d !== 'string' || !USAGE_DAY_PATTERN.test(d))) throw bad(`invalid usage day ${JSON.stringify(String(d).slice(0, 20))}: expected YYYY-MM-DD`)
}

/** True when `day` is within `range` (bounds inclusive; `YYYY-MM-DD` compares as text). */
export const inUsageRange = (day: string, range: UsageRange | undefined): boolean => (range?.from === undefined || day >= range.from) && (range?.to === undefined || day <= range.to)

/** Adds `b` into `a` (in place) and returns `a`. */
export function addCounts(a: UsageCounts, b: Readonly<UsageCounts>): UsageCounts {
  for (const [k, v] of Object.entries(b)) if (v !== 0) a[k] = (a[k] ?? 0) + v
  return a
}

/** Nested totals: day -> tool -> counts. */
export type UsageTotals = Map<string, Map<string, UsageCounts>>

/** Adds `rows` into `totals` (in place). */
export function addRows(totals: UsageTotals, rows: Iterable<UsageRow>): UsageTotals {
  for (const r of rows) {
    let day = totals.get(r.day)
    if (day === undefined) totals.set(r.day, (day = new Map()))
    let c = day.get(r.tool)
    if (c === undefined) day.set(r.tool, (c = Object.create(null) as UsageCounts))
    addCounts(c, r.counts)
  }
  return totals
}

/** `totals` as rows, sorted by day then tool, optionally only the days in `range`. */
export function totalsToRows(totals: UsageTotals, range?: UsageRange): UsageRow[] {
  const out: UsageRow[] = []
  for (const day of [...totals.keys()].sort()) {
    if (!inUsageRange(day, range)) continue
    const tools = totals.get(day)!
    for (const tool of [...tools.keys()].sort()) out.push({ day, tool, counts: { ...tools.get(tool)! } })
  }
  return out
}

/** Sums rows (from several writers) into one row per (day, tool), sorted. */
export const sumUsageRows = (rows: Iterable<UsageRow>, range?: UsageRange): UsageRow[] => totalsToRows(addRows(new Map(), rows), range)

/**
 * The per-day file / value one writer keeps (`{ v: 1, day, tools: { tool: counts } }`), as JSON.
 * Stores without an atomic increment (fs, unstorage) keep one per (writer, day): each writer
 * rewrites only its own, whole, so concurrent writers never lose each other's counts.
 */
export function encodeUsageDay(day: string, tools: ReadonlyMap<string, UsageCounts>, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ v: 1, day, tools: Object.fromEntries([...tools].sort(([a], [b]) => (a < b ? -1 : 1))), ...extra })
}

/** The rows of one {@link encodeUsageDay} value, or `undefined` when it is not one (damaged values are skipped, never summed). */
export function decodeUsageDay(raw: unknown): UsageRow[] | undefined {
  let v: unknown = raw
  if (raw instanceof Uint8Array) raw = new TextDecoder().decode(raw)
  if (typeof raw === 'string') {
    try {
      v = JSON.parse(raw)
    } catch {
      return undefined
    }
  }
  const o = v as { v?: unknown; day?: unknown; tools?: unknown }
  if (typeof o !== 'object' || o === null || o.v !== 1 || typeof o.day !== 'string' || typeof o.tools !== 'object' || o.tools === null) return undefined
  const rows = Object.entries(o.tools as Record<string, UsageCounts>).map(([tool, counts]) => ({ day: o.day as string, tool, counts }))
  try {
    assertUsageRows(rows)
  } catch {
    return undefined
  }
  return rows
}

/**
 * One writer's running totals since it started, for stores that keep a value per (writer, day).
 * `stage` returns the day values to write with `rows` added, and `commit` makes them the new
 * totals once written: a failed write leaves the totals as they were, so a retry never counts
 * twice.
 */
export function usageWriter(): { stage(rows: readonly UsageRow[]): { days: Map<string, string>; commit(): void }; restart(day: string): void } {
  const totals: UsageTotals = new Map()
  return {
    /** Forgets the running totals of `day`: what was written of it is counted elsewhere now (a merge took the file). */
    restart(day) {
      totals.delete(day)
    },
    stage(rows) {
      assertUsageRows(rows)
      const next: UsageTotals = new Map()
      for (const day of new Set(rows.map((r) => r.day))) {
        const copy = new Map<string, UsageCounts>()
        for (const [tool, c] of totals.get(day) ?? []) copy.set(tool, { ...c })
        next.set(day, copy)
      }
      addRows(next, rows)
      const days = new Map([...next].map(([day, tools]) => [day, encodeUsageDay(day, tools)]))
      return { days, commit: () => next.forEach((tools, day) => totals.set(day, tools)) }
    },
  }
}

/** A random writer id (hex), unique per store instance. */
export function writerId(): string {
  const b = new Uint8Array(8)
  globalThis.crypto.getRandomValues(b)
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('')
}
