import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { trimResult } from '../pipeline/trim-result.js'
import { lineView, viewLabel } from './view.js'

const lines = (n: number, at: number, failure: string): string =>
  Array.from({ length: n }, (_, i) => (i + 1 === at ? failure : `tests/test_mod_${i + 1}.py::test_case PASSED ${'.'.repeat(40)} [${i % 100}%]`)).join('\n') + '\n'

/**
 * `N: shown` is line N of `lines`; or, when a filter merged a run, its first line with ` (xK)`
 * (lines N..N+K-1 all equal to it) or `[K blank lines]` (lines N..N+K-1 all blank).
 */
function expectLineN(lines: readonly string[], n: number, shown: string): void {
  const line = lines[n - 1]
  if (line === shown) return
  const blank = /^\[(\d+) blank lines\]$/.exec(shown)
  const rep = / \(x(\d+)\)$/.exec(shown)
  if (blank !== null) {
    for (let k = 0; k < Number(blank[1]); k++) expect(lines[n - 1 + k]?.trim(), `line ${n + k}`).toBe('')
  } else if (rep !== null) {
    const text = shown.slice(0, rep.index)
    for (let k = 0; k < Number(rep[1]); k++) expect(lines[n - 1 + k], `line ${n + k}`).toBe(text)
  } else expect(line, `line ${n}`).toBe(shown)
}

describe('lineView', () => {
  it('finds the text inside envelopes and terminal results', () => {
    expect(lineView(JSON.stringify({ result: 'a\nb' }))).toEqual({ text: 'a\nb', path: ['result'], shape: 'envelope' })
    expect(lineView(JSON.stringify({ content: [{ type: 'text', text: 'x\ny' }] }))).toEqual({ text: 'x\ny', path: ['content'], shape: 'envelope' })
    expect(lineView(JSON.stringify('one\ntwo'))).toEqual({ text: 'one\ntwo', path: ['(string)'], shape: 'envelope' })
    expect(lineView(JSON.stringify({ exit_code: 1, output: 'o\np', error: null }))).toEqual({ text: 'o\np', path: ['output'], shape: 'terminal' })
    expect(lineView(JSON.stringify({ stdout: 's', returncode: 0 }))?.path).toEqual(['stdout'])
    expect(lineView(`  ${JSON.stringify({ output: 'o', exit_code: 0 })}\n`)?.text).toBe('o')
  })

  it('is undefined for text and for JSON that is not around text', () => {
    expect(lineView('plain log\nline 2')).toBeUndefined()
    expect(lineView('')).toBeUndefined()
    expect(lineView(JSON.stringify({ output: 'x', other: 1 }))).toBeUndefined() // no terminal key
    expect(lineView(JSON.stringify({ output: 5, exit_code: 0 }))).toBeUndefined()
    expect(lineView(JSON.stringify([{ output: 'x', exit_code: 0 }]))).toBeUndefined()
    expect(lineView('{"output": "unterminated, "exit_code": 1')).toBeUndefined()
  })

  it('answers the same for the same text (memoized, deterministic)', () => {
    const t = JSON.stringify({ result: lines(50, 10, 'ERROR x') })
    const a = lineView(t)
    lineView('other')
    expect(lineView(t)).toEqual(a)
    expect(lineView(t.slice())).toEqual(a)
  })

  it('names views for the model', () => {
    expect(viewLabel(['output'])).toBe('the "output" field')
    expect(viewLabel(['(string)', 'output'])).toBe('the text inside a JSON string > "output"')
    expect(viewLabel(['content+isError'])).toBe('the "content" field')
  })
})

