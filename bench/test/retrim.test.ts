import { describe, expect, it } from 'vitest'
import type { TrimCase } from '../src/corpus/types.js'
import { retrimMarkdown, runRetrim } from '../src/suites/retrim.js'

// A build log of 6,000 lines with twelve failing tests spread through it and the build's verdict
// at the end, labelled as the corpus's CI logs are (the lines a reader needs).
const lines = Array.from({ length: 6000 }, (_, i) => `[INFO] compiling module ${i} of 6000 ... ok`)
const labelled: string[] = []
for (let k = 11; k >= 0; k--) {
  const failure = [`[ERROR] testCheckout${k}(com.acme.CartTest)  Time elapsed: 0.2 s  <<< FAILURE!`, `java.lang.AssertionError: expected:<${k}> but was:<${k + 1}>`]
  lines.splice(1000 + k * 350, 0, ...failure)
  labelled.push(...failure)
}
lines.push('[INFO] BUILD FAILURE')
labelled.push('[INFO] BUILD FAILURE')
const log: TrimCase = { kind: 'ci-log', name: 'synthetic/cart', text: `${lines.join('\n')}\n`, labelled }

describe('the re-trim suite', () => {
  it("re-fits spillway's excerpt within each smaller budget, keeping more than a char cut of it", () => {
    const r = runRetrim([['synthetic', [log]]])
    expect(r.overBudget).toBe(0)
    expect(r.rows.map((x) => [x.from, x.to])).toEqual([[16000, 8000], [8000, 4000], [8000, 2000], [4000, 2000]])
    for (const row of r.rows) {
      expect([row.logs, row.refits]).toEqual([1, 1])
      expect(row.refit).toBeGreaterThanOrEqual(row.headTail)
      expect(row.refit).toBeLessThanOrEqual(row.direct) // a refit has only the first excerpt's lines
    }
    // 8k -> 4k: all 25 labelled lines; a 50/50 cut of the excerpt drops the failures in its middle.
    const at4k = r.rows[1]!
    expect(at4k.refit).toBe(1)
    expect(at4k.headTail).toBeLessThan(0.8)
    expect(retrimMarkdown(r)).toContain('| synthetic | 8k -> 4k | 1 | 1 | 100.0% |')
  })
})
