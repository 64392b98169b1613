import { describe, expect, it } from 'vitest'
import { unwrapEnvelope } from './envelope.js'
import { trimResult } from '../pipeline/trim-result.js'

const log = Array.from({ length: 8000 }, (_, i) => (i === 4000 ? 'FATAL: out of memory in worker 7' : `[build] step ${i} "ok" \\ done`)).join('\n')

describe('unwrapEnvelope', () => {
  it('peels one-key envelopes, MCP text content and JSON in a string', () => {
    expect(unwrapEnvelope(JSON.stringify({ result: 'x' }))).toEqual({ text: 'x', path: ['result'] })
    expect(unwrapEnvelope(JSON.stringify({ content: [{ type: 'text', text: 'y' }], isError: false }))?.text).toBe('y')
    expect(unwrapEnvelope(JSON.stringify(JSON.stringify({ output: 'z' })))).toEqual({ text: 'z', path: ['(string)', 'output'] })
    expect(unwrapEnvelope(JSON.stringify({ result: 'x', other: 1 }))).toBeUndefined()
    expect(unwrapEnvelope('{"result": [1]}')).toBeUndefined()
    expect(unwrapEnvelope('plain')).toBeUndefined()
  })
})

describe('the Hermes MCP shape {"result": "<200 KB text>"}', () => {
  const wrapped = JSON.stringify({ result: log })

  it('comes back as trimmed text, never larger than the input, with the error kept', () => {
    expect(wrapped.length).toBeGreaterThan(200_000)
    for (const maxChars of [4000, 16_000, 100_000, 199_999]) {
      const out = trimResult(wrapped, { tool: 'mcp__ci__get_log', maxChars })
      expect(out.applied[0]).toBe('unwrap')
      expect(out.text.length).toBeLessThanOrEqual(Math.min(maxChars, wrapped.length))
      expect(out.text.startsWith('[build] step 0 "ok" \\ done\n')).toBe(true)
      expect(out.text).toContain('FATAL: out of memory in worker 7')
      expect(out.text).not.toContain('\\n')
    }
  })

  it('is returned unchanged when it fits', () => {
    const out = trimResult(wrapped, { maxChars: wrapped.length })
    expect(out.changed).toBe(false)
    expect(out.text).toBe(wrapped)
  })
})
