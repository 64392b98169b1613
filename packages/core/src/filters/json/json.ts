import { JSON_UNCHECKED_CHARS, parseJsonOnce, scanJsonOnce, tooCostlyToParse } from '../../trim/json-memo.js'
import { scanJsonTop, stringEnd, type JsonTop } from '../../trim/json-scan.js'
import { LIMIT_LEVELS, cutString, renderCompact, type RenderLimits } from './render.js'
import { itemTypes, keyUnion, objectKeys, typeName } from './shape.js'

/** Options of {@link summarizeJson}. */
export interface JsonSummaryOptions {
  /**
   * Share of the budget the synopsis (types, keys, lengths) may take before its key lists are
   * cut, 0.1..0.9.
   * @default 0.45
   */
  synopsisShare: number
  /**
   * Of the items shown from a top-level array, the share taken from the head (the rest from the
   * tail), 0..1.
   * @default 0.67
   */
  headShare: number
}

/** Defaults of {@link JsonSummaryOptions}. */
export const DEFAULT_JSON_SUMMARY: Readonly<JsonSummaryOptions> = Object.freeze({ synopsisShare: 0.45, headShare: 0.67 })

/** Below this budget a synopsis cannot say anything useful: the fitter's plain cut is used. */
const MIN_BUDGET = 160

/** `parts` joined with `sep`, stopping (with a count of the rest) before `max` chars. */
function joinCapped(parts: readonly string[], sep: string, max: number): string {
  let out = ''
  for (let i = 0; i < parts.length; i++) {
    const piece = (i > 0 ? sep : '') + parts[i]
    const rest = `${sep}… +${parts.length - i} more`
    if (out.length + piece.length + (i < parts.length - 1 ? rest.length : 0) > max) return out + (i > 0 ? rest : `… ${parts.length} keys`)
    out += piece
  }
  return out
}

/** Arrays of objects one level down (the biggest three), with their item keys. */
function nestedArrays(obj: Record<string, unknown>, max: number): string[] {
  const arrays = Object.keys(obj)
    .filter((k) => Array.isArray(obj[k]) && (obj[k] as unknown[]).length > 0)
    .sort((a, b) => (obj[b] as unknown[]).length - (obj[a] as unknown[]).length || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, 3)
  return arrays.map((k) => {
    const items = obj[k] as unknown[]
    const { objects, keys } = keyUnion(items)
    const head = `${k}: array[${items.length}] of ${itemTypes(items)}`
    return objects > 0 ? `${head}; item keys: ${joinCapped(keys, ', ', Math.max(40, max - head.length - 13))}` : head
  })
}

/** The synopsis lines: type, size, keys with types, array lengths, item key union. */
function synopsis(value: object, chars: number, max: number): string {
  if (Array.isArray(value)) {
    const head = `JSON array[${value.length}] of ${itemTypes(value) || 'nothing'} (${chars} chars)`
    const { objects, keys } = keyUnion(value)
    if (objects === 0) return head
    return `${head}; item keys (in all ${objects} objects unless noted): ${joinCapped(keys, ', ', Math.max(60, max - head.length - 50))}`
  }
  const obj = value as Record<string, unknown>
  const names = Object.keys(obj)
  const kinds = new Set(names.map((k) => typeName(obj[k])))
  if (names.length > 20 && kinds.size === 1 && !kinds.has('array') && !kinds.has('object')) {
    // A map (emoji -> url, id -> name): the type once, then as many key names as fit.
    const head = `JSON object with ${names.length} keys, all ${[...kinds][0]} (${chars} chars): `
    return head + joinCapped(names, ', ', Math.max(60, max - head.length))
  }
  const keys = objectKeys(obj)
  const head = `JSON object with ${keys.length} keys (${chars} chars): `
  const line = head + joinCapped(keys, ', ', Math.max(60, Math.floor(max * 0.6) - head.length))
  const nested = nestedArrays(obj, Math.floor(max * 0.4 / 3))
  return [line, ...nested.map((n) => `  ${n}`)].join('\n')
}