describe('trimResult on JSON around text', () => {
  const output = lines(4543, 3000, 'FAILED tests/test_io.py::test_roundtrip - AssertionError: expected 3 got 4')

  it('numbers, counts and reports salient lines of the terminal output field', () => {
    const raw = JSON.stringify({ output, exit_code: 1, error: null })
    const out = trimResult(raw, { tool: 'terminal', maxChars: 4000 })
    expect(out.applied).toContain('terminal')
    expect(out.view).toEqual(['output'])
    expect(out.salient).toEqual([3000])
    expect(out.original).toMatchObject({ chars: raw.length, lines: 4543 })
    expect(out.text.length).toBeLessThanOrEqual(4000)
    expect(JSON.parse(out.text).output).toContain('\n3000: FAILED tests/test_io.py')
    // Ranges are output lines: the failure is kept, lines around it are left out.
    expect(out.omitted.length).toBeGreaterThan(0)
    for (const r of out.omitted) expect(r.start <= 3000 && r.end >= 3000).toBe(false)
    expect(out.omitted.every((r) => r.end <= 4543)).toBe(true)
  })

  it('does the same for an MCP result envelope', () => {
    const raw = JSON.stringify({ result: output })
    const out = trimResult(raw, { tool: 'mcp_tool', maxChars: 4000 })
    expect(out.applied[0]).toBe('unwrap')
    expect(out.view).toEqual(['result'])
    expect(out.salient).toEqual([3000])
    expect(out.original.lines).toBe(4543)
    expect(out.text).toContain('\n3000: FAILED tests/test_io.py')
    expect(out.omitted.length).toBeGreaterThan(0)
    expect(out.omitted[out.omitted.length - 1]!.end).toBeLessThan(4543)
  })

  it('leaves results that are not wrapped as they were, and small wrapped ones unchanged', () => {
    const plain = trimResult(output, { tool: 'terminal', maxChars: 4000 })
    expect(plain.view).toBeUndefined()
    expect(plain.salient).toEqual([3000])
    const small = JSON.stringify({ result: 'a\nERROR b\nc' })
    const out = trimResult(small, { maxChars: 4000 })
    expect(out).toMatchObject({ changed: false, text: small, view: ['result'], salient: [2] })
    expect(out.original).toMatchObject({ chars: small.length, lines: 3 })
  })

  // Every `N: line` an excerpt shows is line N of the view, for envelopes and terminal results.
  it('property: numbered lines of the excerpt are lines of the view', () => {
    const line = fc.oneof(
      { weight: 6, arbitrary: fc.stringMatching(/^[a-z][a-z ._/]{20,70}$/) },
      { weight: 1, arbitrary: fc.constantFrom('ERROR: boom', 'FAILED tests/x.py::test_y', 'Traceback (most recent call last):', '  at Foo.bar(Foo.java:12)', 'warning: unused', '') },
    )
    const shape = fc.constantFrom('result', 'mcp', 'terminal', 'string')
    // Runs of repeated and blank lines, so exact dedup and blank-run collapse merge lines.
    const run = fc.tuple(line, fc.oneof({ weight: 4, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.integer({ min: 2, max: 60 }) }))
    let merged = 0 // runs whose excerpt numbers lines after exact dedup or blank-run collapse
    const runs = fc.array(run, { minLength: 50, maxLength: 300 }).map((rs) => rs.flatMap(([l, n]) => Array<string>(n).fill(l)))
    fc.assert(
      fc.property(fc.oneof(fc.array(line, { maxLength: 30 }), fc.array(line, { minLength: 200, maxLength: 800 }), runs), shape, fc.integer({ min: 400, max: 6000 }), (ls, kind, maxChars) => {
        const text = ls.join('\n')
        const raw =
          kind === 'result' ? JSON.stringify({ result: text })
          : kind === 'mcp' ? JSON.stringify({ content: [{ type: 'text', text }], isError: true })
          : kind === 'terminal' ? JSON.stringify({ output: text, exit_code: 2, error: 'failed' })
          : JSON.stringify(text)
        const view = lineView(raw)
        expect(view?.text).toBe(text)
        const out = trimResult(raw, { tool: kind === 'terminal' ? 'terminal' : 'mcp_tool', maxChars })
        expect(out.text.length).toBeLessThanOrEqual(maxChars)
        expect(out.view).toEqual(view!.path)
        const viewLines = text.split('\n')
        expect(out.original.lines).toBe(text === '' ? 0 : viewLines.length - (text.endsWith('\n') ? 1 : 0))
        for (const n of out.salient) expect(n).toBeLessThanOrEqual(out.original.lines)
        for (const r of out.omitted) expect(r.end).toBeLessThanOrEqual(Math.max(1, out.original.lines))
        let shown = out.text
        if (kind === 'terminal' && out.applied.includes('terminal')) shown = (JSON.parse(out.text) as { output: string }).output
        for (const m of shown.matchAll(/^(\d+): (.*)$/gm)) expectLineN(viewLines, Number(m[1]), m[2]!)
        if ((out.applied.includes('dedup-exact') || out.applied.includes('blank')) && out.applied.includes('fit') && /^\d+: /m.test(shown)) merged++
      }),
      { numRuns: 150 },
    )
    expect(merged).toBeGreaterThan(0)
  })
})

describe('lineView memo', () => {
  it('returns a frozen view, so a caller cannot change what later calls (and fetch_result) see', () => {
    const s = JSON.stringify({ result: Array.from({ length: 300 }, (_, i) => `line ${i}`).join('\n') })
    const v = lineView(s)!
    expect(Object.isFrozen(v) && Object.isFrozen(v.path)).toBe(true)
    expect(() => (v.path as string[]).push('evil')).toThrow()
    expect(trimResult(s, { maxChars: 500 }).view).toEqual(['result'])
  })
})
