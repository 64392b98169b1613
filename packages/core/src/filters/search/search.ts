import { clipLine } from '../../trim/text.js'
import { dotted, indexLines, lineText, moreLine, type IndexLine } from './listing.js'
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

/**
 * Fits the index lines into `max` chars. When they cannot all fit, each line keeps the first files
 * that fit and says how many it leaves out (`…+N`), and a last line counts the files not listed.
 */
function fitIndex(all: readonly IndexLine[], total: number, max: number): string[] {
  const texts = all.map(lineText)
  if (texts.reduce((n, l) => n + l.length + 1, 0) <= max) return texts
  const lines: string[] = []
  let used = 48
  let named = 0
  for (const { key, items } of all) {
    let line = key ?? ''
    let k = 0
    while (k < items.length && used + line.length + items[k]!.length + 2 + (k + 1 < items.length ? 8 : 0) <= max) line += `${line === '' ? '' : ' '}${items[k++]}`
    if (k === 0) continue
    if (k < items.length) line += ` …+${items.length - k}`
    lines.push(line)
    used += line.length + 1
    named += k
  }
  lines.push(moreLine(total - named))
  return lines
}

/**
 * The title line: totals, then how to read the index in plain words (the template and quoted
 * forms are explained only when the index uses them).
 */
function title(p: SearchParse, index: readonly IndexLine[]): string {
  const under = dotted(p.files) ? ' under ./' : ''
  const tmpl = index.some((l) => l.key?.includes('*') === true && !l.key.endsWith('/')) ? '; "dir/*.go a b" means dir/a.go, dir/b.go' : ''
  const quoted = index.some((l) => l.key === undefined) ? '; "quoted" = full path' : ''
  // Lines that are neither matches nor paths (a `$ rg ...` echo, a warning) are not shown: say so.
  const other = p.unparsed > 0 ? `; ${p.unparsed} other line${p.unparsed === 1 ? '' : 's'} (not matches) not shown` : ''
  if (p.namesOnly) return `[${p.files.length} files${under}, by directory${tmpl}${quoted}${other}]`
  const ctx = p.context > 0 ? `, ${p.context} context lines not shown` : ''
  const extra = p.counts ? '' : '; first matches below'
  return `[search: ${p.matches} matches in ${p.files.length} files${under}${ctx}. Files by directory as name:count (no count = 1 match)${tmpl}${quoted}${other}${extra}]`
}

/**
 * grep / ripgrep output grouped by file: a title with the totals, every matching file named with
 * its match count (grouped by directory), then the first matches of each file, files taking
 * turns, within `budget` chars. Returns `undefined` when `text` does not read as search output.
 *
 * @example
 * ```ts
 * summarizeSearch(rgOutput, 4000)
 * // [search: 548 matches in 56 files. Files by directory as name:count (no count = 1 match); "dir/*.go a b" means dir/a.go, dir/b.go; first matches below]
 * // lib/*.js response:60 request:31 application:4
 * // test/ app.router.js:40 ...
 * //
 * // lib/response.js
 * // L194:  if (req.fresh) this.status(304);
 * ```
 */
export function summarizeSearch(text: string, budget: number, options: Partial<SearchSummaryOptions> = {}): string | undefined {
  const opts = { ...DEFAULT_SEARCH_SUMMARY, ...options }
  const p = parseSearch(text)
  if (p.files.length === 0 || p.lines === 0) return undefined
  if ((p.lines - p.unparsed) / p.lines < Math.min(1, Math.max(0, opts.minParsed))) return undefined
  return renderSearch(p, budget, opts)
}

/** The excerpt of an already parsed search output (what {@link summarizeSearch} writes), within `budget` chars. */
export function renderSearch(p: SearchParse, budget: number, options: Partial<SearchSummaryOptions> = {}): string {
  const opts = { ...DEFAULT_SEARCH_SUMMARY, ...options }
  const all = indexLines(p.files, p.namesOnly)
  const head = title(p, all)
  const index = fitIndex(all, p.files.length, Math.floor(budget * Math.min(1, Math.max(0.2, opts.indexShare))) - head.length - 1)
  let out = [head, ...index].join('\n')
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
      // `L194:` not `194:`: a bare `N: ` is how spillway numbers lines of the result itself.
      const line = clipLine(`${m.line !== undefined ? `L${m.line}:` : ''}${m.text}`, maxLine)
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
