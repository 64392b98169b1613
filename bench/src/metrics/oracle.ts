// The labels-known reference: how much of a log's labelled lines any excerpt of a given size could
// show at most, to read a method's retention against. It is the excerpt a picker that knew the
// labels would write: the labelled lines alone (their first LABEL_CHARS chars), no head, tail,
// line numbers or omission markers, the lines that match the most labels per char first. Scored
// by `retention` like every method, so the two figures use one rule. A label repeated word for
// word (the same error at two places) is matched by one shown line, as `retention` counts it.
import { LABEL_CHARS, retention, stripAnsi, type LabelMatch } from './retention.js'

/**
 * The labels-only excerpt of at most `budget` chars: each distinct labelled line once (cut to
 * {@link LABEL_CHARS}), chosen greedily by labels matched per char, ties to the shorter line, then
 * to the earlier one; shown in log order, one per line. Empty when no label is non-blank.
 */
export function oracleExcerpt(labelled: readonly string[], budget: number): string {
  // Both label kinds are matched by a shown line that starts with their first LABEL_CHARS chars
  // (`line`: equal to it, or its head when longer; `span`: containing it), so the key is that head.
  const groups = new Map<string, { count: number; first: number }>()
  labelled.forEach((raw, i) => {
    const key = stripAnsi(raw).trim().slice(0, LABEL_CHARS)
    if (key === '') return
    const g = groups.get(key)
    if (g === undefined) groups.set(key, { count: 1, first: i })
    else g.count++
  })
  const ranked = [...groups].sort(([a, ga], [b, gb]) => gb.count / (b.length + 1) - ga.count / (a.length + 1) || a.length - b.length || ga.first - gb.first)
  const chosen: Array<[string, number]> = []
  let used = -1 // n lines cost their chars plus n - 1 newlines
  for (const [key, g] of ranked) {
    if (used + key.length + 1 > budget) continue
    used += key.length + 1
    chosen.push([key, g.first])
  }
  return chosen
    .sort((a, b) => a[1] - b[1])
    .map(([key]) => key)
    .join('\n')
}

/** Retention of {@link oracleExcerpt} at each of `budgets` (0 when no label is non-blank). */
export function oracleRetention(labelled: readonly string[], match: LabelMatch, budgets: readonly number[]): number[] {
  return budgets.map((budget) => retention(oracleExcerpt(labelled, budget), labelled, match) ?? 0)
}
