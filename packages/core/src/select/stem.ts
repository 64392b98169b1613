// Porter (1980) stemmer, the classic rule set. Conflates "searching", "searches", "searched" to
// "search" so a query and a description meet even when their word forms differ.

// Chars as char codes: a cold index build stems thousands of distinct words in V8's interpreter,
// where a loop over char codes is several times cheaper than one-char strings and calls per char.
const Y = 121

/** a, e, i, o, u. */
const isVowelCode = (c: number): boolean => c === 97 || c === 101 || c === 105 || c === 111 || c === 117

/** Porter's consonant: not a, e, i, o, u, and not a y that follows a consonant. */
const isConsonant = (w: string, i: number): boolean => {
  const c = w.charCodeAt(i)
  if (isVowelCode(c)) return false
  if (c === Y) return i === 0 ? true : !isConsonant(w, i - 1)
  return true
}

/** m(): number of VC sequences in w[0..end), i.e. of vowels followed by a consonant. Exported for tests. */
export const measure = (w: string, end: number): number => {
  let n = 0
  let vowel = false
  let consonant = false // whether the previous char is a consonant
  for (let i = 0; i < end; i++) {
    const c = w.charCodeAt(i)
    consonant = !isVowelCode(c) && (c !== Y || i === 0 || !consonant)
    if (!consonant) vowel = true
    else if (vowel) {
      n++
      vowel = false
    }
  }
  return n
}

/** Whether w[0..end) holds a vowel (a y after a consonant counts). Exported for tests. */
export const hasVowel = (w: string, end: number): boolean => {
  let consonant = false
  for (let i = 0; i < end; i++) {
    const c = w.charCodeAt(i)
    consonant = !isVowelCode(c) && (c !== Y || i === 0 || !consonant)
    if (!consonant) return true
  }
  return false
}

const endsDoubleConsonant = (w: string): boolean => {
  const n = w.length
  return n >= 2 && w.charCodeAt(n - 1) === w.charCodeAt(n - 2) && isConsonant(w, n - 1)
}

/** *o: stem ends cvc where the last c is not w, x or y. */
const endsCvc = (w: string, end: number): boolean => {
  if (end < 3) return false
  const c = w[end - 1]
  return isConsonant(w, end - 3) && !isConsonant(w, end - 2) && isConsonant(w, end - 1) && c !== 'w' && c !== 'x' && c !== 'y'
}

/** Replaces suffix `s` by `r` when the remaining stem has measure > `minM`; returns undefined if `s` does not match. */
const replaceIf = (w: string, s: string, r: string, minM: number): string | undefined => {
  if (!w.endsWith(s)) return undefined
  const stemEnd = w.length - s.length
  return measure(w, stemEnd) > minM ? w.slice(0, stemEnd) + r : w
}

const STEP2: ReadonlyArray<readonly [string, string]> = [
  ['ational', 'ate'], ['tional', 'tion'], ['enci', 'ence'], ['anci', 'ance'], ['izer', 'ize'],
  ['bli', 'ble'], ['alli', 'al'], ['entli', 'ent'], ['eli', 'e'], ['ousli', 'ous'],
  ['ization', 'ize'], ['ation', 'ate'], ['ator', 'ate'], ['alism', 'al'], ['iveness', 'ive'],
  ['fulness', 'ful'], ['ousness', 'ous'], ['aliti', 'al'], ['iviti', 'ive'], ['biliti', 'ble'], ['logi', 'log'],
]
const STEP3: ReadonlyArray<readonly [string, string]> = [
  ['icate', 'ic'], ['ative', ''], ['alize', 'al'], ['iciti', 'ic'], ['ical', 'ic'], ['ful', ''], ['ness', ''],
]
const STEP4 = ['al', 'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ment', 'ent', 'ion', 'ou', 'ism', 'ate', 'iti', 'ous', 'ive', 'ize']

