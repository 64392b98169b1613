import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { trimResult } from '../pipeline/trim-result.js'
import { HANDLE_HEADER, parseExcerpt, splitHandle } from './excerpt.js'

const HANDLE = [
  HANDLE_HEADER,
  'Full result of `terminal`: id 3f2a9c01b7e4aa, 123456 chars, 5000 lines, kind log.',
  'Read exactly what you need with fetch_result:',
  '- fetch_result {"id":"3f2a9c01b7e4aa","mode":"range","start":41,"count":100}',
  '- fetch_result {"id":"3f2a9c01b7e4aa","mode":"stat"}',
].join('\n')

/** A build log of `n` lines with a few failures in the middle. */
function buildLog(n: number, seed: number): string {
  const out: string[] = []
  for (let i = 1; i <= n; i++) {
    if ((i * 7919 + seed) % 997 === 0) out.push(`ERROR: test_${i} failed: expected ${i} got ${i + 1}`)
    else out.push(`[INFO] compiling module ${i} of ${n} (step ${seed})`)
  }
  return out.join('\n') + '\n'
}

/** Every `N: text` line of an excerpt must be line N of the original. */
function numberedLinesAreOriginal(excerpt: string, original: string): void {
  const lines = original.split('\n')
  for (const l of excerpt.split('\n')) {
    const m = /^(\d+): (.*)$/.exec(l)
    if (m !== null) expect(lines[Number(m[1]) - 1]!.startsWith(m[2]!.replace(/… \[\+\d+ chars\]$/, ''))).toBe(true)
  }
}

describe('re-trimming spillway excerpts', () => {
  const log = buildLog(5000, 3)
  const first = trimResult(log, { tool: 'terminal', maxChars: 8000 }).text

  it('reads an excerpt back in the original numbers', () => {
    const ex = parseExcerpt(first)!
    expect(ex).toBeDefined()
    expect(ex.lines).toBe(5000)
  })

  it('keeps an excerpt that fits as it is', () => {
    const again = trimResult(first, { tool: 'terminal', maxChars: 8000 })
    expect(again.text).toBe(first)
    expect(again.changed).toBe(false)
  })

  it('re-fits a smaller budget in the original line numbers, not the excerpt\'s', () => {
    const again = trimResult(first, { tool: 'terminal', maxChars: 3000 })
    expect(again.applied).toEqual(['refit'])
    expect(again.text.length).toBeLessThanOrEqual(3000)
    expect(again.text).toMatch(/\[\.\.\. spillway: omitted lines \d+-\d+ of 5000 \(/)
    numberedLinesAreOriginal(again.text, log)
    expect(again.omitted.every((r) => r.end <= 5000)).toBe(true)
    expect(again.omitted[again.omitted.length - 1]!.end).toBeGreaterThan(1000)
  })

  it('keeps the handle block, and never adds a second one', () => {
    const withHandle = `${first}\n${HANDLE}`
    expect(splitHandle(withHandle)?.handle).toBe(HANDLE)
    const again = trimResult(withHandle, { tool: 'terminal', maxChars: 3500 })
    expect(again.text.endsWith(HANDLE)).toBe(true)
    expect(again.text.split(HANDLE_HEADER)).toHaveLength(2)
    expect(again.text.length).toBeLessThanOrEqual(3500)
    numberedLinesAreOriginal(again.text, log)
  })

  it('trims other text above a handle and keeps the handle', () => {
    const text = `${'plain line of output\n'.repeat(2000)}${HANDLE}`
    const again = trimResult(text, { tool: 'terminal', maxChars: 2000 })
    expect(again.text.endsWith(`\n${HANDLE}`)).toBe(true)
    expect(again.text.length).toBeLessThanOrEqual(2000)
  })

  it('property: any re-trim holds the budget and keeps original numbers', () => {
    fc.assert(
      fc.property(fc.integer({ min: 300, max: 4000 }), fc.integer({ min: 0, max: 50 }), fc.integer({ min: 1000, max: 9000 }), fc.integer({ min: 0, max: 8000 }), fc.boolean(), (n, seed, b1, b2, handle) => {
        const original = buildLog(n, seed)
        const once = trimResult(original, { tool: 'terminal', maxChars: b1 }).text
        const input = handle ? `${once}\n${HANDLE}` : once
        const twice = trimResult(input, { tool: 'terminal', maxChars: b2 })
        expect(twice.text.length).toBeLessThanOrEqual(b2)
        // An excerpt cut again with room for a marker and the handle is re-fitted, in the original's numbers.
        if (once !== original && input.length > b2 && b2 >= 1200) {
          expect(twice.applied).toEqual(['refit'])
          expect(twice.text).toContain(` of ${n} (`)
        }
        if (twice.applied.includes('refit')) numberedLinesAreOriginal(twice.text, original)
        if (handle && twice.text.includes(HANDLE_HEADER)) expect(twice.text.split(HANDLE_HEADER)).toHaveLength(2)
      }),
      { numRuns: 150 },
    )
  })
})
