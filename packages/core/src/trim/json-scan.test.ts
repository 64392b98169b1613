import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { trimResult } from '../pipeline/trim-result.js'
import { JSON_PARSE_MAX_TOKENS, tooCostlyToParse } from './json-memo.js'
import { scanJsonTop } from './json-scan.js'

describe('scanJsonTop', () => {
  it('finds exactly the entries JSON.parse finds, whatever the formatting (model check)', () => {
    const doc = fc.oneof(fc.array(fc.jsonValue(), { maxLength: 12 }), fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 12 }))
    fc.assert(
      fc.property(doc, fc.constantFrom(undefined, 0, 2, '\t'), (v, indent) => {
        const text = JSON.stringify(v, null, indent)
        const top = scanJsonTop(` ${text}\n`)!
        expect(top.kind).toBe(Array.isArray(v) ? 'array' : 'object')
        const got = top.starts.map((s, i) => {
          const slice = ` ${text}\n`.slice(s, top.ends[i])
          return Array.isArray(v) ? JSON.parse(slice) : Object.entries(JSON.parse(`{${slice}}`))[0]
        })
        // Compared through JSON (fc.jsonValue has -0, which JSON writes as 0).
        expect(JSON.stringify(got)).toBe(JSON.stringify(Array.isArray(v) ? v : Object.entries(v)))
      }),
    )
  })

  it('answers undefined for what is not one JSON object or array', () => {
    for (const t of ['', '42', '"x"', '{"a":1', '[1,2]]', '{"a":"unterminated}', '[1] x']) expect(scanJsonTop(t), t).toBeUndefined()
    expect(scanJsonTop('{"a\\"b":"c\\\\"}')?.starts).toHaveLength(1) // escaped quote, escaped backslash
  })
})

describe('huge JSON is trimmed without a whole parse (issue 12 item 8)', () => {
  const big: Record<string, unknown> = {}
  for (let i = 0; i < 1_000_000; i++) big[`key_${i}`] = i % 3 === 0 ? `value ${i}` : i
  const text = JSON.stringify(big)

  it('a 1M-key object: synopsis from its first and last entries, budget held, deterministic', () => {
    expect(tooCostlyToParse(text)).toBe(true)
    const out = trimResult(text, { maxChars: 4_000 })
    expect(out.text.length).toBeLessThanOrEqual(4_000)
    expect(out.kind).toBe('json')
    expect(out.text).toMatch(/^JSON object with 1000000 keys \(22444453 chars: described from its first and last entries, not parsed whole\)/)
    expect(out.text).toContain('"key_0": "value 0"')
    expect(out.text).toContain('"key_999999": "value 999999"')
    expect(out.text).toMatch(/\[\.\.\. \d+ keys omitted \(keys \d+-\d+ of 1000000\) \.\.\.\]/)
    expect(trimResult(text, { maxChars: 4_000 }).text).toBe(out.text)
  })

  it('a 1M-item array: item keys from the sampled items, head and tail items with their true indices', () => {
    const arr = JSON.stringify(Array.from({ length: 1_000_000 }, (_, i) => ({ id: i, ok: i % 2 === 0 })))
    const out = trimResult(arr, { maxChars: 3_000 })
    expect(out.text.length).toBeLessThanOrEqual(3_000)
    expect(out.text).toMatch(/^JSON array\[1000000\] of object \(\d+ chars: described from its first and last entries, not parsed whole\); item keys \(in the 100 sampled objects unless noted\): id: number, ok: boolean/)
    expect(out.text).toContain('[0] {"id":0,"ok":true}')
    expect(out.text).toContain('[999999] {"id":999999,"ok":false}')
  })

  it('documents under the token bound, and big single strings in an envelope, are still parsed whole', () => {
    const envelope = JSON.stringify({ output: `${'building target ok\n'.repeat(60_000)}FAILED here`, exit_code: 1 })
    expect(envelope.length).toBeGreaterThan(1_000_000)
    expect(tooCostlyToParse(envelope)).toBe(false)
    const small = JSON.stringify(Array.from({ length: JSON_PARSE_MAX_TOKENS / 4 }, (_, i) => ({ i })))
    expect(tooCostlyToParse(small)).toBe(false)
    expect(trimResult(small, { maxChars: 2_000 }).text).not.toContain('not parsed whole')
  })
})
