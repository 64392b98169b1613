/**
 * The file index of the search excerpt ("listing") and its exact inverse, {@link listedFiles}.
 * Both live here so the format has one definition: what the renderer writes, the reader reads.
 *
 * Format, one line per group, after the title line:
 * - `dir/ a.go:3 b_test.go`: files of `dir/`, `name:count`, no count = 1 match; `./` = top level.
 * - `dir/*.go a:3 b`: template, `dir/a.go` (3 matches) and `dir/b.go`; `*_test.go` likewise.
 * - `"my dir/a b.go":2 "./x.go"`: paths that would be ambiguous above (blanks, quotes, a `./` dir,
 *   an empty name...), JSON-quoted and given in full.
 * - a trailing `…+N` says the line leaves N files out; `[... N more files not listed ...]` ends a cut index.
 * When the title says `under ./`, every path of the unquoted lines is relative to `./`.
 */

/** One file as the index shows it. */
export interface ListedFile {
  path: string
  matches: number
}

/** An index line: a key (`dir/` or `dir/*suffix`) and items; no key for the quoted line. */
export interface IndexLine {
  key: string | undefined
  items: string[]
}

/** `_test.go`, `.test.js`, `.spec.ts`...: a file-name suffix shared by many files, factored out of the index. */
function suffixOf(name: string): string {
  const dot = name.lastIndexOf('.')
  if (dot <= 0) return ''
  const stem = name.slice(0, dot)
  for (const tag of ['_test', '.test', '.spec', '_spec', '-test']) if (stem.endsWith(tag) && stem.length > tag.length) return tag + name.slice(dot)
  return name.slice(dot)
}

const extOf = (name: string): string => {
  const dot = name.lastIndexOf('.')
  return dot <= 0 ? '' : name.slice(dot)
}

/** True when every path starts with `./` (grep -r .): the index leaves it out and the title says so. */
export const dotted = (files: readonly ListedFile[]): boolean => files.length > 0 && files.every((f) => f.path.startsWith('./'))

const COUNT_END = /:\d+$/

/**
 * A path the unquoted form cannot carry without ambiguity: blanks split items, a quote or `…`
 * opens another form, `./` as a directory reads as the top level, an empty name is no item.
 */
function needsQuotes(dir: string, name: string): boolean {
  return /[\s"]/.test(dir + name) || name === '' || name.startsWith('…') || dir === './'
}

/** `name`, or `name:count` when the count is not 1 or the name itself ends in `:digits`. */
const item = (name: string, matches: number, names: boolean): string => (names ? name : matches === 1 && !COUNT_END.test(name) ? name : `${name}:${matches}`)

/**
 * Index lines of one directory in the shortest of three forms: `dir/ a.go:3 b_test.go`, by
 * extension `dir/*.go a:3 b_test`, or by suffix `dir/*.go a:3` + `dir/*_test.go b`.
 */
function dirLines(dir: string, files: ReadonlyArray<{ name: string; matches: number }>, names: boolean): IndexLine[] {
  const key = dir === '' ? './' : dir
  let best: { lines: IndexLine[]; cost: number } | undefined
  for (const suffix of [() => '', extOf, suffixOf]) {
    const groups = new Map<string, string[]>()
    for (const f of files) {
      const suf = suffix(f.name)
      const k = suf === '' ? key : `${dir}*${suf}`
      const it = item(suf === '' ? f.name : f.name.slice(0, f.name.length - suf.length), f.matches, names)
      const list = groups.get(k)
      if (list === undefined) groups.set(k, [it])
      else list.push(it)
    }
    const lines = [...groups].map(([k, items]) => ({ key: k, items }))
    const cost = lines.reduce((n, l) => n + lineText(l).length + 1, 0)
    if (best === undefined || cost < best.cost) best = { lines, cost }
  }
  return best!.lines
}

/** The text of an index line. */
export const lineText = (l: IndexLine): string => (l.key === undefined ? l.items.join(' ') : `${l.key} ${l.items.join(' ')}`)

/** Every index line of `files`, grouped by directory, the quoted paths last. */
export function indexLines(files: readonly ListedFile[], names: boolean): IndexLine[] {
  const strip = dotted(files) ? 2 : 0
  const byDir = new Map<string, Array<{ name: string; matches: number }>>()
  const quoted: string[] = []
  for (const f of files) {
    const slash = f.path.lastIndexOf('/')
    const dir = f.path.slice(strip, Math.max(strip, slash + 1))
    const name = f.path.slice(slash + 1)
    if (needsQuotes(dir, name)) {
      quoted.push(names ? JSON.stringify(f.path) : `${JSON.stringify(f.path)}:${f.matches}`)
      continue
    }
    const list = byDir.get(dir)
    if (list === undefined) byDir.set(dir, [{ name, matches: f.matches }])
    else list.push({ name, matches: f.matches })
  }
  const lines: IndexLine[] = []
  for (const [dir, fs] of byDir) lines.push(...dirLines(dir, fs, names))
  if (quoted.length > 0) lines.push({ key: undefined, items: quoted })
  return lines
}

/** The line that ends an index cut short. */
export const moreLine = (n: number): string => `[... ${n} more files not listed ...]`

const TITLE = /^\[(?:search: \d+ matches in \d+ files|\d+ files)( under \.\/)?[,;. ]/
const MORE = /^\[\.\.\. \d+ more files not listed \.\.\.\]$/
const NUMBERED = /^(.+?):\d+:/ // raw grep -n: the shortest path before `:digits:`, as the parser reads it
const QUOTED = /"(?:[^"\\]|\\.)*"/y

