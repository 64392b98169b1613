import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { trimAria } from '../src/filters/aria/aria.js'
import { summarizeDiff } from '../src/filters/diff/diff.js'
import { trimEvents } from '../src/filters/events/events.js'
import { DEFAULT_FILTERS } from '../src/filters/index.js'
import { summarizeJson } from '../src/filters/json/json.js'
import { summarizeSearch } from '../src/filters/search/search.js'
import { trimTerminalJson } from '../src/filters/terminal/terminal.js'
import { trimResult } from '../src/pipeline/trim-result.js'

// Inputs shaped like each kind of tool output, with odd corners mixed in.
const word = fc.string({ maxLength: 12 })
const odd = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 20 })
const jsonArb = fc.oneof(
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v, null, 2)),
  fc.array(fc.record({ id: fc.nat(), name: word, tags: fc.array(word, { maxLength: 4 }), body: fc.oneof(fc.constant(null), odd) }), { maxLength: 300 }).map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 3000 }).map((s) => JSON.stringify({ result: s })),
  fc.record({ output: fc.string({ maxLength: 3000 }), exit_code: fc.integer(), error: fc.option(word) }).map((v) => JSON.stringify(v)),
)
const hunkArb = fc.array(fc.oneof(word.map((w) => ` ${w}`), word.map((w) => `+${w}`), word.map((w) => `-${w}`), fc.constant('\\ No newline at end of file')), { minLength: 1, maxLength: 12 })
const diffArb = fc
  .array(fc.tuple(fc.string({ minLength: 1, maxLength: 20 }).map((s) => s.replace(/\s/g, '_')), fc.array(hunkArb, { maxLength: 4 }), fc.boolean()), { maxLength: 30 })
  .map((files) =>
    files
      .map(([path, hunks, binary]) =>
        [`diff --git a/${path} b/${path}`, ...(binary ? [`Binary files a/${path} and b/${path} differ`] : [`--- a/${path}`, `+++ b/${path}`]), ...hunks.map((h) => `@@ -1,${h.filter((l) => !l.startsWith('+')).length} +1,${h.filter((l) => !l.startsWith('-')).length} @@\n${h.join('\n')}`)].join('\n'),
      )
      .join('\n'),
  )
const grepArb = fc.array(fc.tuple(fc.constantFrom('a/b.js', 'c:d/e.ts', './x y/z.go', 'w-1-2.py', 'src/deep/path/file.rs'), fc.nat(5000), odd), { maxLength: 300 }).map((rows) => rows.map(([p, n, t]) => `${p}:${n}:${t}`).join('\n'))
const ariaArb = fc
  .array(fc.tuple(fc.nat(8), fc.constantFrom('link', 'button', 'listitem', 'generic', 'LayoutTable', 'textbox', '/url:'), word, fc.nat(999)), { maxLength: 300 })
  .map((rows) => rows.map(([d, role, name, ref]) => `${'  '.repeat(d)}- ${role} "${name}" [ref=e${ref}] [cursor=pointer]`).join('\n'))
const eventsArb = fc.array(fc.oneof(fc.constantFrom('Events (9):', '## Events', 'Comments:', ''), word.map((w) => `  - ${w}`)), { maxLength: 200 }).map((ls) => ls.join('\n'))
const anyKind = fc.oneof(jsonArb, diffArb, grepArb, ariaArb, eventsArb, odd)
const budget = fc.oneof(fc.nat(100), fc.integer({ min: 100, max: 6000 }))
const tool = fc.constantFrom(undefined, 'terminal', 'search_files', 'browser_snapshot', 'patch', 'kanban_show', 'read_file')

const params = { numRuns: 300 }

