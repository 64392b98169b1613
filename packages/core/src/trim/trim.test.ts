import { describe, expect, it } from 'vitest'
import { trimResult } from '../pipeline/trim-result.js'

describe('trimResult on bad input', () => {
  it('cuts 20 MB on one line to the budget, saying which chars were left out', () => {
    const line = 'a'.repeat(10_000_000) + 'MIDDLE' + 'z'.repeat(10_000_000)
    const out = trimResult(line, { maxChars: 4000 })
    expect(out.text.length).toBeLessThanOrEqual(4000)
    expect(out.text.startsWith('aaaa')).toBe(true)
    expect(out.text.endsWith('zzzz')).toBe(true)
    expect(out.text).toMatch(/omitted line 1 of 1 \(\d+ chars, from char \d+ of line 1, up to char \d+ of line 1\)/)
    expect(out.original).toMatchObject({ chars: 20_000_006, lines: 1 })
    expect(out.omitted).toHaveLength(1)
    // What is shown plus what is omitted is the whole line.
    const marker = /\n?\[\.\.\. spillway[^\]]*\]\n?/.exec(out.text)![0]
    expect(out.omitted[0]!.chars + out.text.length - marker.length).toBe(20_000_006)
  })

  it('merges repeated lines over budget and keeps the original line numbers', () => {
    const setup = Array.from({ length: 100 }, (_, i) => `setup step ${i} ok`)
    const lines = ['$ ./deploy.sh', ...setup, ...Array<string>(3000).fill('WARN retrying connection to db:5432...'), 'ERROR: gave up after 3000 retries', ...Array.from({ length: 400 }, (_, i) => `cleanup step ${i} done`), 'exit code 1']
    const text = lines.join('\n')
    for (const tool of ['terminal', undefined]) {
      const out = trimResult(text, tool === undefined ? { maxChars: 1500 } : { maxChars: 1500, tool })
      expect(out.applied.slice(0, 1)).toEqual(['dedup-exact'])
      expect(out.text.length).toBeLessThanOrEqual(1500)
      expect(out.text).toContain('WARN retrying connection to db:5432... (x3000)')
      expect(out.text).toContain('3102: ERROR: gave up after 3000 retries')
      expect(out.text).toMatch(/^102: WARN retrying connection to db:5432\.\.\. \(x3000\)$/m)
      expect(out.text).toContain('exit code 1')
      const marker = /spillway: omitted lines (\d+)-(\d+) of (\d+)/.exec(out.text)
      expect(Number(marker?.[3])).toBe(3503)
      for (const r of out.omitted) {
        expect(r.start > 3101 || r.end < 102).toBe(true) // the merged run is shown with its count, not omitted
        const span = lines.slice(r.start - 1, r.end).join('\n').length
        expect(r.chars).toBeLessThanOrEqual(span + 1)
        expect(r.chars).toBeGreaterThan(0)
      }
    }
  })

  it('ignores a filter line map that does not fit its text, and reports a coarse range instead', () => {
    const text = Array.from({ length: 400 }, (_, i) => `line ${i} of the build output`).join('\n')
    const bad = { name: 'bad', kinds: 'any' as const, lossless: false, preservesLines: false, run: (t: string) => ({ text: t.split('\n').slice(0, 300).join('\n'), lineStarts: [1, 1, 2] }) }
    const out = trimResult(text, { maxChars: 2000 }, { filters: [bad] })
    expect(out.applied).toEqual(['bad', 'fit'])
    expect(out.omittedExact).toBe(false)
    expect(out.omitted).toHaveLength(1)
    expect(out.omitted[0]!.end).toBe(400)
    expect(out.text).not.toMatch(/^\d+: /m)
  })

  it('handles a million empty lines', () => {
    const text = '\n'.repeat(1_000_000)
    const out = trimResult(text, { maxChars: 1000 })
    expect(out.text.length).toBeLessThanOrEqual(1000)
    expect(out.original.lines).toBe(1_000_000)
    expect(out.text).toBe('[1000000 blank lines]\n') // blank-run collapse, with the count
    const plain = trimResult(text, { maxChars: 1000, profiles: { default: { filters: [] } } })
    expect(plain.text.length).toBeLessThanOrEqual(1000)
    expect(plain.text).toContain('of 1000000')
  })

  it('keeps lone surrogates and NUL bytes without throwing', () => {
    const text = ('\uD800 lone \uDC00 \u0000 nul ').repeat(2000)
    const out = trimResult(text, { maxChars: 500 })
    expect(out.text.length).toBeLessThanOrEqual(500)
    expect(out.kind).toBe('binary')
  })

  it('survives JSON nested 100,000 levels deep', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000)
    const out = trimResult(deep, { maxChars: 1000 })
    expect(out.text.length).toBeLessThanOrEqual(1000)
    expect(out.changed).toBe(true)
  })

  it('handles carriage-return progress bars and ANSI colour', () => {
    const bar = Array.from({ length: 5000 }, (_, i) => `\r\x1b[32m[${'#'.repeat(i % 50)}] ${i}\x1b[0m`).join('')
    const text = `start\n${bar}\n\x1b[31mERROR: disk full\x1b[0m\ndone\n`
    const out = trimResult(text, { maxChars: 800, tool: 'terminal' })
    expect(out.text.length).toBeLessThanOrEqual(800)
    expect(out.text).toContain('ERROR: disk full')
    expect(out.text.startsWith('start\n')).toBe(true)
    expect(out.text.endsWith('done\n')).toBe(true)
  })

  it('returns something within a budget smaller than any marker', () => {
    const text = 'x'.repeat(5000)
    for (const maxChars of [0, 1, 2, 5, 12, 30]) {
      const out = trimResult(text, { maxChars })
      expect(out.text.length).toBeLessThanOrEqual(maxChars)
      expect(out.changed).toBe(true)
    }
    expect(trimResult(text, { maxChars: 0 }).text).toBe('')
    expect(trimResult(text, { maxChars: 30 }).text).toMatch(/^x+\[…\d+ chars cut\]x+$/)
  })

  it('accepts non-string results by serialising them', () => {
    const out = trimResult({ a: 1 } as never, { maxChars: 100 })
    expect(out.text).toBe('{"a":1}')
  })
})

