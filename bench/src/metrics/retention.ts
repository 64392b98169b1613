// Label semantics of the benchmark (stricter than the substring rule of
// packages/core/test/corpus.ts: matched per line, see `retention`).

const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g

/** Removes ANSI colour / cursor codes. */
export function stripAnsi(s: string): string {
  return s.replace(ANSI, '')
}

/** Chars of a labelled line that are compared (long lines: their first 200). */
export const LABEL_CHARS = 200

/**
 * What a label is: `line`, a whole log line (cidiff `E` lines, loghub rows); `span`, a piece of
 * a line that may start or end mid-line (LogChunks failure reasons are character spans).
 */
export type LabelMatch = 'line' | 'span'

/** Label sources whose labels are spans of lines (see {@link LabelMatch}); the rest are whole lines. */
export const SPAN_LABEL_SOURCES: ReadonlySet<string> = new Set(['logchunks'])

// Decorations some methods put around a shown line: a leading line number (spillway's `N: `,
// `cat -n`'s `N<tab>`) and a trailing repeat count (`(x3)` for a collapsed run).
const LINE_NUMBER = /^\d+(?:: |\t)/
const REPEAT_COUNT = /\s+\(x\d+\)$/

/** The forms an excerpt line may match in: as shown, and without line number / repeat count. */
function lineForms(excerpt: string): Set<string> {
  const forms = new Set<string>()
  for (const raw of splitJavaLines(stripAnsi(excerpt))) {
    const line = raw.trim()
    if (line === '') continue
    const bare = line.replace(LINE_NUMBER, '').trim()
    for (const v of [line, bare, line.replace(REPEAT_COUNT, ''), bare.replace(REPEAT_COUNT, '')]) forms.add(v)
  }
  return forms
}

/**
 * Share (0..1) of labelled lines visible in an excerpt, matched line by line with one rule for
 * every method. Labels and excerpt lines have ANSI codes removed and are trimmed; an excerpt
 * line also counts without a leading line number (`N: `, `N<tab>`) or a trailing repeat count
 * (`(x3)`). A `line` label is kept when an excerpt line equals it (labels over
 * {@link LABEL_CHARS} chars: starts with its first 200, as a shown line may be cut after that),
 * so a short label such as `[ERROR]` does not count because the token sits inside another line.
 * A `span` label is kept when one excerpt line contains its first 200 chars. `undefined` when
 * no labelled line is non-blank.
 */
export function retention(excerpt: string, labelled: readonly string[], match: LabelMatch = 'line'): number | undefined {
  const wanted = labelled.map((l) => stripAnsi(l).trim()).filter((l) => l !== '')
  if (wanted.length === 0) return undefined
  const forms = lineForms(excerpt)
  const heads = new Set<string>()
  for (const f of forms) if (f.length >= LABEL_CHARS) heads.add(f.slice(0, LABEL_CHARS))
  const lines = match === 'span' ? [...forms] : []
  const kept = wanted.filter((w) => {
    if (match === 'span') {
      const head = w.slice(0, LABEL_CHARS)
      return lines.some((l) => l.includes(head))
    }
    return w.length > LABEL_CHARS ? heads.has(w.slice(0, LABEL_CHARS)) : forms.has(w)
  }).length
  return kept / wanted.length
}

/** Splits the way Java's `readLine` does (`\r\n`, `\r` or `\n`): how the cidiff labels count. */
export function splitJavaLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/)
}
