import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { hasVowel, measure, stem } from './stem.js'

describe('stem (Porter)', () => {
  // Expected values from Porter's published vocabulary/output lists.
  const cases: Array<[string, string]> = [
    ['caresses', 'caress'], ['ponies', 'poni'], ['ties', 'ti'], ['caress', 'caress'], ['cats', 'cat'],
    ['feed', 'feed'], ['agreed', 'agre'], ['plastered', 'plaster'], ['bled', 'bled'], ['motoring', 'motor'],
    ['sing', 'sing'], ['conflated', 'conflat'], ['troubled', 'troubl'], ['sized', 'size'], ['hopping', 'hop'],
    ['tanned', 'tan'], ['falling', 'fall'], ['hissing', 'hiss'], ['fizzed', 'fizz'], ['failing', 'fail'],
    ['filing', 'file'], ['happy', 'happi'], ['sky', 'sky'], ['relational', 'relat'], ['conditional', 'condit'],
    ['rational', 'ration'], ['valenci', 'valenc'], ['digitizer', 'digit'], ['conformabli', 'conform'],
    ['radicalli', 'radic'], ['differentli', 'differ'], ['vileli', 'vile'], ['analogousli', 'analog'],
    ['vietnamization', 'vietnam'], ['predication', 'predic'], ['operator', 'oper'], ['feudalism', 'feudal'],
    ['decisiveness', 'decis'], ['hopefulness', 'hope'], ['callousness', 'callous'], ['formaliti', 'formal'],
    ['sensitiviti', 'sensit'], ['sensibiliti', 'sensibl'], ['triplicate', 'triplic'], ['formative', 'form'],
    ['formalize', 'formal'], ['electriciti', 'electr'], ['electrical', 'electr'], ['hopeful', 'hope'],
    ['goodness', 'good'], ['revival', 'reviv'], ['allowance', 'allow'], ['inference', 'infer'],
    ['airliner', 'airlin'], ['gyroscopic', 'gyroscop'], ['adjustable', 'adjust'], ['defensible', 'defens'],
    ['irritant', 'irrit'], ['replacement', 'replac'], ['adjustment', 'adjust'], ['dependent', 'depend'],
    ['adoption', 'adopt'], ['homologou', 'homolog'], ['communism', 'commun'], ['activate', 'activ'],
    ['angulariti', 'angular'], ['homologous', 'homolog'], ['effective', 'effect'], ['bowdlerize', 'bowdler'],
    ['probate', 'probat'], ['rate', 'rate'], ['cease', 'ceas'], ['controll', 'control'], ['roll', 'roll'],
    ['searching', 'search'], ['searches', 'search'], ['generalization', 'gener'], ['weather', 'weather'],
  ]
  it.each(cases)('%s -> %s', (word, expected) => {
    expect(stem(word)).toBe(expected)
  })

  it('leaves short, numeric and non-ASCII words alone', () => {
    expect(stem('is')).toBe('is')
    expect(stem('v2')).toBe('v2')
    expect(stem('café')).toBe('café')
  })
})

// The char-at-a-time helpers the char-code loops replaced (Porter's definitions, written plainly).
const refConsonant = (w: string, i: number): boolean => {
  const c = w[i]
  if (c === 'a' || c === 'e' || c === 'i' || c === 'o' || c === 'u') return false
  if (c === 'y') return i === 0 ? true : !refConsonant(w, i - 1)
  return true
}
const refMeasure = (w: string, end: number): number => {
  let n = 0
  let i = 0
  while (i < end && refConsonant(w, i)) i++
  while (i < end) {
    while (i < end && !refConsonant(w, i)) i++
    if (i >= end) break
    n++
    while (i < end && refConsonant(w, i)) i++
  }
  return n
}
const refHasVowel = (w: string, end: number): boolean => {
  for (let i = 0; i < end; i++) if (!refConsonant(w, i)) return true
  return false
}

describe('stem helpers', () => {
  it('property: measure and hasVowel equal the plain definitions on every prefix (y chains included)', () => {
    const word = fc.string({ unit: fc.constantFrom(...'aeiouyybcdlstzw'.split('')), maxLength: 14 })
    fc.assert(
      fc.property(word, (w) => {
        for (let end = 0; end <= w.length; end++) {
          expect(measure(w, end)).toBe(refMeasure(w, end))
          expect(hasVowel(w, end)).toBe(refHasVowel(w, end))
        }
      }),
      { numRuns: 3000 },
    )
  })
})
