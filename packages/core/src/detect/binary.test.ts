import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { binaryPlaceholder, describeBytes, invalidUtf8At } from './binary.js'

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])

describe('describeBytes', () => {
  it('names a PNG by its magic bytes and says why it is binary', () => {
    const v = describeBytes(PNG)
    expect(v).toEqual({ binary: true, type: 'image/png', reason: 'NUL byte at 8', bytes: 16 })
    expect(binaryPlaceholder(v)).toBe('[binary output: image/png, 16 bytes (NUL byte at 8); not shown]')
  })

  it('calls invalid UTF-8 binary, with the offset', () => {
    const v = describeBytes(Uint8Array.from([0x68, 0x69, 0xc3, 0x28]))
    expect(v.binary).toBe(true)
    expect(v.reason).toBe('invalid UTF-8 at byte 2')
  })

  it('refuses overlong forms, surrogates and truncated sequences', () => {
    expect(invalidUtf8At(Uint8Array.from([0xc0, 0xaf]))).toBe(0) // overlong '/'
    expect(invalidUtf8At(Uint8Array.from([0xe0, 0x80, 0xaf]))).toBe(0) // overlong
    expect(invalidUtf8At(Uint8Array.from([0xed, 0xa0, 0x80]))).toBe(0) // encoded surrogate
    expect(invalidUtf8At(Uint8Array.from([0x61, 0xf0, 0x9f, 0x98]))).toBe(1) // truncated emoji
    expect(invalidUtf8At(Uint8Array.from([0xf4, 0x90, 0x80, 0x80]))).toBe(0) // above U+10FFFF
  })

  it('agrees with a fatal TextDecoder on any bytes (model-based)', () => {
    const fatal = new TextDecoder('utf-8', { fatal: true })
    const valid = (b: Uint8Array) => {
      try {
        fatal.decode(b)
        return true
      } catch {
        return false
      }
    }
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 64 }), fc.string({ unit: 'grapheme' }).map((s) => new TextEncoder().encode(s))), (b) => {
        expect(invalidUtf8At(b) === -1).toBe(valid(b))
      }),
      { numRuns: 3000 },
    )
  })

  it('keeps text as text, with its type', () => {
    const bytes = new TextEncoder().encode('héllo ✓ 😀\n')
    expect(describeBytes(bytes)).toEqual({ binary: false, type: 'text/plain', bytes: bytes.length })
  })
})