/** Items of a top-level array, head and tail, as many as fit in `avail` chars. */
function renderItems(items: readonly unknown[], avail: number, headShare: number): string | undefined {
  return renderHeadTail(items.length, (i, limits) => `[${i}] ${renderCompact(items[i], limits, avail)}`, (a, b) => `[... ${b - a + 1} items omitted: [${a}]-[${b}] ...]`, avail, headShare)
}

/** Entries 0..n-1 (`line(i)` each), head and tail, as many as fit in `avail` chars, the richest rendering first. */
function renderHeadTail(n: number, entry: (i: number, limits: RenderLimits) => string, omitLine: (a: number, b: number) => string, avail: number, headShare: number): string | undefined {
  const reserve = omitLine(n, n).length + 1
  for (const limits of LIMIT_LEVELS) {
    const line = (i: number): string => entry(i, limits)
    const first = Math.min(n, 4)
    const probe = [0, n - 1, 1, n - 2].slice(0, first)
    const cost = [...new Set(probe)].reduce((sum, i) => sum + line(i).length + 1, 0)
    if (cost + reserve > avail && limits !== LIMIT_LEVELS[LIMIT_LEVELS.length - 1]) continue
    const head: string[] = []
    const tail: string[] = []
    let h = 0
    let t = n - 1
    let used = reserve
    while (h <= t) {
      const shown = head.length + tail.length
      const fromHead = shown === 0 || head.length / shown < headShare
      const i = fromHead ? h : t
      const l = line(i)
      if (used + l.length + 1 > avail) break
      used += l.length + 1
      if (fromHead) {
        head.push(l)
        h++
      } else {
        tail.unshift(l)
        t--
      }
    }
    if (head.length === 0 && tail.length === 0) continue
    return [...head, ...(h <= t ? [omitLine(h, t)] : []), ...tail].join('\n')
  }
  return undefined
}

/** Arrays at least this long inside a top-level object get the head/tail item treatment. */
const BIG_ARRAY = 8

/** Keys of a top-level object with their values, as rich as fits in `avail` chars. */
function renderObject(obj: Record<string, unknown>, avail: number, headShare: number): string | undefined {
  const keys = Object.keys(obj)
  // One big array (a tree, a page of results): the other keys first, then as many of its items as fit.
  let big: string | undefined
  for (const k of keys) {
    const v = obj[k]
    if (Array.isArray(v) && v.length >= BIG_ARRAY && (big === undefined || v.length > (obj[big] as unknown[]).length)) big = k
  }
  if (big !== undefined) {
    const rest: Record<string, unknown> = {}
    for (const k of keys) if (k !== big) rest[k] = obj[k]
    const items = obj[big] as unknown[]
    const others = keys.length > 1 ? renderObject(rest, Math.floor(avail / 2), headShare) : ''
    if (others !== undefined) {
      const label = `${cutString(big, 60)}: array[${items.length}], items:`
      const list = renderItems(items, avail - others.length - label.length - 2, headShare)
      if (list !== undefined) return [others, label, list].filter((x) => x !== '').join('\n')
    }
  }
  const line = (k: string, limits: RenderLimits): string => `${cutString(k, 60)}: ${renderCompact(obj[k], limits, avail)}`
  for (const limits of LIMIT_LEVELS) {
    const lines: string[] = []
    let used = 0
    for (const k of keys) {
      const l = line(k, limits)
      used += l.length + 1
      if (used > avail) break
      lines.push(l)
    }
    if (lines.length === keys.length) return lines.join('\n')
  }
  // Too many keys for even the leanest rendering: as many as fit, head first, then a count.
  const lean = LIMIT_LEVELS[LIMIT_LEVELS.length - 1]!
  const lines: string[] = []
  let used = 40
  for (const k of keys) {
    const l = line(k, lean)
    if (used + l.length + 1 > avail) break
    used += l.length + 1
    lines.push(l)
  }
  if (lines.length === 0) return undefined
  return [...lines, `[... ${keys.length - lines.length} more keys omitted ...]`].join('\n')
}

