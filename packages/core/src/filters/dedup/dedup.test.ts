import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { trimResult } from '../../pipeline/trim-result.js'
import { collapseBlankRuns, countBlankRuns, dedupExact, dedupExactMapped, dedupNear, maskLine } from './dedup.js'

// Naive references: arrays and plain loops, no cleverness.
function naiveExact(text: string): string {
  const lines = text.split('\n')
  const trailing = text.endsWith('\n')
  if (trailing) lines.pop()
  const out: string[] = []
  let i = 0
  while (i < lines.length) {
    let n = 1
    while (i + n < lines.length && lines[i + n] === lines[i]) n++
    const blank = lines[i]!.trim() === '' && !/[^ \t\r]/.test(lines[i]!)
    if (n > 1 && !blank) out.push(lines[i]!.endsWith('\r') ? `${lines[i]!.slice(0, -1)} (x${n})\r` : `${lines[i]} (x${n})`)
    else for (let k = 0; k < n; k++) out.push(lines[i]!)
    i += n
  }
  return out.join('\n') + (trailing ? '\n' : '')
}

function naiveBlank(text: string): string {
  const lines = text.split('\n')
  const trailing = text.endsWith('\n')
  if (trailing) lines.pop()
  const blank = (l: string): boolean => /^[ \t\r]*$/.test(l)
  const out: string[] = []
  for (let i = 0; i < lines.length; i++) {
    if (blank(lines[i]!) && i + 1 < lines.length && blank(lines[i + 1]!)) {
      let j = i
      while (j < lines.length && blank(lines[j]!)) j++
      out.push('')
      i = j - 1
    } else out.push(lines[i]!)
  }
  return out.join('\n') + (trailing ? '\n' : '')
}

const lineArb = fc.oneof(fc.constantFrom('a', 'b', '', ' ', 'x 1', 'x 2', 'err\r', 'err\r'), fc.string({ maxLength: 6 }))
const textArb = fc.array(lineArb, { maxLength: 60 }).chain((ls) => fc.constantFrom(ls.join('\n'), ls.join('\n') + '\n'))

describe('dedupExact', () => {
  it('collapses repeats to one line with a count', () => {
    expect(dedupExact('a\na\na\nb\nc\nc\n')).toBe('a (x3)\nb\nc (x2)\n')
    expect(dedupExact('a\nb\na')).toBeUndefined()
  })

  it('agrees with a naive loop', () => {
    fc.assert(
      fc.property(textArb, (text) => {
        expect(dedupExact(text) ?? text).toBe(naiveExact(text))
      }),
      { numRuns: 500 },
    )
  })
})

describe('collapseBlankRuns', () => {
  it('turns runs of blank lines into one', () => {
    expect(collapseBlankRuns('a\n\n\n\nb\n \n\t\nc')).toBe('a\n\nb\n\nc')
    expect(collapseBlankRuns('a\n\nb')).toBeUndefined()
  })

  it('agrees with a naive loop', () => {
    fc.assert(
      fc.property(textArb, (text) => {
        expect(collapseBlankRuns(text) ?? text).toBe(naiveBlank(text))
      }),
      { numRuns: 500 },
    )
  })
})

describe('maskLine', () => {
  it.each([
    ['2024-05-01T10:11:12.123Z worker 12 done in 35ms', '#Z worker # done in #ms'],
    ['commit 5d10ee4e6127ded57c2be41dfcf768a298a28660', 'commit #'],
    ['GET /api/v1/items/1234 200', 'GET /api/v#/items/# #'],
    ['no numbers here', 'no numbers here'],
  ])('%s', (line, masked) => expect(maskLine(line)).toBe(masked))
})

