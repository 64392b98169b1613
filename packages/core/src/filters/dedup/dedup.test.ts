import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { trimResult } from '../../pipeline/trim-result.js'
import { MAX_CYCLE_PERIOD, collapseBlankRuns, collapseCycles, collapseCyclesHashed, countBlankRuns, dedupExact, dedupExactMapped, dedupNear, maskLine } from './dedup.js'

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

/** A recursion's frames, as a JVM trace prints them: six frames, `times` times over. */
function recursion(times: number, indent = '    '): string[] {
  const cycle = ['CtScanner.scan (CtScanner.java:184)', 'CtScanner.scan (CtScanner.java:149)', 'CtScanner.visitCtPackage (CtScanner.java:676)', 'CtPackageImpl.accept (CtPackageImpl.java:88)', 'CtScanner.scan (CtScanner.java:194)', 'ProcessingVisitor.scan (ProcessingVisitor.java:68)']
  return Array.from({ length: times }, () => cycle.map((f) => `${indent}at spoon.${f}`)).flat()
}

// The naive reference: each count line read back as the block above it, repeated.
const CYCLE_LINE = /^([ \t]*(?:\S+ )?[ \t]*)\[(\d+) lines: the (\d+) lines above, (\d+) more times?\](\r?)$/
function expandCycles(out: { text: string; lineStarts: readonly number[] }): string[] {
  const lines = out.text.split('\n')
  const back: string[] = []
  for (const l of lines) {
    const m = CYCLE_LINE.exec(l)
    if (m === null) {
      back.push(l)
      continue
    }
    const [count, period, times] = [Number(m[2]), Number(m[3]), Number(m[4])]
    expect(count).toBe(period * times)
    const block = back.slice(-period)
    for (let t = 0; t < times; t++) back.push(...block)
  }
  return back
}

describe('collapseCycles', () => {
  it("keeps a recursion's frames once and counts their repeats", () => {
    const lines = ['java.io.IOException: No space left on device', '    at java.io.File.createNewFile (File.java:1026)', ...recursion(5), '    at spoon.Launcher.run (Launcher.java:737)']
    const out = collapseCycles(lines.join('\n') + '\n')!
    expect(out.text.split('\n')).toEqual([...lines.slice(0, 8), '    [24 lines: the 6 lines above, 4 more times]', '    at spoon.Launcher.run (Launcher.java:737)', ''])
    // each output line's first input line: the count line stands for lines 9-32
    expect(out.lineStarts).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 33])
  })

  it('takes the shortest period, keeps a CI timestamp and a CR, and says "1 more time"', () => {
    expect(collapseCycles('a\nb\na\nb\na\nb\nc')!.text).toBe('a\nb\n[4 lines: the 2 lines above, 2 more times]\nc')
    const stamped = ['2024-05-01T10:00:00.1234567Z   at x.A.f (A.java:1)\r', '2024-05-01T10:00:00.1234567Z   at x.B.g (B.java:2)\r']
    expect(collapseCycles([...stamped, ...stamped, ...stamped, 'end'].join('\n'))!.text.split('\n')[2]).toBe('2024-05-01T10:00:00.1234567Z   [4 lines: the 2 lines above, 2 more times]\r')
    expect(collapseCycles('a\nb\nc\nd\na\nb\nc\nd\ne')!.text).toBe('a\nb\nc\nd\n[4 lines: the 4 lines above, 1 more time]\ne')
  })

  it('leaves alone one line repeated, blank blocks, and a block repeated into fewer than 4 lines', () => {
    expect(collapseCycles('a\na\na\na\na\n')).toBeUndefined()
    expect(collapseCycles('x\n \n\n \n\n \n\ny')).toBeUndefined()
    expect(collapseCycles('a\nb\na\nb\nc')).toBeUndefined()
    expect(collapseCycles('a\nb\nc\na\nb\nc\n')).toBeUndefined()
    expect(collapseCycles('')).toBeUndefined()
  })

  it('property: reading each count line back as its block gives the input, and the line map says where each line starts', () => {
    const block = fc.array(fc.constantFrom('a', 'b', 'c', '  at f', '  at g', '', ' ', 'x\r'), { minLength: 1, maxLength: 5 })
    const piece = fc.tuple(block, fc.integer({ min: 1, max: 6 })).map(([b, n]) => Array.from({ length: n }, () => b).flat())
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.boolean(), (pieces, trailing) => {
        const lines = pieces.flat()
        const text = lines.join('\n') + (trailing ? '\n' : '')
        const out = collapseCycles(text)
        if (out === undefined) return
        expect(expandCycles(out).join('\n')).toBe(text)
        const outLines = out.text.split('\n')
        if (text.endsWith('\n')) outLines.pop()
        expect(out.lineStarts.length).toBe(outLines.length)
        out.lineStarts.forEach((n, i) => {
          if (i > 0) expect(n).toBeGreaterThan(out.lineStarts[i - 1]!)
          // a line that is not a count line is the input line it starts at
          if (!CYCLE_LINE.test(outLines[i]!)) expect(outLines[i]).toBe(lines[n - 1])
        })
      }),
      { numRuns: 500 },
    )
  })

  it("stops looking once it has compared 8 times the input's chars: hashes made to collide cost no more", () => {
    // 3,000 distinct lines of one length that all hash alike: each would be compared with every one before it
    const collide = (): number => 7
    const noise = Array.from({ length: 3000 }, (_, i) => String(i).padStart(4, '0') + 'x'.repeat(400))
    const cycle = ['at a', 'at b', 'at a', 'at b', 'at a', 'at b']
    const merged = '[4 lines: the 2 lines above, 2 more times]'
    expect(collapseCyclesHashed([...cycle, ...noise].join('\n'), MAX_CYCLE_PERIOD, collide)?.text).toContain(merged)
    // the same cycle after the noise is not reached: the search gave up
    expect(collapseCyclesHashed([...noise, ...cycle].join('\n'), MAX_CYCLE_PERIOD, collide)).toBeUndefined()
    expect(collapseCyclesHashed([...noise.slice(0, 10), ...cycle].join('\n'), MAX_CYCLE_PERIOD, collide)?.text).toContain(merged)
    // with a real hash the noise lines hash apart, and none is compared whole
    expect(collapseCycles([...noise, ...cycle].join('\n'))?.text).toContain(merged)
  })
})

