import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { trimResult } from '../../pipeline/trim-result.js'
import { summarizeJson } from './json.js'
import { renderCompact } from './render.js'

// The real outputs of ../shared/corpus (never copied into the repo); skipped when absent.
const CORPUS = fileURLToPath(new URL('../../../../../../shared/corpus', import.meta.url))
const hasCorpus = existsSync(join(CORPUS, 'README.md'))

describe('summarizeJson', () => {
  const items = Array.from({ length: 100_000 }, (_, i) => ({ id: i, name: `item ${i}`, tags: i % 2 === 0 ? ['a', 'b'] : [], note: i % 3 === 0 ? null : 'x'.repeat(300) }))

  it('states type, length and the item key union, then head and tail items, for 10^5 items', () => {
    const text = JSON.stringify(items)
    const out = summarizeJson(text, 4000)!
    expect(out.length).toBeLessThanOrEqual(4000)
    expect(out).toContain('JSON array[100000] of object')
    expect(out).toContain('id: number, name: string, tags: array[0-2], note: null|string')
    expect(out).toMatch(/^\[0\] \{"id":0,/m)
    expect(out).toMatch(/^\[99999\] \{"id":99999,/m)
    expect(out).toMatch(/\[\.\.\. \d+ items omitted: \[\d+\]-\[\d+\] \.\.\.\]/)
  })

  it('reads minified and pretty JSON alike', () => {
    const small = items.slice(0, 200)
    const a = summarizeJson(JSON.stringify(small), 3000)!
    const b = summarizeJson(JSON.stringify(small, null, 2), 3000)!
    expect(a.split('\n').slice(1)).toEqual(b.split('\n').slice(1))
    expect(a.split('\n')[0]!.replace(/\(\d+ chars\)/, '')).toBe(b.split('\n')[0]!.replace(/\(\d+ chars\)/, ''))
  })

  it('cuts long strings with the count of chars left out', () => {
    const out = summarizeJson(JSON.stringify({ body: 'y'.repeat(50_000), id: 7 }), 1000)!
    expect(out).toMatch(/"body": "y+…\(\+\d+ chars\)"/)
    expect(out).toContain('"id": 7')
  })

  it('names every key of an object with its type and array lengths', () => {
    const obj = { sha: 'abc', url: 'https://x', tree: Array.from({ length: 326 }, (_, i) => ({ path: `f${i}`, size: i })) }
    const out = summarizeJson(JSON.stringify(obj), 2000)!
    expect(out).toContain('JSON object with 3 keys')
    expect(out).toContain('tree: array[326]')
    expect(out).toContain('item keys: path: string, size: number')
    expect(out).toMatch(/^\[325\] \{"path":"f325","size":325\}$/m)
  })

  it('states a map of one value type once and names as many keys as fit', () => {
    const map = Object.fromEntries(Array.from({ length: 900 }, (_, i) => [`emoji_${i}`, `https://example.com/e/${i}.png`]))
    const out = summarizeJson(JSON.stringify(map), 3000)!
    expect(out.length).toBeLessThanOrEqual(3000)
    expect(out).toMatch(/^JSON object with 900 keys, all string \(\d+ chars\): emoji_0, emoji_1, /)
    expect(out).toMatch(/… \+\d+ more/)
  })

  it('steps aside for bare strings, numbers, invalid JSON and tiny budgets', () => {
    expect(summarizeJson('"just a string"', 4000)).toBeUndefined()
    expect(summarizeJson('12345', 4000)).toBeUndefined()
    expect(summarizeJson('{"a": [1, 2', 4000)).toBeUndefined()
    expect(summarizeJson(JSON.stringify(items.slice(0, 10)), 100)).toBeUndefined()
  })

  it('survives JSON nested 100,000 levels deep', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000)
    const out = summarizeJson(deep, 1000)!
    expect(out.length).toBeLessThanOrEqual(1000)
    expect(out).toContain('JSON array[1] of array')
    expect(renderCompact(JSON.parse(deep), { str: 10, items: 3, keys: 3, depth: 4 })).toBe('[[[[[…1 items]]]]]')
  })
})

describe('JSON through trimResult', () => {
  it('a bare JSON string is unwrapped and its text trimmed, never larger than the input', () => {
    const inner = Array.from({ length: 3000 }, (_, i) => `line ${i}`).join('\n')
    const text = JSON.stringify(inner)
    const out = trimResult(text, { maxChars: 2000 })
    expect(out.applied[0]).toBe('unwrap')
    expect(out.text.length).toBeLessThanOrEqual(2000)
    expect(out.text.startsWith('line 0\nline 1\n')).toBe(true)
  })

  it('a huge bare number is cut by the fitter', () => {
    const out = trimResult('9'.repeat(10_000), { maxChars: 500 })
    expect(out.text.length).toBeLessThanOrEqual(500)
  })

  it.skipIf(!hasCorpus)('summarises a real GitHub API array within budget', () => {
    const file = join(CORPUS, 'json/github-api-octokit-rb/020_api_github_com_repos_octokit_octokit_rb_pulls.json')
    if (!existsSync(file)) return
    const out = trimResult(readFileSync(file, 'utf8'), { maxChars: 4000 })
    expect(out.applied).toEqual(['json'])
    expect(out.text.length).toBeLessThanOrEqual(4000)
    expect(out.text).toMatch(/^JSON array\[30\] of object \(432270 chars\); item keys/)
    expect(out.text).toContain('merged_at: string|null')
    expect(out.text).toMatch(/^\[29\] /m)
  })
})
