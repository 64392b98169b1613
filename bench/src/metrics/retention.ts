// Same label semantics as packages/core/test/corpus.ts, re-implemented here (the bench does not
// import test files).

const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g

/** Removes ANSI colour / cursor codes. */
export function stripAnsi(s: string): string {
  return s.replace(ANSI, '')
}

/**
 * Share (0..1) of labelled lines visible in an excerpt: each non-blank line, ANSI codes removed,
 * trimmed, its first 200 chars when longer, must appear as a substring. `undefined` when no
 * labelled line is non-blank.
 */
export function retention(excerpt: string, labelled: readonly string[]): number | undefined {
  const wanted = labelled.map((l) => stripAnsi(l).trim().slice(0, 200)).filter((l) => l !== '')
  if (wanted.length === 0) return undefined
  const shown = stripAnsi(excerpt)
  let kept = 0
  for (const w of wanted) if (shown.includes(w)) kept++
  return kept / wanted.length
}

/** Splits the way Java's `readLine` does (`\r\n`, `\r` or `\n`): how the cidiff labels count. */
export function splitJavaLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/)
}
