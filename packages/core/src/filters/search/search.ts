import { clipLine } from '../../trim/text.js'
import { parseSearch, type SearchFile, type SearchParse } from './parse.js'

/** Options of {@link summarizeSearch}. */
export interface SearchSummaryOptions {
  /**
   * Share of the budget the file index (every file with its count) may take, 0.2..1. Naming every
   * file comes first; the matches get what the index leaves.
   * @default 0.97
   */
  indexShare: number
  /**
   * Most matching lines shown per file, 1..1000 (files take turns, so every file gets its first
   * match before any gets a second).
   * @default 5
   */
  perFile: number
  /**
   * Longest match line shown, in chars, 40..10000.
   * @default 200
   */
  maxLineChars: number
  /**
   * Share of non-empty lines that must parse as search output, 0..1; below it the filter steps aside.
   * @default 0.8
   */
  minParsed: number
}

/** Defaults of {@link SearchSummaryOptions}. */
export const DEFAULT_SEARCH_SUMMARY: Readonly<SearchSummaryOptions> = Object.freeze({ indexShare: 0.97, perFile: 5, maxLineChars: 200, minParsed: 0.8 })

/** `_test.go`, `.test.js`, `.spec.ts`...: a file-name suffix shared by many files, factored out of the index. */
function suffixOf(name: string): string {
  const dot = name.lastIndexOf('.')
  if (dot <= 0) return ''
  const stem = name.slice(0, dot)
  for (const tag of ['_test', '.test', '.spec', '_spec', '-test']) if (stem.endsWith(tag) && stem.length > tag.length) return tag + name.slice(dot)
  return name.slice(dot)
}

const split = (path: string, strip: number): { dir: string; name: string } => {
  const slash = path.lastIndexOf('/')
  return { dir: path.slice(strip, Math.max(strip, slash + 1)), name: path.slice(slash + 1) }
}

/** True when every path starts with `./` (grep -r .): the index leaves it out and says so. */
const dotted = (files: readonly SearchFile[]): boolean => files.every((f) => f.path.startsWith('./'))

const extOf = (name: string): string => {
  const dot = name.lastIndexOf('.')
  return dot <= 0 ? '' : name.slice(dot)
}

/**
 * Index lines of one directory in the shortest of three forms: `dir/ a.go:3 b_test.go`, by
 * extension `dir/*.go a:3 b_test`, or by suffix `dir/*.go a:3` + `dir/*_test.go b`.
 */
function dirLines(dir: string, files: readonly SearchFile[], names: boolean): { lines: string[]; sizes: number[] } {
  const entry = (name: string, f: SearchFile): string => (names || f.matches === 1 ? name : `${name}:${f.matches}`)
  const key = dir === '' ? './' : dir
  let best: { lines: string[]; sizes: number[]; cost: number } | undefined
  for (const suffix of [() => '', extOf, suffixOf]) {
    const groups = new Map<string, string[]>()
    for (const f of files) {
      const name = f.path.slice(f.path.lastIndexOf('/') + 1)
      const suf = suffix(name)
      const k = suf === '' ? key : `${dir}*${suf}`
      const item = entry(suf === '' ? name : name.slice(0, name.length - suf.length), f)
      const list = groups.get(k)
      if (list === undefined) groups.set(k, [item])
      else list.push(item)
    }
    const lines = [...groups].map(([k, items]) => `${k} ${items.join(' ')}`)
    const cost = lines.reduce((n, l) => n + l.length + 1, 0)
    if (best === undefined || cost < best.cost) best = { lines, sizes: [...groups.values()].map((g) => g.length), cost }
  }
  return best!
}

/**
 * The file index, one or more lines per directory (rg -c style `name:count`, see {@link dirLines}).
 * When it cannot all fit in `max` chars, each line keeps the first files that fit and says how
 * many it leaves out.
 */
