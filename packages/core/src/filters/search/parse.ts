/**
 * A one-pass parser for grep / ripgrep output: `path:line:text` (`-n`), `path:text`, context
 * lines `path-line-text` and `--` separators (`-C`), `--heading` blocks (a path line, then
 * `line:text`), counts `path:N` (`-c`) and bare paths (`-l`). File names may hold colons.
 */

/** A kept line of one file: its line number (when known) and text. */
export interface SearchLine {
  line: number | undefined
  text: string
}

/** One file of the output. */
export interface SearchFile {
  path: string
  /** Matching lines (from `-n` / heading output) or the count of `-c`. */
  matches: number
  /** The first matching lines, at most {@link KEEP_PER_FILE}. */
  first: SearchLine[]
}

/** What {@link parseSearch} found. */
export interface SearchParse {
  files: SearchFile[]
  /** Total matches over all files. */
  matches: number
  /** Context lines (`path-12-text`) seen; they are not counted as matches. */
  context: number
  /** True when the output only listed file names (`-l`). */
  namesOnly: boolean
  /** True when the output was `-c` counts. */
  counts: boolean
  /** Non-empty lines that did not parse. */
  unparsed: number
  /** Non-empty lines in all. */
  lines: number
}

/** Matching lines kept per file while parsing (the excerpt shows fewer). */
export const KEEP_PER_FILE = 8

const isDigit = (c: number): boolean => c >= 48 && c <= 57

/** End of a run of digits starting at `i` (== i when none). */
function digitsEnd(s: string, i: number): number {
  let j = i
  while (j < s.length && isDigit(s.charCodeAt(j))) j++
  return j
}

/**
 * Splits `path<sep>N<sep>text` at the first `<sep>digits<sep>` (or `<sep>digits` at the end of
 * the line when `allowEnd`). Returns the path, number and text, or `undefined`.
 */
function splitNumbered(line: string, sep: string, allowEnd: boolean, from = 0): { path: string; n: number; text: string | undefined } | undefined {
  let i = line.indexOf(sep, from)
  while (i > 0) {
    const end = digitsEnd(line, i + 1)
    if (end > i + 1) {
      if (line[end] === sep) return { path: line.slice(0, i), n: Number(line.slice(i + 1, end)), text: line.slice(end + 1) }
      if (allowEnd && end === line.length) return { path: line.slice(0, i), n: Number(line.slice(i + 1, end)), text: undefined }
    }
    i = line.indexOf(sep, i + 1)
  }
  return undefined
}

/** `2022-05-30T09` (a log timestamp cut at its first colon) is not a path. */
function isTimestamp(path: string): boolean {
  return path.length >= 10 && isDigit(path.charCodeAt(0)) && isDigit(path.charCodeAt(3)) && path[4] === '-' && path[7] === '-'
}

/** A line that can only be a file name: no blanks, a dot or slash, a letter, not too long. */
function looksLikePath(line: string): boolean {
  if (line.length > 400 || line.includes(' ') || line.includes('\t')) return false
  return (line.includes('/') || line.includes('.')) && /[A-Za-z]/.test(line)
}

/** Parses grep / rg output. */
export function parseSearch(text: string): SearchParse {
  const files: SearchFile[] = []
  const byPath = new Map<string, SearchFile>()
  let matches = 0
  let context = 0
  let unparsed = 0
  let lines = 0
  let heading: SearchFile | undefined // current `--heading` block
  let last: SearchFile | undefined
  let countLines = 0
  let bare = 0
  const fileFor = (path: string): SearchFile => {
    let f = byPath.get(path)
    if (f === undefined) {
      f = { path, matches: 0, first: [] }
      byPath.set(path, f)
      files.push(f)
    }
    return f
  }
  const addMatch = (f: SearchFile, n: number | undefined, t: string): void => {
    f.matches++
    matches++
    if (f.first.length < KEEP_PER_FILE) f.first.push({ line: n, text: t })
    last = f
  }
  let pos = 0
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos)
    let line = text.slice(pos, nl === -1 ? text.length : nl)
    pos = nl === -1 ? text.length : nl + 1
    if (line.endsWith('\r')) line = line.slice(0, -1)
    if (line === '') {
      heading = undefined
      continue
    }
    lines++
    if (line === '--') continue
    // `--heading` block lines: `12:text` / `12-text`
    if (heading !== undefined && isDigit(line.charCodeAt(0))) {
      const end = digitsEnd(line, 0)
      if (line[end] === ':') {
        addMatch(heading, Number(line.slice(0, end)), line.slice(end + 1))
        continue
      }
      if (line[end] === '-') {
        context++
        continue
      }
    }
    // context line of the file just seen: `path-12-text`
    if (last !== undefined && line.startsWith(`${last.path}-`) && isDigit(line.charCodeAt(last.path.length + 1))) {
      const end = digitsEnd(line, last.path.length + 1)
      if (line[end] === '-') {
        context++
        continue
      }
    }
    const numbered = splitNumbered(line, ':', true)
    if (numbered !== undefined && numbered.path !== '' && !isTimestamp(numbered.path)) {
      if (numbered.text === undefined) {
        // `path:N` of `rg -c` / `grep -c`
        const f = fileFor(numbered.path)
        f.matches += numbered.n
        matches += numbered.n
        countLines++
        last = f
      } else addMatch(fileFor(numbered.path), numbered.n, numbered.text)
      continue
    }
    const ctx = splitNumbered(line, '-', false)
    if (ctx !== undefined && looksLikePath(ctx.path)) {
      context++ // a context line before the file's first match
      continue
    }
    if (looksLikePath(line)) {
      // a `--heading` path or a `-l` file name: which one shows in the lines that follow
      heading = fileFor(line)
      last = heading
      bare++
      continue
    }
    const colon = line.indexOf(':')
    if (colon > 0 && looksLikePath(line.slice(0, colon))) {
      addMatch(fileFor(line.slice(0, colon)), undefined, line.slice(colon + 1)) // `grep -r` without -n
      continue
    }
    unparsed++
  }
  const namesOnly = bare > 0 && matches === 0
  return { files, matches, context, namesOnly, counts: countLines > 0 && countLines >= lines - unparsed - bare, unparsed, lines }
}
