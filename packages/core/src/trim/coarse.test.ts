import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { changedSpan } from './coarse.js'
import { countLines } from './text.js'

/** Naive reference: split both into lines (with their `\n`), count shared lines at both ends. */
function naive(source: string, excerpt: string): { start: number; end: number } | undefined {
  const split = (t: string): string[] => t.match(/[^\n]*\n|[^\n]+$/g) ?? []
  const a = split(source)
  const b = split(excerpt)
  let top = 0
  while (top < a.length && top < b.length && a[top] === b[top]) top++
  let bottom = 0
  while (bottom < a.length - top && bottom < b.length - top && a[a.length - 1 - bottom] === b[b.length - 1 - bottom]) bottom++
  // The excerpt's partial last line (no `\n`) only matches the source's last line without one.
  return top + bottom >= a.length ? undefined : { start: top + 1, end: a.length - bottom }
}

describe('changedSpan', () => {
  it('covers the lines between the shared head and tail', () => {
    const src = 'a\nb\nc\nd\ne\n'
    expect(changedSpan(src, 'a\nb\n[3 lines summarized]\ne\n', 5)).toEqual({ start: 3, end: 4, chars: 4 })
    expect(changedSpan(src, src, 5)).toBeUndefined()
    expect(changedSpan(src, 'summary', 5)).toMatchObject({ start: 1, end: 5 })
    expect(changedSpan('one line', 'sum', 1)).toMatchObject({ start: 1, end: 1 })
  })

  it('agrees with a naive line-by-line reference', () => {
    const line = fc.constantFrom('a', 'b', '', 'c c', 'x')
    const text = fc.array(line, { maxLength: 12 }).chain((ls) => fc.constantFrom(ls.join('\n'), ls.join('\n') + '\n'))
    fc.assert(
      fc.property(text, text, (source, excerpt) => {
        const got = changedSpan(source, excerpt, countLines(source))
        const want = naive(source, excerpt)
        expect(got === undefined ? undefined : { start: got.start, end: got.end }).toEqual(want)
        if (got !== undefined) expect(got.chars).toBeGreaterThanOrEqual(0)
      }),
      { numRuns: 1000 },
    )
  })
})
