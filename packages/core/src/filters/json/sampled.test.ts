import { afterEach, describe, expect, it, vi } from 'vitest'
import { JSON_PARSE_MAX_TOKENS, JSON_UNCHECKED_CHARS, tooCostlyToParse } from '../../trim/json-memo.js'
import { summarizeJson } from './json.js'

// Found by fuzzing: a document too costly to parse whole is "described from a few of its
// entries", but each sampled entry is parsed whole however many values it holds. The common API
// shape {"data": [ ...1M objects ]} has one top-level entry, so the whole document is parsed
// anyway (16 MB: ~1.9 s in trimResult, 3x the same array without the wrapper).
describe('summarizeJson on a huge document with one top-level entry', () => {
  afterEach(() => vi.restoreAllMocks())

  it('never hands JSON.parse a text over the cost bound', () => {
    const items = JSON_PARSE_MAX_TOKENS * 2
    const text = `{"data":[${'{"a":1},'.repeat(items)}{}]}`
    const parse = vi.spyOn(JSON, 'parse')
    const out = summarizeJson(text, 4_000)
    expect(out).toContain(`"data": "[not parsed: a JSON array of ${items + 1} items, ${text.length - 9} chars]"`)
    const costly = parse.mock.calls.map((c) => c[0]).filter((arg) => typeof arg === 'string' && tooCostlyToParse(arg))
    expect(costly.map((s) => s.length)).toEqual([])
  })
})

// Found in review: each sampled entry under the unchecked size (256 K chars) was parsed whole, so
// 100 entries of 128 K numbers each (25.6 MB) were all parsed: more than parsing the document.
describe('summarizeJson on a huge document of many mid-sized entries', () => {
  afterEach(() => vi.restoreAllMocks())

  const item = `[${Array(128_000).fill('0').join(',')}]`
  const text = `[${Array(100).fill(item).join(',')}]`

  it('parses at most one unchecked document worth of chars across all its sampled entries', () => {
    const parse = vi.spyOn(JSON, 'parse')
    const out = summarizeJson(text, 8_000)!
    const parsedChars = parse.mock.calls.reduce((s, c) => s + (typeof c[0] === 'string' ? c[0].length : 0), 0)
    expect(parsedChars).toBeLessThanOrEqual(JSON_UNCHECKED_CHARS)
    expect(out).toMatch(/^JSON array\[100\] of array/)
    expect(out).toContain(`[not parsed: a JSON array of 128000 items, ${item.length} chars]`)
  })

  it('says the same whatever an earlier call at another budget read', () => {
    summarizeJson(`[${item}]`, 3_000) // another document: nothing of \`text\` is remembered
    const fresh = summarizeJson(text, 3_000)
    summarizeJson(`[${item}]`, 3_000)
    summarizeJson(text, 12_000)
    expect(summarizeJson(text, 3_000)).toBe(fresh)
  })
})
