import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { countLines } from '../trim/text.js'
import { lineView } from '../trim/view.js'
import { bodyOf } from './blobs.js'
import { readerOf } from './fixture.js'
import { grepBlob, type GrepParams } from './grep.js'
import { rangeChars, rangeLines, viewSuffix } from './read.js'
import { screenPattern } from './regex.js'

// Chunks of 7 chars: every read and search crosses chunk edges.
const blob = (text: string) => readerOf(text, 7)
const params = (pattern: string, extra: Partial<GrepParams> = {}): GrepParams => {
  const verdict = screenPattern(pattern, { maxChars: 256, literal: true })
  if (verdict.kind === 'refused') throw new Error('refused')
  return { verdict, pattern, ignoreCase: false, context: 0, page: 1, pageSize: 1_000_000, answerMaxChars: 10_000_000, timeoutMs: 10_000, callFor: (p) => `page ${p}`, rangeCall: (s, c) => `range ${s} ${c}`, ...extra }
}
// range and grep read the text the excerpt numbers: the text inside JSON when the result is JSON
// around it (a JSON string such as `""` or `"a\nb"` is read as its value), with ANSI codes
// removed; line numbers are unchanged.
const shown = (text: string): string => bodyOf(text, lineView(text))?.text ?? text
const naiveLines = (text: string): string[] => {
  const lines = text.split('\n')
  if (text.endsWith('\n')) lines.pop()
  return text === '' ? [] : lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l))
}
const numbered = (out: string): Array<[number, string]> =>
  out.split('\n').slice(1).flatMap((l) => {
    const m = /^(\d+): (.*)$/s.exec(l)
    return m === null ? [] : [[Number(m[1]), m[2]!] as [number, string]]
  })

const textArb = fc.array(fc.oneof(fc.constantFrom('a', 'b', '.', 'ab', 'a.b', '\n', '\r\n', ' ', 'é', '😀'), fc.string({ maxLength: 3 })), { maxLength: 60 }).map((a) => a.join(''))

describe('line index', () => {
  it('agrees with countLines and a naive split', async () => {
    await fc.assert(
      fc.asyncProperty(textArb, async (text) => {
        const b = await blob(text)
        expect(b.lineCount).toBe(countLines(shown(text)))
        expect(await Promise.all(Array.from({ length: b.lineCount }, (_, i) => b.line(i)))).toEqual(naiveLines(shown(text)))
      }),
    )
  })

  it('reads a result that is one JSON string as its value (CI seed 568463733: `""`)', async () => {
    expect((await blob('""')).lineCount).toBe(0)
    const b = await blob('"a\\nb"')
    expect(b.lineCount).toBe(2)
    expect([await b.line(0), await b.line(1)]).toEqual(['a', 'b'])
  })
})

describe('grepBlob (literal) against a naive filter', () => {
  it('reports exactly the lines that contain the needle, with 1-based numbers', async () => {
    await fc.assert(
      fc.asyncProperty(textArb, fc.constantFrom('a', 'b', '.', 'a.b', 'ab', '😀', ' '), async (text, needle) => {
        // Lines are shown in full here (short), so the shown text must be the line itself.
        const expected = naiveLines(shown(text)).flatMap((l, i) => (l.includes(needle) ? [[i + 1, l] as [number, string]] : []))
        const b = await blob(text)
        const res = await grepBlob(b, params(needle))
        expect(res.ok).toBe(true)
        expect(numbered(res.text)).toEqual(expected)
        // The echo names what was searched: a JSON string's text, the text without ANSI codes.
        if (expected.length === 0) expect(res.text).toContain(`no line matches, all ${b.lineCount} lines${viewSuffix(b)} searched`)
      }),
    )
  })

  it('says what it searched when nothing matches: the text inside a JSON string, the text without ANSI codes', async () => {
    // fast-check's counterexample (seed 1379073629): `""` is a JSON string holding no lines.
    expect((await grepBlob(await blob('""'), params('a'))).text).toContain('no line matches, all 0 lines of the text inside a JSON string searched')
    expect((await grepBlob(await blob('x\n\x1b[31mb\x1b[0m\n'), params('a'))).text).toContain('no line matches, all 2 lines (ANSI codes removed) searched')
  })

  it('pages cover every match exactly once', async () => {
    await fc.assert(
      fc.asyncProperty(textArb, fc.integer({ min: 1, max: 4 }), async (text, pageSize) => {
        const expected = naiveLines(shown(text)).flatMap((l, i) => (l.includes('a') ? [i + 1] : []))
        const got: number[] = []
        for (let page = 1; page <= Math.max(1, Math.ceil(expected.length / pageSize)); page++) {
          got.push(...numbered((await grepBlob(await blob(text), params('a', { page, pageSize }))).text).map(([n]) => n))
        }
        expect(got).toEqual(expected)
      }),
    )
  })
})

