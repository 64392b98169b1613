/**
 * Duplicate and near-duplicate line runs, and blank-line runs: one linear pass each over the
 * lines (split on `\n`; a `\r` before it stays part of the line).
 */

/** Options of {@link dedupNear}. */
export interface DedupOptions {
  /**
   * Shortest run of near-duplicate lines (same template once numbers, hex ids and timestamps are
   * masked) that is collapsed, 2..1000.
   * @default 4
   */
  minRun: number
}

/** Defaults of {@link DedupOptions}. */
export const DEFAULT_DEDUP: Readonly<DedupOptions> = Object.freeze({ minRun: 4 })

/** The lines of `text` and whether it ended with `\n`. */
function splitLines(text: string): { lines: string[]; trailing: boolean } {
  const trailing = text.endsWith('\n')
  const lines = text.split('\n')
  if (trailing) lines.pop()
  return { lines, trailing }
}

const join = (lines: string[], trailing: boolean): string => lines.join('\n') + (trailing ? '\n' : '')

const isBlank = (line: string): boolean => {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i)
    if (c !== 32 && c !== 9 && c !== 13) return false
  }
  return true
}

/** Appends ` (xN)` to a line, before a trailing `\r`. */
function counted(line: string, n: number): string {
  return line.endsWith('\r') ? `${line.slice(0, -1)} (x${n})\r` : `${line} (x${n})`
}

/** A merged text and, for each of its lines, the 1-based input line it begins at. */
export interface MergedLines {
  /** The merged text. */
  text: string
  /** For each line of `text` (index 0 = line 1), the 1-based input line it begins at; strictly ascending. */
  lineStarts: number[]
}

/**
 * The one loop behind the run-merging filters: `runEnd(lines, i)` says where the run starting at
 * line `i` ends (exclusive), `render(line, count)` what a run of 2+ lines becomes (`undefined`:
 * its lines stay as they are). Returns the merged text with the input line each output line
 * begins at, or `undefined` when no run was merged.
 */
function mergeRuns(text: string, runEnd: (lines: string[], i: number) => number, render: (line: string, count: number) => string | undefined): MergedLines | undefined {
  if (text.length === 0) return undefined
  const { lines, trailing } = splitLines(text)
  const out: string[] = []
  const starts: number[] = []
  let changed = false
  for (let i = 0; i < lines.length; ) {
    const j = Math.max(i + 1, runEnd(lines, i))
    const merged = j - i > 1 ? render(lines[i]!, j - i) : undefined
    if (merged !== undefined) {
      out.push(merged)
      starts.push(i + 1)
      changed = true
    } else
      for (let k = i; k < j; k++) {
        out.push(lines[k]!)
        starts.push(k + 1)
      }
    i = j
  }
  return changed ? { text: join(out, trailing), lineStarts: starts } : undefined
}

/** End of the run of lines equal to line `i`. */
function sameLines(lines: string[], i: number): number {
  let j = i + 1
  while (j < lines.length && lines[j] === lines[i]) j++
  return j
}

/** End of the run of blank lines starting at line `i` (`i` itself when it is not blank). */
function blankLines(lines: string[], i: number): number {
  let j = i
  while (j < lines.length && isBlank(lines[j]!)) j++
  return j
}

/**
 * Exact consecutive duplicate lines collapsed to one line followed by ` (xN)`, with the input
 * line each output line begins at. Blank lines are left to {@link collapseBlankRunsMapped}.
 * Returns `undefined` when nothing repeats.
 */
export function dedupExactMapped(text: string): MergedLines | undefined {
  return mergeRuns(text, sameLines, (line, n) => (isBlank(line) ? undefined : counted(line, n)))
}

/**
 * Exact consecutive duplicate lines collapsed to one line followed by ` (xN)`. Blank lines are
 * left to {@link collapseBlankRuns}. Returns `undefined` when nothing repeats.
 */
export function dedupExact(text: string): string | undefined {
  return dedupExactMapped(text)?.text
}

/** Runs of two or more blank lines collapsed to one empty line, with the input line each output line begins at. */
export function collapseBlankRunsMapped(text: string): MergedLines | undefined {
  return mergeRuns(text, blankLines, () => '')
}

