import { describe, expect, it } from 'vitest'
import type { TrimCase } from '../src/corpus/types.js'
import { redactionMarkdown, runRedaction } from '../src/suites/redaction.js'

const clean = Array.from({ length: 400 }, (_, i) => `2024-01-01T00:00:${String(i % 60).padStart(2, '0')}Z step ${i}: compiling module_${i} (token count: ${i})`).join('\n')
const cases: TrimCase[] = [
  { kind: 'ci-log', name: 'clean.log', text: clean },
  { kind: 'ci-log', name: 'leaky.log', text: 'ok\nexport DEPLOY_TOKEN=9f8e7d6c5b4a39281706\nok' },
]

describe('redaction suite', () => {
  const r = runRedaction(cases)
  it('plants secrets of every format and counts the caught ones', () => {
    expect(r.planted).toBeGreaterThanOrEqual(400)
    expect(Object.keys(r.byKind)).toContain('private-key')
    expect(r.caught).toBe(r.planted)
    expect(r.recall).toBe(1)
  })
  it('counts changed clean lines as false positives, with examples', () => {
    expect(r.cleanLines).toBe(403)
    expect(r.touchedLines).toBe(1) // the DEPLOY_TOKEN line: a real secret in the "clean" set is reported, to be read
    expect(r.touchedExamples[0]).toContain('leaky.log:2:')
    expect(redactionMarkdown(r)).toContain('1 of 403')
  })
})
