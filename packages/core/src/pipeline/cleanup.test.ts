import { describe, expect, it } from 'vitest'
import { parseExcerpt } from '../trim/excerpt.js'
import { trimResult } from './trim-result.js'

describe('cleanup filters on an excerpt keep its line numbers', () => {
  // Over 1,000,000 chars the progress-bar filter runs on the excerpt after the fit (`maxInput`),
  // where a kept line is `N: ` and its text: collapsing `0%\r...\r100% done` to its last frame
  // dropped the number, and the excerpt no longer read back as spillway's (a re-trim then
  // numbered it as plain text).
  const lines = Array.from({ length: 52_000 }, (_, i) => `[INFO] step ${i} ok, nothing to report`)
  lines[30_000] = 'ERROR: upload of build artifacts failed'
  lines[30_001] = 'uploading 0%\r uploading 50%\r uploading 100% done'
  // tail lines of the tool's own that only start like numbers, right after the middle
  for (let k = 51_800; k < 52_000; k++) lines[k] = `${k - 51_799}: fetching 0%\rdone`
  const log = `${lines.join('\n')}\n`

  it('collapses the progress line behind its number', () => {
    expect(log.length).toBeGreaterThan(1_000_000)
    const out = trimResult(log, { tool: 'terminal', maxChars: 4000 })
    expect(out.applied).toContain('progress')
    expect(out.text).toMatch(/^30001: ERROR: upload of build artifacts failed$/m)
    expect(out.text).toMatch(/^30002:  uploading 100% done$/m)
    expect(out.text).not.toContain('\r')
    expect(out.text.split('\n').slice(-4, -1)).toEqual(['done', 'done', 'done']) // as the filter makes them: no number kept that the fitter did not write
    expect(parseExcerpt(out.text)?.lines).toBe(52_000)
    const again = trimResult(out.text, { tool: 'terminal', maxChars: 1000 })
    expect(again.applied).toEqual(['refit'])
    expect(again.text).toMatch(/^30002:  uploading 100% done$/m)
  })
})