function fileIndex(files: readonly SearchFile[], names: boolean, max: number): { lines: string[]; named: number } {
  const strip = dotted(files) ? 2 : 0
  const byDir = new Map<string, SearchFile[]>()
  for (const f of files) {
    const { dir } = split(f.path, strip)
    const list = byDir.get(dir)
    if (list === undefined) byDir.set(dir, [f])
    else list.push(f)
  }
  const all: string[] = []
  for (const [dir, fs] of byDir) all.push(...dirLines(dir, fs, names).lines)
  if (all.reduce((n, l) => n + l.length + 1, 0) <= max) return { lines: all, named: files.length }
  const lines: string[] = []
  let used = 48
  let named = 0
  for (const full of all) {
    const parts = full.split(' ')
    let line = parts[0]!
    let k = 1
    while (k < parts.length && used + line.length + parts[k]!.length + 2 + (k + 1 < parts.length ? 8 : 0) <= max) line += ` ${parts[k++]}`
    if (k === 1) continue
    if (k < parts.length) line += ` …+${parts.length - k}`
    lines.push(line)
    used += line.length + 1
    named += k - 1
  }
  lines.push(`[... ${files.length - named} more files not listed ...]`)
  return { lines, named }
}

/** The title line: totals and what follows. */
function title(p: SearchParse): string {
  const under = dotted(p.files) ? ' under ./' : ''
  if (p.namesOnly) return `[${p.files.length} files${under}, by directory]`
  const ctx = p.context > 0 ? `, ${p.context} context lines not shown` : ''
  const extra = p.counts ? '' : '; first matches below'
  return `[search: ${p.matches} matches in ${p.files.length} files${under}${ctx}. By directory, name:count (none: 1)${extra}]`
}

/**
 * grep / ripgrep output grouped by file: a title with the totals, every matching file named with
 * its match count (grouped by directory), then the first matches of each file, files taking
 * turns, within `budget` chars. Returns `undefined` when `text` does not read as search output.
 *
 * @example
 * ```ts
 * summarizeSearch(rgOutput, 4000)
 * // [search results: 548 matches in 56 files. Files by directory with match counts, then the first matches of each file]
 * // lib/ response.js:60 request.js:31 application.js:4
 * // test/ app.router.js:40 ...
 * //
 * // lib/response.js
 * // 194:  if (req.fresh) this.status(304);
 * ```
 */
export function summarizeSearch(text: string, budget: number, options: Partial<SearchSummaryOptions> = {}): string | undefined {
  const opts = { ...DEFAULT_SEARCH_SUMMARY, ...options }
  const p = parseSearch(text)
  if (p.files.length === 0 || p.lines === 0) return undefined
  if ((p.lines - p.unparsed) / p.lines < Math.min(1, Math.max(0, opts.minParsed))) return undefined
  const head = title(p)
  const index = fileIndex(p.files, p.namesOnly, Math.floor(budget * Math.min(1, Math.max(0.2, opts.indexShare))) - head.length - 1)
  let out = [head, ...index.lines].join('\n')
  if (p.namesOnly || p.counts) return out
  // First matches, files taking turns, while they fit.
  const maxLine = Math.min(10_000, Math.max(40, Math.floor(opts.maxLineChars)))
  const perFile = Math.min(1000, Math.max(1, Math.floor(opts.perFile)))
  const shown = new Map<SearchFile, string[]>()
  const closing = (n: number): string => `[... spillway: ${p.matches - n} of ${p.matches} matching lines not shown ...]`
  let used = out.length + 3 + closing(0).length
  let count = 0
  for (let round = 0; round < perFile; round++) {
    let added = false
    for (const f of p.files) {
      const m = f.first[round]
      if (m === undefined) continue
      const line = clipLine(`${m.line !== undefined ? `${m.line}:` : ''}${m.text}`, maxLine)
      const list = shown.get(f)
      const cost = line.length + 1 + (list === undefined ? f.path.length + 2 : 0)
      if (used + cost > budget) continue
      if (list === undefined) shown.set(f, [line])
      else list.push(line)
      used += cost
      count++
      added = true
    }
    if (!added) break
  }
  const blocks: string[] = []
  for (const f of p.files) {
    const list = shown.get(f)
    if (list !== undefined) blocks.push(`${f.path}\n${list.join('\n')}`)
  }
  if (blocks.length > 0) out += `\n\n${blocks.join('\n')}`
  if (count < p.matches) out += `\n${closing(count)}`
  return out
}
