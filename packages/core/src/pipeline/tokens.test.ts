import fc from 'fast-check'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { describe, expect, it } from 'vitest'
import { DEFAULT_CHARS_PER_TOKEN } from '../trim/tokens.js'
import { trimResult } from './trim-result.js'
import { answerOnce } from './tokens.js'

const o200k = (text: string): number => (text === '' ? 0 : countTokens(text))

const lineArb = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.constantFrom('ERROR: build failed at step 3', '    at com.example.Foo.bar(Foo.java:42)', '[INFO] Downloading 12.3 MB', '日本語のログ行です', '🙂🙂🙂 done', ''),
)
const textArb = fc.array(lineArb, { maxLength: 400 }).map((ls) => ls.join('\n'))

describe('maxTokens', () => {
  it('property: with a real tokenizer (o200k) the excerpt holds the token budget exactly', () => {
    fc.assert(
      fc.property(textArb, fc.integer({ min: 0, max: 1500 }), fc.constantFrom('terminal', 'read_file', 'web_fetch'), (text, maxTokens, tool) => {
        const out = trimResult(text, { tool, maxTokens, tokenizer: o200k })
        expect(o200k(out.text)).toBeLessThanOrEqual(maxTokens)
        expect(out.maxTokens).toBe(maxTokens)
        if (o200k(text) <= maxTokens) expect(out.text).toBe(text) // within budget: byte-identical
      }),
      { numRuns: 120 },
    )
  })

  it('holds both budgets when maxChars is given too', () => {
    const log = Array.from({ length: 3000 }, (_, i) => (i % 97 === 0 ? `ERROR step ${i} failed` : `ok ${i} ${'x'.repeat(i % 50)}`)).join('\n')
    const out = trimResult(log, { tool: 'terminal', maxTokens: 2000, maxChars: 3000, tokenizer: o200k })
    expect(out.text.length).toBeLessThanOrEqual(3000)
    expect(o200k(out.text)).toBeLessThanOrEqual(2000)
    const byTokens = trimResult(log, { tool: 'terminal', maxTokens: 500, tokenizer: o200k })
    expect(o200k(byTokens.text)).toBeLessThanOrEqual(500)
    expect(o200k(byTokens.text)).toBeGreaterThan(350) // uses the budget, not far below it
  })

  it('without a tokenizer, budgets chars at DEFAULT_CHARS_PER_TOKEN per token', () => {
    const log = 'line of a build log\n'.repeat(5000)
    const out = trimResult(log, { tool: 'terminal', maxTokens: 1000 })
    expect(out.maxChars).toBe(1000 * DEFAULT_CHARS_PER_TOKEN)
    expect(out.text.length).toBeLessThanOrEqual(1000 * DEFAULT_CHARS_PER_TOKEN)
  })

  it('a tokenizer that throws still gives a text within budget, never an exception', () => {
    const out = trimResult('x'.repeat(10_000), { maxTokens: 10, tokenizer: () => { throw new Error('boom') } })
    expect(out.text).toBe('')
  })

  it('asks the tokenizer about each text once, the input included, however many re-fits it takes', () => {
    const log = Array.from({ length: 20_000 }, (_, i) => (i % 97 === 0 ? `ERROR step ${i} failed` : `ok ${i} ${'x'.repeat(i % 50)}`)).join('\n')
    const asked = new Map<string, number>()
    const counting = (text: string): number => {
      asked.set(text, (asked.get(text) ?? 0) + 1)
      return o200k(text)
    }
    const out = trimResult(log, { tool: 'terminal', maxTokens: 1500, tokenizer: counting })
    expect(asked.size).toBeGreaterThanOrEqual(3) // the input and at least two re-fits
    expect(asked.get(log)).toBe(1) // (before: once per round, and once more to see whether it fits whole)
    expect(Math.max(...asked.values())).toBe(1)
    expect(o200k(out.text)).toBeLessThanOrEqual(1500)
    expect(out.original.tokens).toBe(o200k(log))
    expect(out.kept.tokens).toBe(o200k(out.text))
  })

  it('a tokenizer that fails once on the input is asked again, and the excerpt is as before', () => {
    const log = Array.from({ length: 5000 }, (_, i) => (i % 50 === 0 ? `ERROR step ${i} failed` : `ok ${i} ${'y'.repeat(i % 40)}`)).join('\n')
    const flaky = (fail: 'throw' | 'nan'): ((text: string) => number) => {
      let calls = 0
      return (text) => {
        if (calls++ === 0) {
          if (fail === 'throw') throw new Error('warming up')
          return Number.NaN
        }
        return o200k(text)
      }
    }
    const steady = trimResult(log, { tool: 'terminal', maxTokens: 800, tokenizer: o200k })
    for (const fail of ['throw', 'nan'] as const) {
      const out = trimResult(log, { tool: 'terminal', maxTokens: 800, tokenizer: flaky(fail) })
      expect(out.text).toBe(steady.text) // (a remembered failure made it '': its count of the input read as too many)
      expect(out.text.length).toBeGreaterThan(1000)
      expect(out.original.tokens).toBe(o200k(log)) // (the input asked again in the next round)
    }
  })
})

describe('answerOnce', () => {
  it('gives each text its first count; a throw or a nonsense answer is asked again', () => {
    let calls = 0
    const once = answerOnce((text) => {
      calls++
      if (text === 'bad') throw new Error('no')
      if (text === 'odd') return calls === 3 ? Number.NaN : -1
      return text.length * 10 + calls
    })
    expect(once('ab')).toBe(21)
    expect(once('abc')).toBe(32)
    expect(once('ab')).toBe(21)
    expect(Number.isNaN(once('odd'))).toBe(true)
    expect(once('odd')).toBe(-1)
    expect(() => once('bad')).toThrow('no')
    expect(() => once('bad')).toThrow('no')
    expect(calls).toBe(6)
  })
})
