import { describe, expect, it } from 'vitest'
import { regexWindow, screenPattern } from './regex.js'

const screen = (p: string, o: { literal?: boolean; ignoreCase?: boolean } = {}) => screenPattern(p, { maxChars: 256, ...o })

describe('screenPattern', () => {
  it('searches plain text and dotted text literally', () => {
    for (const p of ['error', 'v1.2.3', 'main.rs', 'a.b.c d', '...']) expect(screen(p)).toMatchObject({ kind: 'literal', needle: p, why: 'plain' })
  })

  it('searches anything literally when asked, brackets and all', () => {
    expect(screen('[ERROR] (a+)+$', { literal: true })).toMatchObject({ kind: 'literal', why: 'asked' })
  })

  it('falls back to literal text for an invalid regex, unless literal: false', () => {
    expect(screen('foo(bar')).toMatchObject({ kind: 'literal', why: 'invalid-regex' })
    expect(screen('foo(bar', { literal: false })).toMatchObject({ kind: 'refused' })
  })

  it('accepts ordinary regexes', () => {
    for (const p of ['^error:', 'FAILED.*test_', '\\bTypeError\\b', 'def \\w+\\(', '"name":\\s*"[^"]+"', 'warn|error', '(foo|bar) baz', 'x{2,5}']) {
      expect(screen(p).kind, p).toBe('regex')
    }
  })

  it('refuses patterns that can backtrack badly, and says why', () => {
    const cases: Array<[string, RegExp]> = [
      ['(a+)+$', /nests repeats/],
      ['(\\w+\\s?)*$', /nests repeats/],
      ['(a|aa)*b', /group of alternatives/],
      ['(x|xy)+z', /group of alternatives/],
      ['(foo|)+z', /group of alternatives/],
      ['(ab|a)+z', /group of alternatives/],
      ['(a)\\1', /back-reference/],
      ['(?<n>a)\\k<n>', /back-reference/],
      ['a(?=b)', /look-around/],
      ['(?<!a)b', /look-around/],
      ['a*b*c*d*e*f', /5 unbounded repeats \(limit 4\)/],
      ['a{1,100}a{1,}a+\\w*\\w+', /5 unbounded repeats/],
      ['\\w+\\w+\\d+\\w+\\s*\\w+', /6 unbounded repeats/],
      ['a?b?c?d?e?f?g?h?i?j?k?l?m?n?o?p?q?r?s?t?u?v?w?x?y?z?\\d*\\d*\\d*', /too many optional or repeated parts/],
    ]
    for (const [p, why] of cases) {
      const v = screen(p)
      expect(v.kind, p).toBe('refused')
      if (v.kind === 'refused') {
        expect(v.reason, p).toMatch(why)
        expect(v.reason).toMatch(/^Regex refused/)
        expect(v.reason).toMatch(/may be slow/)
        expect(v.reason).not.toMatch(/exponential/)
      }
    }
  })

  it('accepts linear patterns: adjacent repeats of disjoint atoms, repeated prefix-free literal alternatives', () => {
    expect(screen('\\w+\\s+\\w+\\s+\\w+\\s+\\w+=')).toMatchObject({ kind: 'regex', window: 10_000 }) // one chain: where each run ends is forced
    expect(screen('(foo|bar)+')).toMatchObject({ kind: 'regex', window: 10_000 })
    expect(screen('(x|y)+z').kind).toBe('regex')
    expect(screen('(?:GET|POST|PUT) /api/\\S+ \\d+').kind).toBe('regex')
    expect(screen('(foo|FOO)+', { ignoreCase: true }).kind).toBe('refused') // the same alternative twice, case aside
    // Not disjoint (\d is in \w), or optional (\s* can be empty): these still count one each.
    expect(screen('\\w+\\d+')).toMatchObject({ kind: 'regex', window: 669 })
    expect(screen('\\w+\\s*\\w+')).toMatchObject({ kind: 'regex', window: 186 })
  })

  it('sizes the regex window by the worst case of its repeats', () => {
    expect(regexWindow(0, 1)).toBe(100_000)
    expect(regexWindow(1, 1)).toBe(10_000)
    expect(regexWindow(2, 1)).toBe(669)
    expect(regexWindow(3, 1)).toBe(186)
    expect(regexWindow(4, 1)).toBe(90)
    expect(regexWindow(2, 8)).toBeLessThan(regexWindow(2, 1))
    const v = screen('ERROR.*failed')
    expect(v).toMatchObject({ kind: 'regex', window: 10_000 })
    expect(screen('a+?b')).toMatchObject({ kind: 'regex', window: 10_000 }) // a lazy ? is not another repeat
  })

  it('does not count escaped or bracketed symbols as syntax', () => {
    expect(screen('[(|)*+]\\(\\*\\+x+').kind).toBe('regex')
    expect(screen('[a|b]+c').kind).toBe('regex') // | inside a class is not an alternative
  })

  it('refuses empty and over-long patterns', () => {
    expect(screen('')).toMatchObject({ kind: 'refused' })
    expect(screen('a'.repeat(257))).toMatchObject({ kind: 'refused', reason: expect.stringMatching(/257 chars; the limit is 256/) })
  })
})