describe('filters: invariants of trimResult on structured outputs', () => {
  it('never throws, fits the budget, keeps surrogate pairs whole, and is deterministic', () => {
    fc.assert(
      fc.property(anyKind, budget, tool, (text, maxChars, t) => {
        const opts = t === undefined ? { maxChars } : { maxChars, tool: t }
        const a = trimResult(text, opts)
        expect(a.text.length).toBeLessThanOrEqual(maxChars)
        if (text.isWellFormed()) expect(a.text.isWellFormed()).toBe(true)
        expect(trimResult(text.slice(), { ...opts })).toEqual(a)
      }),
      params,
    )
  })

  it('returns input at or under budget unchanged', () => {
    fc.assert(
      fc.property(anyKind, fc.nat(100), tool, (text, slack, t) => {
        const out = trimResult(text, t === undefined ? { maxChars: text.length + slack } : { maxChars: text.length + slack, tool: t })
        expect(out.changed).toBe(false)
        expect(out.text).toBe(text)
      }),
      params,
    )
  })

  it('a throwing filter is skipped and the budget still holds', () => {
    const boom = { name: 'boom', kinds: 'any' as const, lossless: false, preservesLines: true, run: (): string => { throw new Error('filter bug') } }
    fc.assert(
      fc.property(anyKind, budget, (text, maxChars) => {
        const out = trimResult(text, { maxChars }, { filters: [boom, ...DEFAULT_FILTERS] })
        expect(out.text.length).toBeLessThanOrEqual(maxChars)
        expect(out.applied).not.toContain('boom')
      }),
      { numRuns: 150 },
    )
  })
})

describe('filters: each one alone', () => {
  const each: [string, (text: string, budget: number) => string | undefined][] = [
    ['json', summarizeJson],
    ['diff', summarizeDiff],
    ['search', summarizeSearch],
    ['aria', trimAria],
    ['terminal', trimTerminalJson],
    ['events', (t) => trimEvents(t)],
  ]
  for (const [name, run] of each) {
    it(`${name}: never throws, deterministic, returns a string or undefined`, () => {
      fc.assert(
        fc.property(anyKind, budget, (text, b) => {
          const a = run(text, b)
          expect(a === undefined || typeof a === 'string').toBe(true)
          expect(run(text.slice(), b)).toBe(a)
        }),
        { numRuns: 200 },
      )
    })
  }

  it('json and terminal stay within the budget they are given', () => {
    fc.assert(
      fc.property(jsonArb, fc.integer({ min: 0, max: 5000 }), (text, b) => {
        const j = summarizeJson(text, b)
        if (j !== undefined) expect(j.length).toBeLessThanOrEqual(b)
        const t = trimTerminalJson(text, b)
        if (t !== undefined) expect(t.length).toBeLessThanOrEqual(b)
      }),
      params,
    )
  })
})

// Review finding 5: `omitted` is never silently empty. Every line of the input is either shown
// verbatim in the excerpt (head, tail, a numbered `N: line`, the first line of a merged run) or
// inside a reported omitted range; coarse (`omittedExact: false`) after structural filters.
describe('filters: omitted ranges account for every line not shown', () => {
  const logLine = fc.oneof(word.map((w) => `step ${w} ok`), fc.constantFrom('ERROR: boom', 'WARN retrying', '', 'exit code 1', 'panic: nil map'))
  const logArb = fc.array(fc.tuple(logLine, fc.oneof(fc.constant(1), fc.integer({ min: 2, max: 80 }))), { maxLength: 200 }).map((rs) => rs.flatMap(([l, n]) => Array<string>(n).fill(l)).join('\n'))
  const plain = fc.oneof(diffArb, grepArb, ariaArb, eventsArb, logArb).filter((t) => !/[\r\x1b]/.test(t))
  let coarse = 0
  it('every input line is in the excerpt or in an omitted range', () => {
    fc.assert(
      fc.property(plain, fc.integer({ min: 100, max: 6000 }), tool, (text, maxChars, t) => {
        const out = trimResult(text, t === undefined ? { maxChars } : { maxChars, tool: t })
        const lines = text.split('\n')
        if (text.endsWith('\n')) lines.pop()
        if (!out.omittedExact) {
          coarse++
          expect(out.omitted.length).toBe(1)
        }
        let prevEnd = 0
        for (const r of out.omitted) {
          expect(r.start).toBeGreaterThan(prevEnd)
          expect(r.end).toBeGreaterThanOrEqual(r.start)
          expect(r.end).toBeLessThanOrEqual(Math.max(1, lines.length))
          prevEnd = r.end
        }
        const covered = (n: number): boolean => out.omitted.some((r) => r.start <= n && n <= r.end)
        lines.forEach((line, i) => {
          if (!covered(i + 1)) expect(out.text.includes(line), `line ${i + 1}: ${JSON.stringify(line)}`).toBe(true)
        })
      }),
      params,
    )
    expect(coarse).toBeGreaterThan(0)
  })
})