describe('grepBlob output', () => {
  const text = Array.from({ length: 300 }, (_, i) => (i % 10 === 3 ? `line ${i + 1} ERROR boom` : `line ${i + 1} ok`)).join('\n')

  it('shows context lines as "N- line" and separates groups with --', async () => {
    const out = (await grepBlob(await readerOf(text), params('ERROR', { context: 1, pageSize: 2 }))).text
    expect(out).toBe(
      ['[grep "ERROR" (plain text): 30 matching lines of 300; page 1 of 15 shows matches 1-2]', '3- line 3 ok', '4: line 4 ERROR boom', '5- line 5 ok', '--', '13- line 13 ok', '14: line 14 ERROR boom', '15- line 15 ok', '[more: page 2]'].join('\n'),
    )
  })

  it('cuts at the answer cap with an explicit marker naming what is missing', async () => {
    const res = await grepBlob(await blob(text), params('ERROR', { answerMaxChars: 600 }))
    expect(res.text.length).toBeLessThanOrEqual(600)
    expect(res.text).toMatch(/\[cut at the 600-char answer limit: matches \d+-30 of this page are not shown; read them with range \d+ 50 or narrow the pattern\]/)
  })

  it('says when a page is past the end', async () => {
    expect(await grepBlob(await blob(text), params('ERROR', { page: 9, pageSize: 10 }))).toEqual({ ok: false, text: expect.stringMatching(/page 9 is past the last page, 3/) })
  })

  it('answers a page past every line without searching (a model asking for page 1e12)', async () => {
    let searched = 0
    const p = params('ERROR', { page: 1e12, pageSize: 10, now: () => (searched++, 0) })
    const regex = screenPattern('E.ROR', { maxChars: 256 })
    if (regex.kind === 'refused') throw new Error('refused')
    const res = await grepBlob(await blob(text), { ...p, verdict: regex, pattern: 'E.ROR' })
    expect(res).toEqual({ ok: false, text: expect.stringMatching(/page 1000000000000 is past the end: 300 lines fill at most 30 pages of 10; start at page 1/) })
    expect(searched).toBe(0) // the regex path reads the clock before each line: no line was tested
  })

  it('keeps exact counts and the right page when only the asked page is held', async () => {
    const many = Array.from({ length: 5000 }, (_, i) => `row ${i + 1} ERROR`).join('\n')
    const res = await grepBlob(await blob(many), params('ERROR', { page: 500, pageSize: 10 }))
    expect(res.text.split('\n')[0]).toBe('[grep "ERROR" (plain text): 5000 matching lines of 5000; page 500 of 500 shows matches 4991-5000]')
    expect(numbered(res.text).map(([n]) => n)).toEqual(Array.from({ length: 10 }, (_, i) => 4991 + i))
    const mid = await grepBlob(await blob(many), params('ERROR', { page: 400, pageSize: 10 }))
    expect(numbered(mid.text).map(([n]) => n)).toEqual(Array.from({ length: 10 }, (_, i) => 3991 + i))
  })

  it('shows a long matching line around its match', async () => {
    const long = `${'x'.repeat(5000)}NEEDLE${'y'.repeat(5000)}`
    const out = (await grepBlob(await blob(long), params('NEEDLE'))).text
    expect(out).toContain('NEEDLE')
    expect(out).toMatch(/\[chars \d+-\d+ of this 10006-char line\]/)
    expect(out.length).toBeLessThan(700)
  })

  it('finds regex matches anywhere in a long line (RE2 needs no windows)', async () => {
    const long = `${'x'.repeat(5000)}id=42;${'y'.repeat(5000)}`
    const v = screenPattern('id=\\d+;', { maxChars: 256 })
    if (v.kind !== 'regex') throw new Error('expected a regex')
    const res = await grepBlob(await blob(long), { ...params('x'), verdict: v, pattern: 'id=\\d+;' })
    expect(res.text).toMatch(/^\[grep \/id=\\d\+;\/ \(regex\): 1 matching lines of 1/)
    expect(res.text).toContain('id=42;')
    expect(res.text).toMatch(/\[chars \d+-\d+ of this 10006-char line\]/) // shown around the match
    expect(res.text).not.toMatch(/window/)
  })
})

describe('grepBlob on a line longer than one search piece (1 MiB)', () => {
  // 64 Ki-char chunks; a 3 M-char line is searched in 1 MiB pieces that start inside the line.
  const longBlob = (text: string) => readerOf(text, 1 << 16)
  const regex = (pattern: string) => {
    const v = screenPattern(pattern, { maxChars: 256 })
    if (v.kind !== 'regex') throw new Error('expected a regex')
    return { ...params('x'), verdict: v, pattern }
  }
  const filler = (n: number, seed: number): string => {
    let s = ''
    let x = seed
    while (s.length < n) {
      x = (x * 1103515245 + 12345) >>> 0
      s += 'abcdefghijklmnop'[(x >>> 16) & 15]
    }
    return s
  }

  it('finds a 250-char needle wherever it crosses a piece edge (literal and regex)', async () => {
    const needle = `Z${'q'.repeat(248)}Z`
    // Straddle each chunk edge between 1 and 1.25 MiB: one of them is where the first piece ends.
    for (let edge = 16 << 16; edge <= 20 << 16; edge += 1 << 16) {
      const at = edge - 220
      const text = filler(at, edge) + needle + filler(3_000_000 - at, 7)
      const lit = await grepBlob(await longBlob(text), params(needle))
      expect(lit.text.split('\n')[0]).toMatch(/: 1 matching lines of 1;/)
      const re = await grepBlob(await longBlob(text), regex('Zq{248}Z'))
      expect(re.text.split('\n')[0]).toMatch(/^\[grep \/Zq\{248\}Z\/ \(regex\): 1 matching lines of 1 \(lines over 1 MiB were searched in pieces/)
    }
  })

  it('matches ^ only at the line start and $ only at its end, not at a piece edge', async () => {
    const text = `a${'b'.repeat(3_000_000)}c`
    const b = await longBlob(text)
    const line = async (p: string) => (await grepBlob(b, regex(p))).text.split('\n')[0]!
    expect(await line('^b')).toMatch(/no line matches/)
    expect(await line('b$')).toMatch(/no line matches/)
    expect(await line('^ab')).toMatch(/1 matching lines of 1/)
    expect(await line('bc$')).toMatch(/1 matching lines of 1/)
    // Inside a character class, ^ and $ are chars, not anchors.
    expect(await line('[$^]')).toMatch(/no line matches/)
  })
})

describe('rangeLines', () => {
  it('returns exactly lines start..start+count-1 with the echo', async () => {
    await fc.assert(
      fc.asyncProperty(textArb, fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 20 }), async (text, start, count) => {
        const lines = naiveLines(shown(text))
        const res = await rangeLines(await blob(text), start, count, 1_000_000, { range: () => '', offset: () => '' })
        if (lines.length === 0) {
          expect(res.text).toMatch(/empty/)
          return
        }
        if (start > lines.length) {
          expect(res.ok).toBe(false)
          return
        }
        const end = Math.min(lines.length, start + count - 1)
        const note = shown(text) !== text ? ' (ANSI codes removed)' : ''
        expect(res.text).toBe(`[lines ${start}-${end} of ${lines.length}${note}]\n${lines.slice(start - 1, end).join('\n')}`)
      }),
    )
  })
})

describe('rangeChars', () => {
  const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff
  const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff
  const astral = fc.array(fc.oneof(fc.constantFrom('😀', '𝄞', 'a', 'é', ' '), fc.string({ unit: 'grapheme', maxLength: 3 })), { minLength: 1, maxLength: 40 }).map((a) => a.join('').replace(/\n/g, ' '))

  it('always advances past the requested offset and never splits a surrogate pair', async () => {
    await fc.assert(
      fc.asyncProperty(astral, fc.nat(), fc.integer({ min: 1, max: 8 }), async (text, rawOffset, count) => {
        fc.pre(text.length > 0)
        const offset = rawOffset % text.length
        let next: number | undefined
        const res = await rangeChars(await blob(text), offset, count, 10_000, { range: () => '', offset: (o) => ((next = o), `offset ${o}`) })
        expect(res.ok).toBe(true)
        const m = /^\[chars (\d+)-(\d+) of (\d+)\]\n/.exec(res.text)!
        const from = Number(m[1]) - 1
        const to = Number(m[2])
        expect(to).toBeGreaterThan(from)
        expect(to).toBeGreaterThan(offset) // the answer covers the asked position
        for (const cut of [from, to]) if (cut > 0 && cut < text.length) expect(isHigh(text.charCodeAt(cut - 1)) && isLow(text.charCodeAt(cut))).toBe(false)
        expect(res.text.slice(m[0].length).startsWith(text.slice(from, to))).toBe(true)
        if (to < text.length) expect(next).toBe(to) // the continue call moves on
      }),
    )
  })

  it('returns one whole emoji for count 1 at offset 0 (never an empty slice pointing at itself)', async () => {
    const text = '😀'.repeat(3000)
    const res = await rangeChars(await blob(text), 0, 1, 10_000, { range: () => '', offset: (o, c) => `offset ${o} count ${c}` })
    expect(res.text).toBe(`[chars 1-2 of 6000]\n😀\n[5998 chars follow; continue with offset 2 count 1]`)
    const mid = await rangeChars(await blob(text), 1, 1, 10_000, { range: () => '', offset: (o, c) => `offset ${o} count ${c}` })
    expect(mid.text.split('\n')[0]).toBe('[chars 1-2 of 6000]')
  })
})

describe('grep time bound', () => {
  it('times out by the injected clock, deterministically, and never says "no matches"', async () => {
    const many = Array.from({ length: 1_000 }, (_, i) => `row ${i} value ${i * 7}`).join('\n')
    const v = screenPattern('value \\d+z', { maxChars: 256 })
    if (v.kind !== 'regex') throw new Error('expected a regex')
    let t = 0
    const now = (): number => (t += 1) // each look at the clock is 1 ms later
    const res = await grepBlob(await blob(many), { ...params('x'), verdict: v, pattern: 'value \\d+z', timeoutMs: 100, now })
    expect(res.ok).toBe(false)
    // Start reads the clock twice; then one read per line: the deadline (1 + 100) passes at line 99.
    expect(res.text).toMatch(/timed out after \d+ ms, having searched 99 of 1000 lines/)
    expect(res.text).not.toMatch(/no line matches/)
    let u = 0
    const slow = await grepBlob(await blob(many), { ...params('x'), verdict: v, pattern: 'value \\d+z', timeoutMs: 100, now: () => (u += 0.01) })
    expect(slow.text).toMatch(/no line matches, all 1000 lines searched/) // within the bound: a real answer
  })
})