/** Paths of the quoted index line. */
function quotedPaths(line: string, out: Set<string>): void {
  let i = 0
  while (i < line.length) {
    QUOTED.lastIndex = i
    const m = QUOTED.exec(line)
    if (m === null) return
    try {
      out.add(JSON.parse(m[0]) as string)
    } catch {
      return
    }
    i = QUOTED.lastIndex
    while (i < line.length && line[i] !== ' ') i++ // the `:count`
    i++
  }
}

/** Paths of one unquoted index line, or nothing when the line is not one. */
function keyedPaths(line: string, prefix: string, names: boolean, out: Set<string>): void {
  const sp = line.indexOf(' ')
  if (sp <= 0) return
  const key = line.slice(0, sp)
  const slash = key.lastIndexOf('/')
  const rest = key.slice(slash + 1)
  let dir: string
  let suf = ''
  if (key === './') dir = ''
  else if (rest === '') dir = key
  else if (rest.startsWith('*') && rest.length > 1) {
    dir = key.slice(0, slash + 1)
    suf = rest.slice(1)
  } else return
  for (const it of line.slice(sp + 1).split(' ')) {
    if (it === '' || /^…\+\d+$/.test(it)) continue
    const name = names ? it : it.replace(COUNT_END, '')
    out.add(prefix + dir + name + suf)
  }
}

/**
 * The full paths a search excerpt names: every file of the index that follows a search title
 * (`[search: N matches in M files...]` or `[N files..., by directory...]`), read back from the
 * `dir/ name:count`, `dir/*suffix stem` and quoted forms (see the module comment), plus the path
 * of every verbatim `path:line:text` line (raw grep / rg output). The exact inverse of the index
 * the search filter writes: for an index that lists every file, it returns exactly those paths.
 * Pure; never throws; order of first appearance.
 *
 * @example
 * ```ts
 * listedFiles('[search: 5 matches in 3 files. ...]\npkg/*.go a:3 b\n"my dir/c d.go"\n\nx.ts:1:hit')
 * // ['pkg/a.go', 'pkg/b.go', 'my dir/c d.go', 'x.ts']
 * ```
 */
export function listedFiles(excerpt: string): string[] {
  const out = new Set<string>()
  const lines = excerpt.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    const title = TITLE.exec(line)
    if (title !== null) {
      const prefix = title[1] === undefined ? '' : './'
      const names = !line.startsWith('[search: ')
      for (i++; i < lines.length; i++) {
        const l = lines[i]!
        if (l === '' || MORE.test(l)) break
        if (l.startsWith('"')) quotedPaths(l, out)
        else keyedPaths(l, prefix, names, out)
      }
      continue
    }
    if (/^L?\d+:/.test(line)) continue // a match line of a `path` block (`L194:text`), not a path
    const m = NUMBERED.exec(line)
    if (m !== null) out.add(m[1]!)
  }
  return [...out]
}
