import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MAX_SESSION_ID_CHARS, assertSessionId, isSessionId } from './ids.js'

describe('session ids: one rule', () => {
  it('isSessionId holds exactly when assertSessionId does not throw', () => {
    const arb = fc.oneof(fc.string({ maxLength: 140 }), fc.string({ unit: 'binary', maxLength: 140 }), fc.constantFrom('', 'a\n', 'x'.repeat(MAX_SESSION_ID_CHARS), 'x'.repeat(MAX_SESSION_ID_CHARS + 1), '../..'), fc.anything())
    fc.assert(
      fc.property(arb, (s) => {
        let threw = false
        try {
          assertSessionId(s)
        } catch {
          threw = true
        }
        expect(isSessionId(s)).toBe(!threw)
      }),
    )
  })

  it('accepts printable ids up to 128 chars, refuses empty, long, control chars and non-strings', () => {
    expect(isSessionId('chat-1')).toBe(true)
    expect(isSessionId('../..')).toBe(true) // a plain name: stores escape it, never a path
    expect(isSessionId('x'.repeat(MAX_SESSION_ID_CHARS))).toBe(true)
    for (const bad of ['', 'x'.repeat(MAX_SESSION_ID_CHARS + 1), 'a\u0000b', 'a\u007f', 42, undefined]) expect(isSessionId(bad)).toBe(false)
  })

  it('refuses ill-formed UTF-16 (lone surrogates), accepts surrogate pairs', () => {
    for (const bad of ['user\uD800', 'user\uDC00', '\uDC00\uD800', 'a\uD83Db']) {
      expect(isSessionId(bad), JSON.stringify(bad)).toBe(false)
      expect(() => assertSessionId(bad)).toThrow(expect.objectContaining({ code: 'invalid_id', message: expect.stringMatching(/lone surrogate/) }))
    }
    expect(isSessionId('user\uD83D\uDE00')).toBe(true) // 😀: a whole pair
  })
})