/**
 * A structural synopsis of a JSON document (top-level type, keys with types, array lengths, the
 * key union of array items) followed by as many head and tail items (or keys) as fit, long
 * strings cut with counts. Returns `undefined` when `text` is not a JSON object or array, or the
 * budget is too small to say anything.
 *
 * @example
 * ```ts
 * summarizeJson('[{"id":1,"tags":["a"]}, ...]', 4000)
 * // JSON array[30] of object (432270 chars); item keys (in all 30 objects unless noted): id: number, tags: array[0-5], ...
 * // [0] {"id":1,"tags":["a"]}
 * // [... 26 items omitted: [2]-[27] ...]
 * // [28] ...
 * ```
 */
export function summarizeJson(text: string, budget: number, options: Partial<JsonSummaryOptions> = {}): string | undefined {
  if (budget < MIN_BUDGET) return undefined
  const opts = { ...DEFAULT_JSON_SUMMARY, ...options }
  const share = Math.min(0.9, Math.max(0.1, opts.synopsisShare))
  if (tooCostlyToParse(text)) {
    const top = scanJsonOnce(text)
    return top === undefined ? undefined : summarizeSampled(text, top, budget, opts.headShare)
  }
  const { ok, value } = parseJsonOnce(text)
  if (!ok || value === null || typeof value !== 'object') return undefined
  return summarizeValue(value, text.length, budget, share, opts.headShare)
}

/** What stands for a value too costly to parse: its kind and size, from one linear scan. */
function unparsedNote(value: string): string {
  const inner = scanJsonTop(value)
  const what = inner === undefined ? 'a JSON value' : `a JSON ${inner.kind} of ${inner.starts.length} ${inner.kind === 'array' ? 'items' : 'keys'}`
  return `[not parsed: ${what}, ${value.length} chars]`
}

/** Entries parsed from each end of a document too big to parse whole, for its synopsis. */
const SAMPLE_EACH_END = 50

/**
 * Chars the sampled entries of one document may parse in all: as much as one document parsed
 * without a cost check (`JSON_UNCHECKED_CHARS`), so 100 entries of 256 K chars each cost what one
 * does. Entries past it are shown as notes; entries up to {@link SMALL_ENTRY_CHARS} always parse.
 */
const SAMPLE_PARSE_CHARS = JSON_UNCHECKED_CHARS
const SMALL_ENTRY_CHARS = 4096

/** The last sampled document: the entries it may parse, and those parsed. */
let sampled: { text: string | undefined; memo: Map<number, unknown>; parsed: ReadonlySet<number> } = { text: undefined, memo: new Map(), parsed: new Set() }

/**
 * A JSON document too big to parse whole within the trim's cost bound (see
 * `JSON_PARSE_MAX_TOKENS`): the synopsis and the head/tail entries come from the entries
 * `scanJsonTop` found, each parsed alone, so the cost is one linear scan plus what is shown.
 * `undefined` (the text fitter takes over) when a parsed entry is not valid JSON.
 */