describe('trimResult behaviour', () => {
  const log = (n: number, errorAt: number[]): string =>
    Array.from({ length: n }, (_, i) => (errorAt.includes(i + 1) ? `ERROR: step ${i + 1} failed` : `info: step ${i + 1} ok`)).join('\n') + '\n'

  it('numbers middle lines and states lines, chars and salient lines omitted', () => {
    const out = trimResult(log(2000, [900, 1500]), { maxChars: 2000 })
    expect(out.text).toContain('900: ERROR: step 900 failed')
    expect(out.text).toContain('1500: ERROR: step 1500 failed')
    expect(out.text).toMatch(/\[\.\.\. spillway: omitted lines \d+-\d+ of 2000 \(\d+ chars\); 2 salient lines there, first at line 900;/)
    expect(out.salient).toEqual([900, 1500])
    expect(out.applied).toEqual(['fit'])
    expect(out.kept.chars).toBe(out.text.length)
  })

  it('says so when the omitted span holds no salient line', () => {
    const out = trimResult(log(2000, []), { maxChars: 2000 })
    expect(out.text).toContain('no error or warning lines there')
    expect(out.salient).toEqual([])
  })

  it('splits head and tail by profile: read_file keeps more head, terminal more tail', () => {
    const text = log(3000, [])
    const headOf = (t: string): number => t.indexOf('[... spillway')
    const read = trimResult(text, { maxChars: 3000, tool: 'read_file' }).text
    const term = trimResult(text, { maxChars: 3000, tool: 'terminal' }).text
    expect(headOf(read)).toBeGreaterThan(headOf(term))
    expect(read.length - headOf(read)).toBeLessThan(term.length - headOf(term))
  })

  it('leaves exempt tools alone and honours overrides', () => {
    const text = log(3000, [])
    expect(trimResult(text, { maxChars: 500, tool: 'fetch_result' }).changed).toBe(false)
    expect(trimResult(text, { maxChars: 500, tool: 'mcp__memory__memory' }).changed).toBe(false)
    expect(trimResult(text, { maxChars: 500, tool: 'bash', profiles: { bash: { exempt: false } } }).changed).toBe(true)
    const custom = trimResult(text, { maxChars: 500, tool: 'my_tool', profiles: { my_tool: { exempt: true } } })
    expect(custom.changed).toBe(false)
    expect(custom.profile).toBe('default')
  })

  it('derives the budget from the context window when maxChars is absent', () => {
    const text = log(20_000, [])
    expect(trimResult(text, { contextWindow: 128_000 }).maxChars).toBe(25_600)
    expect(trimResult(text, { contextWindow: 8_000 }).maxChars).toBe(2_000)
    expect(trimResult(text, { contextWindow: 1_000_000 }).maxChars).toBe(40_000)
    expect(trimResult(text, { contextWindow: 128_000, maxChars: 999 }).maxChars).toBe(999)
    expect(trimResult(text).maxChars).toBe(16_000)
  })

  it('counts tokens with the given tokenizer', () => {
    const out = trimResult(log(500, []), { maxChars: 1000, tokenizer: (s) => s.split(/\s+/).length })
    expect(out.original.tokens).toBe(log(500, []).split(/\s+/).length)
    expect(out.kept.tokens).toBe(out.text.split(/\s+/).length)
  })
})

describe('trimResult after a filter that moves lines', () => {
  it('shows no "N: " line numbers when the filter gave no line map (they would name the wrong lines)', () => {
    const rewritten = Array.from({ length: 400 }, (_, i) => (i === 200 ? 'ERROR: connection refused' : `summary row ${i}`)).join('\n')
    const reshape = { name: 'reshape', kinds: 'any' as const, lossless: false, preservesLines: false, run: () => rewritten }
    const input = Array.from({ length: 3000 }, (_, i) => `raw line ${i}`).join('\n')
    const out = trimResult(input, { maxChars: 2000 }, { filters: [reshape] })
    expect(out.text.length).toBeLessThanOrEqual(2000)
    expect(out.applied).toEqual(['reshape', 'fit'])
    expect(out.text).not.toMatch(/^\d+: /m)
    expect(out.omittedExact).toBe(false)
  })
})

describe('terminal excerpts of long failure lines', () => {
  // 30 failing tests, each one 420-char line (name and message first, then a long dump), among
  // progress noise: more of them fit when each long line shows its first 240 chars.
  const failure = (i: number): string => `FAIL tests/unit/case_${i}.test.ts > parser > case ${i}: expected value ${i} but got ${i + 1} ` + `{"input":"${'x'.repeat(330)}"}`
  const lines: string[] = []
  for (let i = 0; i < 30; i++) lines.push(...Array.from({ length: 20 }, (_, k) => `progress ${i}.${k} ok`), failure(i))
  const text = [...lines, 'Tests: 30 failed, 570 passed'].join('\n')
  const shown = (out: string): number => Array.from({ length: 30 }, (_, i) => i).filter((i) => out.includes(`case ${i}: expected value ${i}`)).length

  it('cuts a long line of the middle at 240 chars, saying how many chars it left out', () => {
    const out = trimResult(text, { tool: 'terminal', maxChars: 8000 }).text
    expect(out.length).toBeLessThanOrEqual(8000)
    // Middle lines (numbered `N: `); the tail is shown as is.
    const kept = out.split('\n').filter((l) => /^\d+: FAIL tests\/unit/.test(l))
    expect(kept.length).toBeGreaterThan(0)
    for (const l of kept) {
      expect(l.replace(/^\d+: /, '').length).toBeLessThanOrEqual(240)
      expect(l).toMatch(/… \[\+\d+ chars\]$/)
    }
  })

  it('shows more distinct failures than 400-char lines would', () => {
    const at240 = shown(trimResult(text, { tool: 'terminal', maxChars: 8000 }).text)
    const at400 = shown(trimResult(text, { tool: 'terminal', maxChars: 8000, profiles: { terminal: { maxLineChars: 400 } } }).text)
    expect(at400).toBeGreaterThan(0)
    expect(at240).toBeGreaterThan(at400)
  })
})
