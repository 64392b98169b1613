import { describe, expect, it } from 'vitest'
import { trimResult } from './trim-result.js'

describe('the call raises lines that match it', () => {
  // 300 distinct compiler errors, far more than 3,000 chars can show; one names parser.c.
  const lines = Array.from({ length: 2000 }, (_, i) => `cc -c module${i}.c -o module${i}.o`)
  for (let i = 0; i < 300; i++) lines[100 + i * 6] = `src/module${i}.c:${i + 1}:5: error: unknown type name 'thing${i}'`
  lines[100 + 150 * 6] = "src/parser.c:77:5: error: unknown type name 'token'"
  const log = lines.join('\n')
  const shows = (text: string): boolean => text.includes("src/parser.c:77:5: error: unknown type name 'token'")

  it('a line holding a term of the args is kept where it would not be', () => {
    expect(shows(trimResult(log, { tool: 'terminal', maxChars: 3000 }).text)).toBe(false)
    const out = trimResult(log, { tool: 'terminal', maxChars: 3000, args: { command: 'make src/parser.c' } })
    expect(shows(out.text)).toBe(true)
    expect(out.text.length).toBeLessThanOrEqual(3000)
  })

  it('is deterministic: same input and call, same bytes', () => {
    const args = { command: 'make src/parser.c' }
    expect(trimResult(log, { tool: 'terminal', maxChars: 3000, args }).text).toBe(trimResult(log, { tool: 'terminal', maxChars: 3000, args }).text)
  })
})