/** Rules grouped by the suffix's last letter: a word is only checked against the rules it can end with. */
const byLastLetter = (rules: ReadonlyArray<readonly [string, string]>): ReadonlyMap<string, ReadonlyArray<readonly [string, string]>> => {
  const m = new Map<string, Array<readonly [string, string]>>()
  for (const rule of rules) {
    const last = rule[0][rule[0].length - 1]!
    let list = m.get(last)
    if (list === undefined) m.set(last, (list = []))
    list.push(rule)
  }
  return m
}
const STEP2_BY_LAST = byLastLetter(STEP2)
const STEP3_BY_LAST = byLastLetter(STEP3)
const STEP4_BY_LAST = byLastLetter(STEP4.map((s) => [s, ''] as const))

/** The rule with the longest matching suffix, among those ending in the word's last letter. */
const firstSuffix = (w: string, rules: ReadonlyMap<string, ReadonlyArray<readonly [string, string]>>): readonly [string, string] | undefined => {
  const candidates = rules.get(w[w.length - 1] ?? '')
  if (candidates === undefined) return undefined
  let best: readonly [string, string] | undefined
  for (const rule of candidates) if (w.endsWith(rule[0]) && (best === undefined || rule[0].length > best[0].length)) best = rule
  return best
}

const LOWER_ASCII = /^[a-z]+$/
const LSZ = /[lsz]$/

/**
 * Porter stem of a lowercase ASCII word. Words of 1-2 letters and words with non-ASCII letters or
 * digits come back unchanged.
 */
export function stem(word: string): string {
  if (word.length <= 2 || !LOWER_ASCII.test(word)) return word
  let w = word
  // Step 1a: plurals.
  if (w.endsWith('sses')) w = w.slice(0, -2)
  else if (w.endsWith('ies')) w = w.slice(0, -2)
  else if (w.endsWith('ss')) { /* keep */ }
  else if (w.endsWith('s')) w = w.slice(0, -1)
  // Step 1b: -ed, -ing.
  let tidy = false
  if (w.endsWith('eed')) {
    if (measure(w, w.length - 3) > 0) w = w.slice(0, -1)
  } else if (w.endsWith('ed') && hasVowel(w, w.length - 2)) {
    w = w.slice(0, -2)
    tidy = true
  } else if (w.endsWith('ing') && hasVowel(w, w.length - 3)) {
    w = w.slice(0, -3)
    tidy = true
  }
  if (tidy) {
    if (w.endsWith('at') || w.endsWith('bl') || w.endsWith('iz')) w += 'e'
    else if (endsDoubleConsonant(w) && !LSZ.test(w)) w = w.slice(0, -1)
    else if (measure(w, w.length) === 1 && endsCvc(w, w.length)) w += 'e'
  }
  // Step 1c: y -> i after a vowel in the stem.
  if (w.endsWith('y') && hasVowel(w, w.length - 1)) w = w.slice(0, -1) + 'i'
  // Step 2 and 3: double and single suffixes, when the stem has m > 0.
  const r2 = firstSuffix(w, STEP2_BY_LAST)
  if (r2 !== undefined) w = replaceIf(w, r2[0], r2[1], 0) ?? w
  const r3 = firstSuffix(w, STEP3_BY_LAST)
  if (r3 !== undefined) w = replaceIf(w, r3[0], r3[1], 0) ?? w
  // Step 4: drop a suffix when m > 1 (-ion only after s or t).
  const s4 = firstSuffix(w, STEP4_BY_LAST)?.[0]
  if (s4 !== undefined) {
    const end = w.length - s4.length
    const okIon = s4 !== 'ion' || (end > 0 && (w[end - 1] === 's' || w[end - 1] === 't'))
    if (okIon && measure(w, end) > 1) w = w.slice(0, end)
  }
  // Step 5: final -e and -ll.
  if (w.endsWith('e')) {
    const m = measure(w, w.length - 1)
    if (m > 1 || (m === 1 && !endsCvc(w, w.length - 1))) w = w.slice(0, -1)
  }
  if (measure(w, w.length) > 1 && endsDoubleConsonant(w) && w.endsWith('l')) w = w.slice(0, -1)
  return w
}