function summarizeSampled(text: string, top: JsonTop, budget: number, headShare: number): string | undefined {
  const n = top.starts.length
  const picks = [...new Set([...Array.from({ length: Math.min(n, SAMPLE_EACH_END) }, (_, i) => i), ...Array.from({ length: Math.min(n, SAMPLE_EACH_END) }, (_, i) => n - 1 - i)])].sort((a, b) => a - b)
  // Which entries parse is decided from the text alone (first picks first), and each entry's
  // value is kept for the same text: the spill layer trims a result again while it fits the
  // handle block, and the answer must not depend on what an earlier trim read.
  if (sampled.text !== text) {
    const parsed = new Set<number>()
    let spent = 0
    for (const i of picks) {
      const len = top.ends[i]! - top.starts[i]!
      if (len <= SMALL_ENTRY_CHARS) parsed.add(i)
      else if (spent + len <= SAMPLE_PARSE_CHARS) {
        parsed.add(i)
        spent += len
      }
    }
    sampled = { text, memo: new Map(), parsed }
  }
  const { memo, parsed } = sampled
  // An object's entry `"key": value` parses as the one-key object {key: value}.
  // An entry past what the sample may parse in all ({@link SAMPLE_PARSE_CHARS}; the one entry of
  // `{"data": [...1M items]}` too) is shown as a note from one scan, so the document is never
  // parsed whole through its entries. Small entries (also those past the sampled ends that the
  // head and tail may show) always parse.
  const parse = (i: number, value: string): boolean => value.length <= SMALL_ENTRY_CHARS || parsed.has(i)
  const at = (i: number): unknown => {
    if (!memo.has(i)) {
      const slice = text.slice(top.starts[i], top.ends[i])
      if (top.kind === 'array') memo.set(i, parse(i, slice) ? JSON.parse(slice) : unparsedNote(slice))
      else {
        const keyEnd = slice.charCodeAt(0) === 34 ? stringEnd(slice, 0) : -1
        const colon = keyEnd === -1 ? -1 : slice.indexOf(':', keyEnd + 1)
        const value = colon === -1 ? '' : slice.slice(colon + 1).trim()
        memo.set(i, colon !== -1 && !parse(i, value) ? { [JSON.parse(slice.slice(0, keyEnd + 1)) as string]: unparsedNote(value) } : JSON.parse(`{${slice}}`))
      }
    }
    return memo.get(i)
  }
  try {
    const sample = picks.map(at)
    const note = `${text.length} chars: described from its first and last entries, not parsed whole`
    let syn: string
    let entry: (i: number, limits: RenderLimits) => string
    let omit: (a: number, b: number) => string
    if (top.kind === 'array') {
      const head = `JSON array[${n}] of ${itemTypes(sample) || 'nothing'} (${note})`
      const { objects, keys } = keyUnion(sample)
      syn = objects === 0 ? head : `${head}; item keys (in the ${objects} sampled objects unless noted): ${joinCapped(keys, ', ', Math.max(60, Math.floor(budget * 0.3) - head.length))}`
      entry = (i, limits) => `[${i}] ${renderCompact(at(i), limits, budget)}`
      omit = (a, b) => `[... ${b - a + 1} items omitted: [${a}]-[${b}] ...]`
    } else {
      const values = sample.map((o) => Object.values(o as object)[0])
      syn = `JSON object with ${n} keys (${note}); values of the ${sample.length} sampled keys: ${itemTypes(values)}`
      entry = (i, limits) => {
        const [k, v] = Object.entries(at(i) as object)[0] ?? ['', null]
        return `${cutString(k, 60)}: ${renderCompact(v, limits, budget)}`
      }
      omit = (a, b) => `[... ${b - a + 1} keys omitted (keys ${a + 1}-${b + 1} of ${n}) ...]`
    }
    const avail = budget - syn.length - 1
    if (avail < 40) return syn.length <= budget ? syn : undefined
    const body = n === 0 ? (top.kind === 'array' ? '[]' : '{}') : renderHeadTail(n, entry, omit, avail, headShare)
    return body === undefined ? syn : `${syn}\n${body}`
  } catch {
    return undefined
  }
}

/** {@link summarizeJson} for an already parsed value. */
export function summarizeValue(value: object, chars: number, budget: number, share = DEFAULT_JSON_SUMMARY.synopsisShare, headShare = DEFAULT_JSON_SUMMARY.headShare): string | undefined {
  const syn = synopsis(value, chars, Math.floor(budget * share))
  const avail = budget - syn.length - 1
  if (avail < 40) return syn.length <= budget ? syn : undefined
  const body = Array.isArray(value) ? (value.length === 0 ? '[]' : renderItems(value, avail, headShare)) : renderObject(value as Record<string, unknown>, avail, headShare)
  return body === undefined ? syn : `${syn}\n${body}`
}

