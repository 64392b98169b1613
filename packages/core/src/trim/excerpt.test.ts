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

/**
 * The main marker's chars are those of the lines of its span that the excerpt does not show (with
 * their line ends), counted in the original.
 */
function spanCharsAreExact(excerpt: string, original: string): void {
  const m = /^\[\.\.\. spillway: omitted (?:line (\d+)|lines (\d+)-(\d+)) of \d+ \((\d+) chars/m.exec(excerpt)
  expect(m).not.toBeNull()
  const from = Number(m![1] ?? m![2])
  const to = Number(m![1] ?? m![3])
  const lines = original.split('\n')
  const shown = new Set(excerpt.split('\n').flatMap((l) => /^(\d+): /.exec(l)?.[1] ?? []).map(Number))
  const charsOf = (a: number, b: number): number => {
    let chars = 0
    for (let n = a; n <= b; n++) if (!shown.has(n)) chars += lines[n - 1]!.length + (n < lines.length ? 1 : 0)
    return chars
  }
  expect(Number(m![4])).toBe(charsOf(from, to))
  // and each gap marker's, the lines it names
  for (const g of excerpt.matchAll(/^\[\.\.\. (?:line (\d+)|lines (\d+)-(\d+)) omitted \((\d+) chars\)/gm)) {
    expect(Number(g[4])).toBe(charsOf(Number(g[1] ?? g[2]), Number(g[1] ?? g[3])))
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

  it('an excerpt whose head ends inside a line is re-fitted: that line is read as left out, its chars counted', () => {
    const original = buildLog(3096, 3)
    const once = trimResult(original, { tool: 'terminal', maxChars: 1000 }).text
    expect(once).toContain('(140725 chars, from char 34 of line 1)')
    const twice = trimResult(`${once}\n${HANDLE}`, { tool: 'terminal', maxChars: 1200 })
    expect(twice.applied).toEqual(['refit'])
    expect(twice.text.length).toBeLessThanOrEqual(1200)
    expect(twice.text.endsWith(HANDLE)).toBe(true)
    expect(twice.text.split(HANDLE_HEADER)).toHaveLength(2)
    numberedLinesAreOriginal(twice.text, original)
    // (round 26 trimmed it as text: `lines 1-9 of 23`, the original's numbers lost)
    spanCharsAreExact(twice.text, original)
  })

  it("an excerpt of one long line (only the line's two parts shown) is trimmed as text, not re-fitted to a marker alone", () => {
    const original = `ERROR start ${'abcdefghij'.repeat(3000)} end`
    const once = trimResult(original, { tool: 'terminal', maxChars: 2000 }).text
    expect(once).toMatch(/from char \d+ of line 1, up to char \d+ of line 1\)/)
    const twice = trimResult(`${once}\n${HANDLE}`, { tool: 'terminal', maxChars: 1500 })
    expect(twice.applied).toEqual(['fit', 'handle'])
    expect(twice.text.startsWith('ERROR start abcdefghij')).toBe(true)
    expect(twice.text.length).toBeLessThanOrEqual(1500)
  })

  it('property: a head and tail cut inside a long first and last line are read back, the counts exact', () => {
    fc.assert(
      // (short first or last lines too: a tail cut with no head cut, and the other way round)
      fc.property(fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 6000 })), fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 6000 })), fc.integer({ min: 50, max: 800 }), fc.integer({ min: 1500, max: 8000 }), fc.integer({ min: 20, max: 99 }), fc.boolean(), (headLen, tailLen, n, b1, share, newline) => {
          const body = buildLog(n, 5).slice(0, -1)
          const original = `first ${'h'.repeat(headLen)}\n${body}\nlast ${'t'.repeat(tailLen)}${newline ? '\n' : ''}`
          const once = trimResult(original, { tool: 'terminal', maxChars: b1 }).text
          // (the second budget a share of the first excerpt, 1,200 chars at least: most cases re-fit it)
          const b2 = Math.max(1200, Math.floor((once.length * share) / 100))
          const twice = trimResult(once, { tool: 'terminal', maxChars: b2 })
          expect(twice.text.length).toBeLessThanOrEqual(b2)
          // (an excerpt whose only content is a cut line's parts is trimmed as text: see below)
          const shownLines = once.replace(/\n$/, '').split('\n').filter((l) => !l.startsWith('[... '))
          const cuts = (/, from char \d+ of line/.test(once) ? 1 : 0) + (/, up to char \d+ of line/.test(once) ? 1 : 0)
          const whole = shownLines.length > cuts
          if (once !== original && once.length > b2 && b2 >= 1200 && once.includes('[... spillway: omitted line') && whole) {
            expect(twice.applied).toEqual(['refit'])
            numberedLinesAreOriginal(twice.text, original)
            spanCharsAreExact(twice.text, original)
          }
        },
      ),
      { numRuns: 200 },
    )
  })

  it('property: any re-trim holds the budget and keeps original numbers', () => {
    fc.assert(
      fc.property(fc.integer({ min: 300, max: 4000 }), fc.integer({ min: 0, max: 50 }), fc.integer({ min: 1000, max: 9000 }), fc.integer({ min: 0, max: 8000 }), fc.boolean(), (n, seed, b1, b2, handle) => {
        const original = buildLog(n, seed)
        const once = trimResult(original, { tool: 'terminal', maxChars: b1 }).text
        const input = handle ? `${once}\n${HANDLE}` : once
        const twice = trimResult(input, { tool: 'terminal', maxChars: b2 })
        expect(twice.text.length).toBeLessThanOrEqual(b2)
        // An excerpt cut again with room for a marker and the handle is re-fitted, in the original's
        // numbers (one whose head ends inside a line too: a seed of round 26, 3096 lines, budgets
        // 1000 then 1200, found it trimmed as text).
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

describe('which lines a refit keeps', () => {
  it('weighs the numbered lines as the fitter does: one failing test over 200 alike error lines', () => {
    // 200 `[ERROR] [INFO] Building ...` lines (a nested build's output) above one test's verdict:
    // by keyword score alone they tie, and the refit took them in order and never reached the
    // verdict; weighed (`weigh.ts`: a repeated template loses points) the verdict goes first.
    const lines = Array.from({ length: 3000 }, (_, i) => `[INFO] step ${i} ok`)
    for (let i = 1000; i < 1200; i++) lines[i] = `[ERROR] [INFO] Building module-${i} 1.0.${i}`
    lines[1300] = 'Tests run: 12, Failures: 1 <<< FAILURE! in CheckoutTest'
    const once = trimResult(`${lines.join('\n')}\n`, { tool: 'terminal', maxChars: 16_000 }).text
    expect(once).toContain('1301: Tests run')
    for (const maxChars of [1500, 3000]) {
      const again = trimResult(once, { tool: 'terminal', maxChars })
      expect(again.applied).toEqual(['refit'])
      expect(again.text).toContain('1301: Tests run: 12, Failures: 1 <<< FAILURE! in CheckoutTest')
    }
  })

  it("shows a failure of the first excerpt's tail, past the tail's share, as a numbered line", () => {
    // An 8k excerpt's tail holds the failure 60 lines from the end; a 1,200-char refit's tail
    // share is about 12 lines. The failure and the lines around it are shown as `N: ` lines.
    const lines = Array.from({ length: 3000 }, (_, i) => `[INFO] step ${i + 1} ok`)
    lines[2939] = 'ERROR: test_checkout failed: expected 3 got 4'
    const once = trimResult(`${lines.join('\n')}\n`, { tool: 'terminal', maxChars: 8000 }).text
    expect(once).toContain('\nERROR: test_checkout failed') // in the tail, unnumbered
    const again = trimResult(once, { tool: 'terminal', maxChars: 1200 })
    expect(again.applied).toEqual(['refit'])
    expect(again.text).toMatch(/^2939: \[INFO\] step 2939 ok\n2940: ERROR: test_checkout failed: expected 3 got 4\n2941: /m)
    expect(again.text).toContain('\n[INFO] step 3000 ok')
    expect(again.omitted.some((r) => r.start <= 2941 && r.end >= 2941)).toBe(false)
  })

  it('keeps the lines around a salient one, as the first excerpt showed them', () => {
    const lines = Array.from({ length: 4000 }, (_, i) => `[INFO] step ${i} ok`)
    lines[2000] = 'java.lang.IllegalStateException: pool exhausted'
    for (let k = 1; k <= 5; k++) lines[2000 + k] = `\tat com.acme.Pool.take(Pool.java:${100 + k})`
    const once = trimResult(`${lines.join('\n')}\n`, { tool: 'terminal', maxChars: 8000 }).text
    const again = trimResult(once, { tool: 'terminal', maxChars: 1500 }).text
    expect(again).toContain('2001: java.lang.IllegalStateException: pool exhausted')
    for (let k = 1; k <= 5; k++) expect(again).toContain(`${2001 + k}: \tat com.acme.Pool.take(Pool.java:${100 + k})`)
  })
})

/** Lines `[from, to]` each piece of a parsed excerpt stands for, in order. */
function tiles(ex: NonNullable<ReturnType<typeof parseExcerpt>>): [number, number][] {
  return ex.pieces.map((p) => (p.kind === 'gap' ? [p.from, p.to] : [p.n, p.n + p.span - 1]))
}

/** True when `ranges` cover 1..lines, each starting right after the one before. */
function tileWhole(ranges: [number, number][], lines: number): boolean {
  let next = 1
  for (const [a, b] of ranges) {
    if (a !== next || b < a) return false
    next = b + 1
  }
  return next === lines + 1
}

/**
 * A build log whose lines a filter merges before the fit: runs of one repeated line (exact
 * dedup's `x (x5)`), of blank lines (`[4 blank lines]`) and of a recursion's three frames
 * (`[6 lines: the 3 lines above, 2 more times]`), in the head, the middle and the tail, with
 * failures among them.
 */
function mergedLog(n: number, seed: number): string {
  const out: string[] = []
  for (let i = 1; out.length < n; i++) {
    const r = (i * 7919 + seed) % 101
    if (r < 4) for (let k = 0; k < 2 + (r % 4) * 3; k++) out.push(`[WARN] retrying download of artifact ${seed % 7}`)
    else if (r < 7) for (let k = 0; k < 3 + r; k++) out.push('')
    else if (r < 9) out.push(`ERROR: test_${i} failed: expected ${i} got ${i + 1}`)
    else if (r === 9) for (let k = 0; k < 2 + (i % 4); k++) out.push('    at a.Visitor.scan (Visitor.java:12)', `    at a.Node${seed % 3}.accept (Node.java:7)`, '    at a.Visitor.visit (Visitor.java:30)')
    else out.push(`[INFO] compiling module ${i} (step ${seed})`)
  }
  out.unshift('[WARN] slow start', '[WARN] slow start', '[WARN] slow start', '', '', '', '')
  out.push('BUILD FAILED', '', '', '', '', 'cleanup (x64) done', 'done', 'done', 'done')
  return out.join('\n') + '\n'
}

describe('re-trimming an excerpt whose lines a filter merged (`x (x3)`, `[4 blank lines]`, a repeated block)', () => {
  it('reads each merged line as its run: head, middle and tail tile the original', () => {
    const original = mergedLog(3000, 5)
    const once = trimResult(original, { tool: 'terminal', maxChars: 8000 })
    expect(once.applied).toContain('dedup-exact')
    expect(once.applied).toContain('dedup-cycles')
    expect(once.text).toMatch(/^\d+: .* \(x\d+\)$/m) // a merged line in the middle
    expect(once.text.split('\n', 3).join('\n')).toContain('(x3)') // and in the head
    const ex = parseExcerpt(once.text)!
    expect(ex).toBeDefined()
    expect(tileWhole(tiles(ex), original.split('\n').length - 1)).toBe(true)
    expect(ex.pieces.some((p) => p.kind === 'line' && p.numbered && p.span > 1)).toBe(true)
    expect(ex.pieces.some((p) => p.kind === 'line' && !p.numbered && p.span > 1)).toBe(true)
  })

  it("counts a repeated block's run from the block's lines the first excerpt shows (a seed the property found in CI)", () => {
    // The first excerpt's tail starts inside the block: 2 of its 3 lines, then the count line.
    const original = mergedLog(2166, 31)
    const once = trimResult(original, { tool: 'terminal', maxChars: 3000 })
    expect(once.text).toContain('    at a.Node1.accept (Node.java:7)\n    at a.Visitor.visit (Visitor.java:30)\n    [12 lines: the 3 lines above, 4 more times]')
    const twice = trimResult(once.text, { tool: 'terminal', maxChars: 900 })
    const src = original.split('\n')
    const range = twice.omitted.find((r) => r.end - r.start > 1000)!
    const real = src.slice(range.start - 1, range.end).reduce((sum, l) => sum + l.length + 1, 0)
    // (it was the count line's own length and one char per line: 409 chars short)
    expect(Math.abs(range.chars - real)).toBeLessThanOrEqual(10)
    // the parse read the count line as its 12 lines
    expect(twice.omitted.some((r) => r.start <= 2170 && r.end >= 2170)).toBe(true)
  })

  it('reads a line that only ends like a run (`(x64)`) as one line when the counts say so', () => {
    // Head: `a (x2)` is a run of 2; `VSTest 17.14 (x64)` is the tool's text. Only one reading adds up to 3 lines.
    const body = ['VSTest 17.14 (x64)', 'a (x2)', '[... spillway: omitted lines 4-9 of 10 (60 chars) ...]', 'end'].join('\n')
    const ex = parseExcerpt(body)!
    expect(ex.pieces.map((p) => (p.kind === 'line' ? [p.n, p.span] : [p.from, p.to]))).toEqual([[1, 1], [2, 2], [4, 9], [10, 1]])
  })

  it('property: a re-trim holds the budget, keeps original numbers and can itself be read back whole', () => {
    fc.assert(
      fc.property(fc.integer({ min: 400, max: 3000 }), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 3000, max: 16000 }), fc.integer({ min: 900, max: 8000 }), (n, seed, b1, b2) => {
        const original = mergedLog(n, seed)
        const lines = original.split('\n').length - 1
        const fitted = trimResult(original, { tool: 'terminal', maxChars: b1 })
        const once = fitted.text
        const first = parseExcerpt(once)
        if (fitted.applied.includes('fit')) {
          expect(first).toBeDefined() // every fitter excerpt is read back (it was not when a line stood for a run)
          expect(tileWhole(tiles(first!), lines)).toBe(true)
        }
        const twice = trimResult(once, { tool: 'terminal', maxChars: b2 })
        expect(twice.text.length).toBeLessThanOrEqual(b2)
        if (!twice.applied.includes('refit')) return
        numberedLinesAreOriginal(twice.text.replace(/ \(x\d+\)$/gm, '').replace(/^(\d+): \[\d+ blank lines\]$/gm, '$1: ').replace(/^\d+: +\[\d+ lines: the \d+ lines above, \d+ more times?\]$/gm, ''), original)
        // What it shows and what it names as left out are every line of the original, once.
        const again = parseExcerpt(twice.text)!
        expect(tileWhole(tiles(again), lines)).toBe(true)
        const gaps = again.pieces.flatMap((p) => (p.kind === 'gap' ? [[p.from, p.to]] : []))
        expect(twice.omitted.map((r) => [r.start, r.end])).toEqual(mergeTouching(gaps))
        // and each range's chars are the original's (exact for `(xN)` copies, empty lines' runs and
        // a block's repeats whose block the first excerpt shows; a block the first excerpt cut
        // (its first lines in a gap, the rest in the tail) is estimated from the lines it shows:
        // its lines here differ in length by up to 5 chars of 40, so within 10%)
        const src = original.split('\n')
        const shown = (first?.pieces ?? []).filter((p) => p.kind === 'line')
        const estimated: number[][] = []
        shown.forEach((p, i) => {
          const m = /\[(\d+) lines: the (\d+) lines above, \d+ more times?\]$/.exec(p.text)
          if (m === null || Number(m[1]) !== p.span) return
          const k = Number(m[2])
          if (i < k || !shown.slice(i - k, i).every((b, j) => b.span === 1 && b.clipped === undefined && b.n === p.n - k + j)) estimated.push([p.n, p.n + p.span - 1])
        })
        for (const r of twice.omitted) {
          const real = src.slice(r.start - 1, r.end).reduce((sum, l) => sum + l.length + 1, 0)
          if (estimated.some(([a, b]) => r.start <= b! && r.end >= a!)) expect(Math.abs(r.chars - real)).toBeLessThanOrEqual(real * 0.1)
          else expect(r.chars).toBe(real)
        }
      }),
      { numRuns: 120 },
    )
  })
})

/** Touching ranges joined. */
function mergeTouching(ranges: number[][]): number[][] {
  const out: number[][] = []
  for (const [a, b] of ranges) {
    const last = out[out.length - 1]
    if (last !== undefined && a! <= last[1]! + 1) last[1] = b!
    else out.push([a!, b!])
  }
  return out
}

describe('re-fitting: a failure and its trace before weaker lines (round 26)', () => {
  /** 400 lines: a warning every 60, a failure with 40 frames at line 250, Maven's verdict at the end. */
  function warnedLog(): string {
    const lines: string[] = []
    for (let i = 1; i <= 400; i++) {
      if (i % 60 === 0) lines.push(`WARNING: module m${i} uses a deprecated API`)
      else if (i === 250) {
        lines.push('[ERROR] No space left on device', 'java.io.IOException: No space left on device')
        for (let f = 0; f < 40; f++) lines.push(`    at org.example.layer${f}.Step${f}.run (Step${f}.java:${100 + f})`)
      } else lines.push(`[INFO] compiling module m${i}`)
    }
    lines.push('[INFO] BUILD FAILURE', '[ERROR] Failed to execute goal on project demo: No space left on device')
    return lines.join('\n') + '\n'
  }
  const frames = (text: string): number => (text.match(/ at org\.example\./g) ?? []).length
  const warnings = (text: string): number => (text.match(/WARNING: module/g) ?? []).length

  it("keeps the failure's frames the first excerpt showed before the warnings it had room for", () => {
    const once = trimResult(warnedLog(), { tool: 'terminal', maxChars: 8000 })
    expect([frames(once.text), warnings(once.text)]).toEqual([40, 6])
    const twice = trimResult(once.text, { tool: 'terminal', maxChars: 3000 })
    expect(twice.applied).toEqual(['refit'])
    // (before: 5 frames and all 6 warnings)
    expect(frames(twice.text)).toBeGreaterThanOrEqual(25)
    expect(warnings(twice.text)).toBe(0)
    numberedLinesAreOriginal(twice.text, warnedLog())
  })

  it('still takes the warnings when the trace leaves room for them', () => {
    const once = trimResult(warnedLog(), { tool: 'terminal', maxChars: 8000 })
    const twice = trimResult(once.text, { tool: 'terminal', maxChars: 6500 })
    expect(frames(twice.text)).toBe(40)
    expect(warnings(twice.text)).toBeGreaterThan(0)
  })
})

describe('reading back a tail and a middle by their shape (review, round 22)', () => {
  it('numbers a tail that holds a merged run and a line that only ends like one (`Release (x86)`)', () => {
    const lines = Array.from({ length: 200 }, (_, i) => (i === 99 ? 'ERROR: test_checkout failed: expected 1 got 2' : `[INFO] compiling module ${i + 1} ok`))
    lines.push('Release (x86)', '[INFO] done 1', '[INFO] done 2', '', '', '', '')
    const original = `${lines.join('\n')}\n`
    const once = trimResult(original, { tool: 'terminal', maxChars: 2000 }).text
    const ex = parseExcerpt(once)!
    expect(tileWhole(tiles(ex), 207)).toBe(true)
    // every shown line is the original's line of its number, a merged one its run's first
    for (const p of ex.pieces) if (p.kind === 'line') expect(lines[p.n - 1]).toBe(p.text === '[4 blank lines]' ? '' : p.text.replace(/^\d+: /, ''))
    const again = trimResult(once, { tool: 'terminal', maxChars: 1200 })
    expect(again.applied).toEqual(['refit'])
    numberedLinesAreOriginal(again.text, original)
    expect(tileWhole(tiles(parseExcerpt(again.text)!), 207)).toBe(true)
  })

  it("ends the middle where a line's run would disagree with its text (second review)", () => {
    // The fitter's own excerpt of 40 lines `20: item N` and a merged `done (x2)`: its tail starts
    // like numbered lines. `20: item 37` cannot stand for lines 20-36, so it is the tail's.
    const lines = [...Array.from({ length: 40 }, (_, i) => `20: item ${i + 1}`), 'done', 'done']
    const once = trimResult(`${lines.join('\n')}\n`, { tool: 'terminal', maxChars: 400 }).text
    expect(once).toContain('\n20: item 37\n')
    const ex = parseExcerpt(once)!
    expect(tileWhole(tiles(ex), 42)).toBe(true)
    for (const p of ex.pieces) if (p.kind === 'line') expect(lines[p.n - 1]).toBe(p.text.replace(/ \(x2\)$/, ''))
    // `3: retry (x6)` stands for 6 lines, so `5: item processed` below it is the tool's tail line 9, not line 5.
    const body = ['h', '[... spillway: omitted lines 2-8 of 12 (99 chars); 1 salient line there, first at line 2; kept lines from it are numbered "N: " ...]', '2: ERROR: test failed', '3: retry (x6)', '5: item processed', 'x', 'done (x2)', 'y', ''].join('\n')
    expect(parseExcerpt(body)!.pieces.map((p) => (p.kind === 'line' ? [p.n, p.span, p.text] : [p.from, p.to]))).toEqual([
      [1, 1, 'h'],
      [2, 1, 'ERROR: test failed'],
      [3, 6, 'retry (x6)'],
      [9, 1, '5: item processed'],
      [10, 1, 'x'],
      [11, 1, 'done (x2)'],
      [12, 1, 'y'],
    ])
  })

  it('counts a clipped line as the fitter does: its cut end left out, the run before it without it', () => {
    const lines = Array.from({ length: 400 }, (_, i) => `[INFO] compiling module ${i + 1} ok`)
    lines[199] = `ERROR: test_a failed: ${'x'.repeat(600)}`
    const once = trimResult(`${lines.join('\n')}\n`, { tool: 'terminal', maxChars: 4000 })
    expect(once.text).toMatch(/^200: ERROR: test_a failed: x+… \[\+\d+ chars\]$/m)
    const again = trimResult(once.text, { tool: 'terminal', maxChars: 2000 })
    expect(again.text).toContain('200: ERROR: test_a failed')
    // the same ranges before the clipped line and of its cut end (the lead's chars counted the cut end before)
    expect(again.omitted.slice(0, 2)).toEqual(once.omitted.slice(0, 2))
  })
})

describe('a re-trim of a very long excerpt', () => {
  it('reads 150,000 numbered lines back without running out of stack (it threw a RangeError)', () => {
    const n = 150_000
    const lines = ['$ make test', `[... spillway: omitted lines 2-${n + 1} of ${n + 2} (999 chars) ...]`]
    for (let i = 2; i <= n + 1; i++) lines.push(i % 5000 === 0 ? `${i}: ERROR: case ${i} failed` : `${i}: ok ${i}`)
    lines.push('exit 1')
    const text = lines.join('\n')
    expect(parseExcerpt(text)?.pieces).toHaveLength(n + 2)
    const out = trimResult(text, { tool: 'terminal', maxChars: 4000 })
    expect(out.applied).toEqual(['refit'])
    expect(out.text.length).toBeLessThanOrEqual(4000)
    expect(out.text).toContain('100000: ERROR: case 100000 failed')
  })
})
