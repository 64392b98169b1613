import { describe, expect, it } from 'vitest'
import { trimResult } from '../../pipeline/trim-result.js'
import { trimTerminalJson } from './terminal.js'

const output = Array.from({ length: 3000 }, (_, i) => (i === 2990 ? '\x1b[31mERROR: tests failed\x1b[0m' : `step ${i} "quoted" ok`)).join('\n') + '\nexit 1\n'

describe('trimTerminalJson', () => {
  it('trims output tail-heavy and keeps every other field exactly, in order', () => {
    const result = { output, exit_code: 1, error: null, cwd: '/w' }
    const out = trimTerminalJson(JSON.stringify(result), 3000)!
    expect(out.length).toBeLessThanOrEqual(3000)
    const parsed = JSON.parse(out) as typeof result
    expect(Object.keys(parsed)).toEqual(['output', 'exit_code', 'error', 'cwd'])
    expect(parsed.exit_code).toBe(1)
    expect(parsed.error).toBeNull()
    expect(parsed.cwd).toBe('/w')
    expect(parsed.output).toContain('ERROR: tests failed')
    expect(parsed.output).not.toContain('\x1b')
    expect(parsed.output.endsWith('exit 1\n')).toBe(true)
    expect(parsed.output).toContain('[... spillway: omitted lines')
    // tail-heavy: more of the end than of the start
    expect(parsed.output.indexOf('[... spillway')).toBeLessThan(parsed.output.length / 2)
  })

  it('collapses progress bars inside the output', () => {
    const bar = Array.from({ length: 2000 }, (_, i) => `\rdownloading ${i}/2000`).join('')
    const out = trimTerminalJson(JSON.stringify({ output: `get\n${bar}\ndone`, exit_code: 0 }), 1000)!
    expect(JSON.parse(out).output).toBe('get\ndownloading 1999/2000\ndone')
  })

  it('steps aside for JSON that is not a command result', () => {
    expect(trimTerminalJson(JSON.stringify({ output: output }), 1000)).toBeUndefined()
    expect(trimTerminalJson(JSON.stringify([1, 2]), 1000)).toBeUndefined()
    expect(trimTerminalJson('not json', 1000)).toBeUndefined()
    expect(trimTerminalJson(JSON.stringify({ output: 'x', exit_code: 0, error: 'e'.repeat(5000) }), 1000)).toBeUndefined()
  })

  it('runs in trimResult for Hermes-style terminal results', () => {
    const out = trimResult(JSON.stringify({ output, exit_code: 1, error: null }), { tool: 'terminal', maxChars: 4000 })
    expect(out.applied).toEqual(['terminal'])
    expect(JSON.parse(out.text).exit_code).toBe(1)
  })
})
