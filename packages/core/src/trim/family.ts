/**
 * Families of look-alike lines, Drain-style: lines whose masked templates (numbers, hex, quoted
 * strings and paths masked, as `weigh.ts` does) have the same number of tokens and the same first
 * token, and agree on at least half of their tokens position by position, are one family: 25
 * failing tests' `[ERROR] testX[name](Class)  Time elapsed: 1 s  <<< FAILURE!` headers, 24
 * clippy findings of one lint. Used by the middle picker (`middle.ts`) on a crowded score level.
 * Cost: one masking walk of at most {@link FAMILY_CHARS} chars per line looked at and at most
 * {@link FAMILY_TRIES} comparisons of {@link FAMILY_TOKENS} numbers; no string is built.
 */
import type { SalientLine } from './salient.js'
import { afterLinePrefix } from './shapes.js'
import { templateCodes, walkTemplate } from './weigh.js'

/**
 * The tokens of the template of `text[from, to)` (leading blanks trimmed, masked as
 * `lineTemplate`), each as a 32-bit hash, at most `max`: what Drain-style families compare
 * position by position. No string built.
 */
function templateTokens(text: string, from: number, to: number, max: number): number[] {
  const n = walkTemplate(text, from, to, true)
  const codes = templateCodes
  const tokens: number[] = []
  let token = 0x811c9dc5
  let inToken = false
  for (let k = 0; k < n && tokens.length < max; k++) {
    const c = codes[k]!
    if (c === 32) {
      if (inToken) tokens.push(token)
      token = 0x811c9dc5
      inToken = false
    } else {
      token = Math.imul(token ^ c, 0x01000193)
      inToken = true
    }
  }
  if (inToken && tokens.length < max) tokens.push(token)
  return tokens
}

/** Families a line is compared with (the latest first) before it starts its own. */
const FAMILY_TRIES = 32

/** Tokens of a line's template compared for families (see {@link familyMiddles}). */
const FAMILY_TOKENS = 24
/** Chars of a line (after a CI timestamp) its family tokens are read from. */
const FAMILY_CHARS = 120

/** The masked tokens of a line (after a CI timestamp and indentation), at most {@link FAMILY_TOKENS}. */
function familyTokens(text: string, s: SalientLine): number[] {
  let from = afterLinePrefix(text, s.start, s.end)
  while (from < s.end && from - s.start < 256 && (text.charCodeAt(from) === 32 || text.charCodeAt(from) === 9)) from++
  return templateTokens(text, from, Math.min(s.end, from + FAMILY_CHARS), FAMILY_TOKENS)
}

/**
 * Lines of one score level that belong to a family of look-alike lines (Drain-style: the same
 * number of tokens, the same first token, at least half of the tokens equal position by
 * position; at least 3 members), except each family's first and last line: the members between,
 * which a crowded level shows without their context so that every member is shown.
 */
export function familyMiddles(text: string, level: readonly SalientLine[]): Set<number> {
  const families: Array<{ tokens: number[]; lines: number[] }> = []
  for (const s of level) {
    const t = familyTokens(text, s)
    let fam: { tokens: number[]; lines: number[] } | undefined
    for (let f = families.length - 1, tries = 0; f >= 0 && tries < FAMILY_TRIES; f--, tries++) {
      const c = families[f]!
      if (c.tokens.length !== t.length || c.tokens[0] !== t[0]) continue
      let same = 0
      for (let k = 0; k < t.length; k++) if (c.tokens[k] === t[k]) same++
      if (same * 2 >= t.length) {
        fam = c
        break
      }
    }
    if (fam === undefined) families.push({ tokens: t, lines: [s.line] })
    else fam.lines.push(s.line)
  }
  const out = new Set<number>()
  for (const f of families) {
    if (f.lines.length < 3) continue
    const lo = Math.min(...f.lines)
    const hi = Math.max(...f.lines)
    for (const n of f.lines) if (n !== lo && n !== hi) out.add(n)
  }
  return out
}
