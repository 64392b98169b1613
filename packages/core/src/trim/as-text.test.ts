import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { memoryStore } from '../store/memory.js'
import { createSpillway } from '../spill/spillway.js'
import { trimResult } from '../pipeline/trim-result.js'
import { SAFE_JSON_MAX_DEPTH, asText } from './as-text.js'

const cyclic = (): Record<string, unknown> => {
  const o: Record<string, unknown> = { name: 'job-7', items: [1, 2] }
  o['self'] = o
  ;(o['items'] as unknown[]).push(o)
  return o
}
const deep = (n: number): Record<string, unknown> => {
  const root: Record<string, unknown> = {}
  let at = root
  for (let i = 0; i < n; i++) at = (at['x'] = {}) as Record<string, unknown>
  return root
}
const throwingToJSON = () => ({ ok: 1, bad: { toJSON: () => { throw new Error('cannot serialise a socket') } } })

describe('asText: a result JSON cannot serialise says so (issue 12 item 8)', () => {
  it('cyclic: the text says why and keeps the rest', () => {
    expect(asText(cyclic())).toBe('[spillway: this tool result could not be serialised as JSON as it is: it holds a circular reference, written here as "[Circular]"]\n{"name":"job-7","items":[1,2,"[Circular]"],"self":"[Circular]"}')
  })

  it('100k-deep nesting: cut at a fixed depth, and said', () => {
    const text = asText(deep(100_000))
    expect(text.split('\n')[0]).toBe(`[spillway: this tool result could not be serialised as JSON as it is: it is nested more than ${SAFE_JSON_MAX_DEPTH} levels deep, deeper parts written here as "[nested deeper than ${SAFE_JSON_MAX_DEPTH} levels]"]`)
    expect(text).not.toContain('[object Object]')
    expect(text.split('{"x":').length - 1).toBe(SAFE_JSON_MAX_DEPTH)
  })

  it('a throwing toJSON: replaced, with its message', () => {
    expect(asText(throwingToJSON())).toBe('[spillway: this tool result could not be serialised as JSON as it is: a toJSON() method threw (Error: cannot serialise a socket), written here as "[toJSON threw]"]\n{"ok":1,"bad":"[toJSON threw]"}')
  })

  it('a shared (not circular) object is written twice, as JSON does', () => {
    const shared = { v: 1 }
    expect(asText({ a: shared, b: shared })).toBe('{"a":{"v":1},"b":{"v":1}}')
  })

  it('never throws, is deterministic, and equals JSON.stringify whenever that works', () => {
    fc.assert(
      fc.property(fc.anything({ withBigInt: true, withDate: true, withMap: true, withSet: true, withTypedArray: true, withSparseArray: true }), fc.boolean(), (v, makeCycle) => {
        if (makeCycle && typeof v === 'object' && v !== null && !Object.isFrozen(v)) (v as Record<string, unknown>)['loop'] = v
        let json: string | undefined
        let refused = false
        try {
          json = JSON.stringify(v)
        } catch {
          refused = true
        }
        const text = asText(v)
        expect(asText(v)).toBe(text)
        if (typeof v === 'string') expect(text).toBe(v)
        else if (!refused && typeof v === 'object' && v !== null) expect(text).toBe(json ?? String(v))
        else if (refused && typeof v === 'object' && v !== null) expect(text).toMatch(/^\[spillway: this tool result could not be serialised as JSON/)
        else if (typeof v !== 'object' || v === null) expect(text).toBe(v === undefined || v === null ? '' : String(v)) // primitives (a BigInt too) as String
      }),
    )
  })

  it('reaches the model through trimResult and handle, not as [object Object]', async () => {
    for (const v of [cyclic(), deep(100_000), throwingToJSON()]) {
      const out = trimResult(v as never, { maxChars: 4_000 })
      expect(out.text).toMatch(/could not be serialised as JSON/)
      expect(out.text).not.toContain('[object Object]')
    }
    const sw = createSpillway({ store: memoryStore(), maxChars: 2_000 })
    const res = await sw.handle({ tool: 'api', result: cyclic() as unknown as string, sessionId: 's' }) // typed string; adapters pass any value at run time
    expect(res.content).toMatch(/could not be serialised as JSON as it is: it holds a circular reference/)
  })
})