/**
 * Runs of `minRun`+ (3 by default) blank lines replaced by one line that counts them,
 * `[12 blank lines]`, with the input line each output line begins at. Unlike
 * {@link collapseBlankRuns} the excerpt still says how many lines there were, so line numbers
 * read from it stay true. Returns `undefined` when there is no such run.
 */
export function countBlankRuns(text: string, minRun = 3): MergedLines | undefined {
  const min = Math.max(2, Math.floor(minRun))
  return mergeRuns(text, blankLines, (_, n) => (n >= min ? `[${n} blank lines]` : undefined))
}

/** Runs of two or more blank lines collapsed to one empty line. */
export function collapseBlankRuns(text: string): string | undefined {
  return collapseBlankRunsMapped(text)?.text
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57
const isHexLetter = (c: number): boolean => (c >= 97 && c <= 102) || (c >= 65 && c <= 70)
const isWordChar = (c: number): boolean => isDigit(c) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95

/**
 * A line with its variable parts masked: every run of digits (and the hex letters, `.`, `:` and
 * `-` glued to them: timestamps, versions, ids) becomes `#`, and a word of 8+ hex chars holding a
 * digit (commit and object ids) becomes `#`. Linear, no regex.
 */
export function maskLine(line: string): string {
  let out = ''
  let i = 0
  while (i < line.length) {
    const c = line.charCodeAt(i)
    if (isWordChar(c) && (i === 0 || !isWordChar(line.charCodeAt(i - 1)))) {
      // a whole word: masked when it is numeric or a hex id
      let j = i
      let digits = 0
      let hex = true
      while (j < line.length && isWordChar(line.charCodeAt(j))) {
        const d = line.charCodeAt(j)
        if (isDigit(d)) digits++
        else if (!isHexLetter(d)) hex = false
        j++
      }
      if (digits > 0 && (digits === j - i || (hex && j - i >= 8))) {
        // swallow `.`/`:`/`-`/`T` joined numeric parts: 2024-01-02T10:11:12.123
        while (j < line.length) {
          const sep = line.charCodeAt(j)
          if ((sep === 46 || sep === 58 || sep === 45 || sep === 84) && isDigit(line.charCodeAt(j + 1))) {
            j++
            while (j < line.length && (isDigit(line.charCodeAt(j)) || isHexLetter(line.charCodeAt(j)))) j++
          } else break
        }
        out += '#'
      } else if (digits > 0) {
        // a word with digits inside (worker12, e4f): digits masked, letters kept
        for (let k = i; k < j; k++) {
          const d = line.charCodeAt(k)
          if (isDigit(d)) {
            if (!isDigit(line.charCodeAt(k - 1)) || k === i) out += '#'
          } else out += line[k]
        }
      } else out += line.slice(i, j)
      i = j
      continue
    }
    out += line[i]
    i++
  }
  return out
}

/**
 * Runs of `minRun`+ consecutive lines that differ only in numbers, ids or timestamps collapsed
 * to their first line, a count with the template, and their last line. Exact repeats are
 * counted the same way. Returns `undefined` when there is no such run.
 */
export function dedupNear(text: string, options: Partial<DedupOptions> = {}): string | undefined {
  const minRun = Math.min(1000, Math.max(2, Math.floor(options.minRun ?? DEFAULT_DEDUP.minRun)))
  if (text.length === 0) return undefined
  const { lines, trailing } = splitLines(text)
  const out: string[] = []
  let changed = false
  let i = 0
  let template = lines.length > 0 ? maskLine(lines[0]!) : ''
  while (i < lines.length) {
    let j = i + 1
    let next = ''
    while (j < lines.length) {
      next = maskLine(lines[j]!)
      if (next !== template) break
      j++
    }
    const run = j - i
    if (run >= minRun && !isBlank(lines[i]!)) {
      out.push(lines[i]!, `[... ${run - 2} similar lines: ${template.endsWith('\r') ? template.slice(0, -1) : template} ...]`, lines[j - 1]!)
      changed = true
    } else for (let k = i; k < j; k++) out.push(lines[k]!)
    i = j
    template = next
  }
  return changed ? join(out, trailing) : undefined
}
