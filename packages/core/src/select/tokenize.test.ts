import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { splitAscii, splitUnicode, splitWords, tokenize } from './tokenize.js'

describe('splitWords', () => {
  it('splits identifiers on _ - . : and camelCase', () => {
    expect(splitWords('github_create-issue.v2:list')).toEqual(['github', 'create', 'issue', 'v', '2', 'list'])
    expect(splitWords('getHTTPResponseCode')).toEqual(['get', 'http', 'response', 'code'])
    expect(splitWords('browserNavigate')).toEqual(['browser', 'navigate'])
    expect(splitWords('v2api3x')).toEqual(['v', '2', 'api', '3', 'x'])
    expect(splitWords('aBcD')).toEqual(['a', 'bc', 'd'])
  })
  it('the ASCII fast path splits exactly as the Unicode rules do', () => {
    const ascii = fc.string({ unit: fc.constantFrom(...'aZbYz09_- .:AB\tcD1x'.split('')), maxLength: 40 })
    fc.assert(fc.property(fc.oneof(ascii, fc.string({ maxLength: 40 })), (s) => {
      if (/^[\x00-\x7f]*$/.test(s)) expect(splitAscii(s)).toEqual(splitUnicode(s))
      expect(splitWords(s)).toEqual(splitUnicode(s))
    }), { numRuns: 2000 })
  })
  it('keeps non-ASCII letters', () => {
    expect(splitWords('Prévision météo')).toEqual(['prévision', 'météo'])
  })
})

describe('tokenize', () => {
  it('drops stop words and stems', () => {
    expect(tokenize('Can you please search the files for errors?')).toEqual(['search', 'file', 'error'])
  })
  it('meets a query and a name across word forms', () => {
    expect(tokenize('searching issues')).toEqual(tokenize('search_issue'))
  })
})
