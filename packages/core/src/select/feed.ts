import { termOf, tokenize } from './tokenize.js'
import type { PostingsBuilder } from './postings.js'

/**
 * The words `splitAscii` finds in ASCII text, in one native pass: an uppercase run not followed
 * by a lowercase letter (`HTTP` in `getHTTPResponse`), an optionally capitalised lowercase run, a
 * digit run. Everything else separates.
 */
const ASCII_WORDS = /[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+/g
const NON_ASCII = /[^\x00-\x7f]/
/** Runs of chars between the ASCII separators {@link splitWords} splits on; non-ASCII chars stay inside a run. */
const RUNS = /[^\x00-\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]+/g

/**
 * Feeds the weighted terms of one field into `builder`: the same terms {@link toolTerms} counts
 * (`tokenize(text)`, each occurrence counting `weight`), found faster. A cold build runs mostly
 * in V8's interpreter, so the work per word is kept to one map lookup: ASCII text is cut into
 * words by one native regex, and each distinct word is lowercased, checked against the stop words
 * and stemmed once per build (catalogs repeat their words). Text with non-ASCII characters is cut
 * into runs, each distinct run analysed once by {@link tokenize}.
 */
export function termFeeder(builder: PostingsBuilder): (text: unknown, weight: number) => void {
  const words = new Map<string, number>() // word as written -> term id, -1 when dropped
  const runs = new Map<string, readonly number[]>()
  const feedAscii = (text: string, weight: number): void => {
    const found = text.match(ASCII_WORDS)
    if (found === null) return
    for (const word of found) {
      let id = words.get(word)
      if (id === undefined) {
        const term = termOf(word.toLowerCase())
        words.set(word, (id = term === undefined ? -1 : builder.intern(term)))
      }
      if (id >= 0) builder.add(id, weight)
    }
  }
  // The rare non-ASCII path: only the runs that hold a non-ASCII character take the Unicode
  // analyser (its regexes and the generic splitter are costly to warm up in a cold process).
  const feedRuns = (text: string, weight: number): void => {
    for (const run of text.match(RUNS) ?? []) {
      if (!NON_ASCII.test(run)) {
        feedAscii(run, weight)
        continue
      }
      let ids = runs.get(run)
      if (ids === undefined) runs.set(run, (ids = tokenize(run).map((t) => builder.intern(t))))
      for (const id of ids) builder.add(id, weight)
    }
  }
  return (text, weight) => {
    if (!(weight > 0) || typeof text !== 'string' || text === '') return
    if (NON_ASCII.test(text)) feedRuns(text, weight)
    else feedAscii(text, weight)
  }
}