describe('collapseCycles on shapes made to cost (review, round 26)', () => {
  it('reads no block from a blank line: alternating blank lines cost one look each, and merge nothing', () => {
    // (it rescanned the whole run from every line: 32,000 lines took 22 s)
    expect(collapseCycles('x\n' + ' \n\t\n'.repeat(20_000))).toBeUndefined()
    expect(collapseCycles('\n \n'.repeat(20_000))).toBeUndefined()
    // a block of text and blank lines is found from its first line with text
    expect(collapseCycles('a\n\nb\na\n\nb\na\n\nb\nc')!.text).toBe('a\n\nb\n[6 lines: the 3 lines above, 2 more times]\nc')
  })

  it('stops looking after 64 class compares a line: near misses on every line cost no more', () => {
    // one line repeated (dedupExactMapped's, not this one's): every period up to 32 matches, then is refused
    const same = Array.from({ length: 3000 }, () => 'a')
    const cycle = ['at a', 'at b', 'at a', 'at b', 'at a', 'at b']
    const merged = '[4 lines: the 2 lines above, 2 more times]'
    expect(collapseCycles([...cycle, ...same].join('\n'))?.text).toContain(merged)
    expect(collapseCycles([...same, ...cycle].join('\n'))).toBeUndefined()
    expect(collapseCycles([...same.slice(0, 10), ...cycle].join('\n'))?.text).toContain(merged)
  })

  it("merges no block that holds dedupExactMapped's `x (x2)` line: its count would not be the original's", () => {
    const frames = ['    at v.scan (V.java:1) (x2)', '    at n.accept (N.java:2)']
    expect(collapseCycles([...frames, ...frames, ...frames, 'end'].join('\n'))).toBeUndefined()
    // through trimResult: [scan, scan, accept] x 5 is `scan (x2)`, `accept` five times, left as such, and read back
    const log = [...Array.from({ length: 300 }, (_, i) => `[INFO] step ${i}`), 'java.lang.StackOverflowError', ...Array.from({ length: 5 }, () => ['    at v.scan (V.java:1)', '    at v.scan (V.java:1)', '    at n.accept (N.java:2)']).flat(), ...Array.from({ length: 300 }, (_, i) => `[INFO] after ${i}`)]
    const out = trimResult(log.join('\n'), { tool: 'terminal', maxChars: 3000 })
    expect(out.text).not.toContain('lines above')
    expect(out.text).toContain('    at v.scan (V.java:1) (x2)')
  })
})

describe('collapseCycles in trimResult', () => {
  it('runs on an over-budget terminal log and numbers the lines after the count line with their own numbers', () => {
    const log = [...Array.from({ length: 400 }, (_, i) => `[INFO] step ${i}`), 'java.lang.StackOverflowError', ...recursion(100), ...Array.from({ length: 100 }, (_, i) => `[INFO] after ${i}`), 'BUILD FAILURE']
    const out = trimResult(log.join('\n'), { tool: 'terminal', maxChars: 3000 })
    expect(out.applied).toContain('dedup-cycles')
    expect(out.text).toContain('    [594 lines: the 6 lines above, 99 more times]')
    // the recursion's frames are shown once each, and the line after the 600 frames keeps its number
    for (const l of recursion(1)) expect(out.text).toContain(l)
    expect(out.text).toMatch(/^\d+: java\.lang\.StackOverflowError$/m)
    const shown = /^(\d+):     \[594 lines/m.exec(out.text)
    expect(Number(shown![1])).toBe(400 + 1 + 6 + 1) // 400 steps, the error, the first 6 frames
  })
})
