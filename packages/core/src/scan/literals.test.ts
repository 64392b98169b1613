import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { compileLiterals, forceLiteralFallback, literalCursor, setChunkChars, type LiteralSet } from './literals.js'

/** Every (position, id) the cursor gives, walking hit by hit (from = last hit + 1). */
function walk(text: string, set: LiteralSet, step = 1): Array<[number, number]> {
  const c = literalCursor(text, set)
  const out: Array<[number, number]> = []
  for (let p = c.next(0); p !== -1; p = c.next(p + step)) out.push([p, c.id])
  return out
}

/** The reference: at each position, the lowest id of a literal beginning there (JS regex semantics, non-unicode). */
function reference(text: string, literals: readonly string[], ignoreCase: boolean): Array<[number, number]> {
  const res = literals.map((l) => new RegExp(l.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&'), ignoreCase ? 'iy' : 'y'))
  const out: Array<[number, number]> = []
  for (let p = 0; p < text.length; p++) {
    const id = res.findIndex((re) => ((re.lastIndex = p), re.test(text)))
    if (id !== -1) out.push([p, id])
  }
  return out
}

const literalArb = fc.string({ unit: fc.constantFrom(...'aAbBeErRoO!-_ 0'.split('')), minLength: 1, maxLength: 20 })
const fragment = (lits: readonly string[]) =>
  fc.oneof(
    fc.constantFrom(...lits),
    fc.constantFrom(...lits).map((l) => l.toUpperCase()),
    fc.string({ unit: fc.constantFrom(...'aAbBeErRoO!-_ 0\n'.split('')), maxLength: 6 }),
    fc.constantFrom('é', '\u2713', '😀', '\ud800', '\udc00', 'ſ', '\u212a', 'x'),
  )

describe('literalCursor', () => {
  afterEach(() => {
    forceLiteralFallback(false)
    setChunkChars(undefined)
  })

  it('the wasm scanner, the JS fallback and a per-position reference agree on arbitrary texts, chunk edges included', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(literalArb, { minLength: 1, maxLength: 40 }).chain((lits) => fc.tuple(fc.constant(lits), fc.array(fragment(lits), { maxLength: 80 }), fc.boolean(), fc.integer({ min: 1, max: 64 }))),
        ([lits, parts, ignoreCase, chunk]) => {
          const text = parts.join('')
          const set = compileLiterals(lits, { ignoreCase })
          const want = reference(text, lits, ignoreCase)
          setChunkChars(chunk)
          expect(walk(text, set)).toEqual(want)
          forceLiteralFallback(true)
          expect(walk(text, set)).toEqual(want)
        },
      ),
      { numRuns: 300 },
    )
  })

  it('skips ahead: next(from) is the first hit at or after from, across chunks', () => {
    const text = `${'x'.repeat(100)}ERROR${'y'.repeat(200)}error${'é'.repeat(50)}Error`
    const set = compileLiterals(['error'], { ignoreCase: true })
    for (const chunk of [7, 64, undefined]) {
      setChunkChars(chunk)
      const c = literalCursor(text, set)
      expect([c.next(0), c.next(101), c.next(306), c.next(361)]).toEqual([100, 305, 360, -1])
    }
  })

  it('holds a hit count over one call of the module (8,192) and texts over one chunk', () => {
    const text = 'ab'.repeat(200_000)
    const set = compileLiterals(['ab', 'b'])
    const hits = walk(text, set)
    expect(hits.length).toBe(400_000)
    expect(hits.slice(0, 3)).toEqual([[0, 0], [1, 1], [2, 0]])
    expect(hits.at(-1)).toEqual([399_999, 1])
  })

  it('non-ASCII literals, and an empty set, take the JS path and still answer', () => {
    expect(walk('a café, a CAFÉ', compileLiterals(['café'], { ignoreCase: true }))).toEqual([[2, 0], [10, 0]])
    expect(walk('anything', compileLiterals([]))).toEqual([])
  })

  it('the committed module is what literals.wat assembles to', () => {
    const script = fileURLToPath(new URL('../../scripts/build-scan-wasm.mjs', import.meta.url))
    expect(() => execFileSync(process.execPath, [script, '--check'], { stdio: 'pipe' })).not.toThrow()
  })
})
