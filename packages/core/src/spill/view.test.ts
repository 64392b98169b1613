import { describe, expect, it } from 'vitest'
import { memoryStore } from '../store/memory.js'
import { createSpillway } from './spillway.js'

// A Hermes terminal result of ~400 KB: one JSON line around 4543 output lines, a failure at 3000.
const FAILURE = 'FAILED tests/test_io.py::test_roundtrip - AssertionError: expected 3 got 4'
const output =
  Array.from({ length: 4543 }, (_, i) => (i + 1 === 3000 ? FAILURE : `tests/test_mod_${i + 1}.py::test_case PASSED ${'.'.repeat(40)} [${i % 100}%]`)).join('\n') + '\n'
const S = { sessionId: 'chat-1' }
const calls = (content: string): Array<Record<string, unknown>> =>
  content.split('\n').flatMap((l) => {
    const m = /^- fetch_result (\{.*\})$/.exec(l)
    return m === null ? [] : [JSON.parse(m[1]!) as Record<string, unknown>]
  })
const sw = () => createSpillway({ store: memoryStore(), maxChars: 4000, fullMaxChars: 1_000_000 })

describe.each([
  { name: 'Hermes terminal result', tool: 'terminal', raw: JSON.stringify({ output, exit_code: 1, error: null }), label: 'the "output" field' },
  { name: 'MCP result envelope', tool: 'mcp_server_tool', raw: JSON.stringify({ result: output }), label: 'the "result" field' },
  { name: 'MCP content parts', tool: 'mcp_server_tool', raw: JSON.stringify({ content: [{ type: 'text', text: output }], isError: true }), label: 'the "content" field' },
])('line numbers of a $name', ({ tool, raw, label }) => {
  it('agree between the excerpt, the handle block and fetch_result', async () => {
    expect(raw.length).toBeGreaterThan(380_000)
    const s = sw()
    const res = await s.handle({ tool, result: raw, ...S })
    expect(res.content.length).toBeLessThanOrEqual(4000)
    const id = res.handle!.id
    // The excerpt numbers output lines (inside the JSON string for the terminal shape).
    expect(res.content).toContain(`3000: ${FAILURE}`)
    expect(res.outcome.salient).toEqual([3000])
    expect(res.content).toContain(`lines of ${label}: 4543 lines, 1 salient line (first at line 3000)`)
    // The block's grep suggestion, run as the model would, finds the same line at the same number.
    const grep = calls(res.content).find((c) => c['mode'] === 'grep')!
    expect(String(grep['pattern'])).toMatch(/^FAILED tests\/test_io\.py/)
    const found = await s.fetchTool.execute(grep, S)
    expect(found).toContain(`3000: ${FAILURE}`)
    expect(found).toContain(`1 matching lines of 4543 of ${label}`)
    // Its range suggestion points at output lines too.
    const range = calls(res.content).find((c) => c['mode'] === 'range')!
    expect(range['start']).toBeGreaterThan(1)
    expect(Number(range['start'])).toBeLessThan(4543)
    const r = await s.fetchTool.execute({ id, mode: 'range', start: 2998, count: 5 }, S)
    expect(r.split('\n')).toEqual([`[lines 2998-3002 of 4543 of ${label}]`, ...output.split('\n').slice(2997, 3002)])
    expect(r.split('\n')[3]).toBe(FAILURE)
  })

  it('keep the raw JSON whole: full returns it byte for byte, stat gives both sizes', async () => {
    const s = sw()
    const { handle } = await s.handle({ tool, result: raw, ...S })
    const full = await s.fetchTool.execute({ id: handle!.id, mode: 'full' }, S)
    const nl = full.indexOf('\n')
    expect(full.slice(0, nl)).toBe(`[full result ${handle!.id}: ${raw.length} chars, 1 lines]`)
    expect(full.slice(nl + 1)).toBe(raw)
    const stat = await s.fetchTool.execute({ id: handle!.id, mode: 'stat' }, S)
    expect(stat).toContain(`chars: ${raw.length}\n`)
    expect(stat).toContain('lines: 1\n')
    expect(stat).toContain(`the text inside this JSON: ${output.length} chars, 4543 lines`)
    expect(stat).toContain(`read the lines of ${label}`)
  })

  it('are served the same after the blob is re-read from the store', async () => {
    const store = memoryStore()
    const a = createSpillway({ store, maxChars: 4000 })
    const { handle } = await a.handle({ tool, result: raw, ...S })
    // A fresh spillway on the same store: nothing cached, the view is found again on load.
    const b = createSpillway({ store, maxChars: 4000 })
    const r = await b.fetchTool.execute({ id: handle!.id, mode: 'range', start: 3000, count: 1 }, S)
    expect(r).toBe(`[lines 3000-3000 of 4543 of ${label}]\n${FAILURE}`)
  })
})

describe('views in the spill layer', () => {
  it('read char offsets in the view for one-line text inside an envelope', async () => {
    const inner = JSON.stringify(Array.from({ length: 3000 }, (_, i) => ({ id: i, name: `item-${i}` })))
    const s = sw()
    const { handle } = await s.handle({ tool: 'mcp_api', result: JSON.stringify({ result: inner }), ...S })
    const r = await s.fetchTool.execute({ id: handle!.id, mode: 'range', offset: 0, count: 20 }, S)
    expect(r).toContain(`[chars 1-20 of ${inner.length} of the "result" field]\n${inner.slice(0, 20)}`)
  })

  it('leave results that are not JSON around text as they were', async () => {
    const s = sw()
    const res = await s.handle({ tool: 'terminal', result: output, ...S })
    expect(res.outcome.view).toBeUndefined()
    expect(res.content).toContain(`${output.length} chars, 4543 lines, kind`)
    expect(res.content).not.toContain(' field')
    const id = res.handle!.id
    expect(await s.fetchTool.execute({ id, mode: 'range', start: 3000, count: 1 }, S)).toBe(`[lines 3000-3000 of 4543]\n${FAILURE}`)
    expect(await s.fetchTool.execute({ id, mode: 'stat' }, S)).not.toContain('view')
    // A JSON object that is no envelope keeps its raw lines.
    const api = JSON.stringify({ items: output.split('\n'), total: 4543 }, null, 1)
    const r2 = await s.handle({ tool: 'api', result: api, ...S })
    expect(r2.outcome.view).toBeUndefined()
    const stat = await s.fetchTool.execute({ id: r2.handle!.id, mode: 'stat' }, S)
    expect(stat).toContain(`lines: ${api.split('\n').length}`)
  })

  it('grep suggestions match ANSI-coloured salient lines, read as the excerpt showed them', async () => {
    const coloured = output.replace(FAILURE, `\x1b[31mFAILED\x1b[0m tests/test_io.py::test_roundtrip - AssertionError: expected 3 got 4`)
    const s = sw()
    const raw = JSON.stringify({ output: coloured, exit_code: 1 })
    const res = await s.handle({ tool: 'terminal', result: raw, ...S })
    const grep = calls(res.content).find((c) => c['mode'] === 'grep')!
    const out = await s.fetchTool.execute(grep, S)
    expect(out).toContain('3000: FAILED tests/test_io.py::test_roundtrip')
    expect(out).toContain('of the "output" field (ANSI codes removed)')
    const full = await s.fetchTool.execute({ id: grep['id'], mode: 'full' }, S)
    expect(full.endsWith(`\n${raw}`)).toBe(true) // full stays raw, byte for byte
    expect(full.split('\n')[0]).toMatch(/raw: ANSI codes included/)
  })
})