describe('dedupNear', () => {
  it('collapses a run of lines that differ only in numbers to first, template + count, last', () => {
    const text = Array.from({ length: 50 }, (_, i) => `2024-05-01T10:00:${String(i).padStart(2, '0')}Z fetched page ${i}`).join('\n')
    const out = dedupNear(`start\n${text}\nend`)!
    expect(out.split('\n')).toEqual([
      'start',
      '2024-05-01T10:00:00Z fetched page 0',
      '[... 48 similar lines: #Z fetched page # ...]',
      '2024-05-01T10:00:49Z fetched page 49',
      'end',
    ])
  })

  it('leaves short runs alone', () => {
    expect(dedupNear('job 1\njob 2\njob 3\nother')).toBeUndefined()
  })

  it('agrees with a naive loop over masked lines', () => {
    const naive = (text: string, minRun: number): string => {
      const lines = text.split('\n')
      const trailing = text.endsWith('\n')
      if (trailing) lines.pop()
      const out: string[] = []
      for (let i = 0; i < lines.length; ) {
        let j = i + 1
        while (j < lines.length && maskLine(lines[j]!) === maskLine(lines[i]!)) j++
        if (j - i >= minRun && !/^[ \t\r]*$/.test(lines[i]!)) {
          const t = maskLine(lines[i]!)
          out.push(lines[i]!, `[... ${j - i - 2} similar lines: ${t.endsWith('\r') ? t.slice(0, -1) : t} ...]`, lines[j - 1]!)
        } else out.push(...lines.slice(i, j))
        i = j
      }
      return out.join('\n') + (trailing ? '\n' : '')
    }
    const arb = fc.array(fc.oneof(fc.nat(30).map((n) => `step ${n} ok`), fc.constantFrom('', 'x', 'id ab12cd34ef'), fc.string({ maxLength: 5 })), { maxLength: 60 })
    fc.assert(
      fc.property(arb, fc.integer({ min: 2, max: 6 }), (ls, minRun) => {
        const text = ls.join('\n')
        expect(dedupNear(text, { minRun }) ?? text).toBe(naive(text, minRun))
      }),
      { numRuns: 500 },
    )
  })
})

// Naive references for the line maps: expand every output line back over the input lines it
// stands for and compare with the input.
const expand = (out: { text: string; lineStarts: readonly number[] }, total: number): Array<[number, string]> => {
  const lines = out.text.split('\n')
  if (out.text.endsWith('\n')) lines.pop()
  return lines.map((l, i) => [(out.lineStarts[i + 1] ?? total + 1) - out.lineStarts[i]!, l])
}

describe('line maps of dedupExactMapped and countBlankRuns', () => {
  it('each output line stands for the input lines its map names, in order', () => {
    fc.assert(
      fc.property(textArb, (text) => {
        const input = text.split('\n')
        if (text.endsWith('\n')) input.pop()
        const d = dedupExactMapped(text)
        if (d !== undefined) {
          expect(d.lineStarts[0]).toBe(1)
          let at = 0
          for (const [n, line] of expand(d, input.length)) {
            expect(n).toBeGreaterThan(0)
            const first = input[at]!
            const withCount = first.endsWith('\r') ? `${first.slice(0, -1)} (x${n})\r` : `${first} (x${n})`
            expect(line).toBe(n === 1 ? first : withCount)
            for (let k = 0; k < n; k++) expect(input[at + k]).toBe(first)
            at += n
          }
          expect(at).toBe(input.length)
          expect(d.text).toBe(dedupExact(text))
        }
        const b = countBlankRuns(text)
        if (b !== undefined) {
          let at = 0
          for (const [n, line] of expand(b, input.length)) {
            if (n === 1) expect(line).toBe(input[at])
            else {
              expect(line).toBe(`[${n} blank lines]`)
              for (let k = 0; k < n; k++) expect(input[at + k]!.trim()).toBe('')
            }
            at += n
          }
          expect(at).toBe(input.length)
        }
      }),
      { numRuns: 500 },
    )
  })
})

describe('dedup in trimResult', () => {
  const text = 'start\n\n\n\nretry\nretry\nretry\n\x1b[32mok\x1b[0m\n'

  it('lossless variants run under budget only when the profile lists them', () => {
    expect(trimResult(text, { maxChars: 1000 }).changed).toBe(false)
    const out = trimResult(text, { maxChars: 1000, tool: 'bash', profiles: { bash: { lossless: ['ansi', 'dedup-exact', 'blank'] } } })
    expect(out.text).toBe('start\n[3 blank lines]\nretry (x3)\nok\n')
    expect(out.applied).toEqual(['ansi', 'dedup-exact', 'blank'])
  })

  it('near-duplicate dedup is opt-in for over-budget results', () => {
    const log = Array.from({ length: 500 }, (_, i) => `GET /items/${i} 200 ${i % 7}ms`).join('\n')
    expect(trimResult(log, { maxChars: 1000 }).applied).toEqual(['fit'])
    const out = trimResult(log, { maxChars: 1000, profiles: { default: { filters: ['dedup'] } } })
    expect(out.applied).toEqual(['dedup'])
    expect(out.text).toBe('GET /items/0 200 0ms\n[... 498 similar lines: GET /items/# # #ms ...]\nGET /items/499 200 2ms')
  })
})
