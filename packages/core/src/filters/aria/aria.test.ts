import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { trimResult } from '../../pipeline/trim-result.js'
import { trimAria, trimAriaInJson } from './aria.js'

// The real outputs of ../shared/corpus (never copied into the repo); skipped when absent.
const CORPUS = fileURLToPath(new URL('../../../../../../shared/corpus', import.meta.url))
const hasCorpus = existsSync(join(CORPUS, 'README.md'))

const nav = (links: number): string =>
  [
    '- generic [ref=e1]:',
    '  - LayoutTable:',
    '    - LayoutTableRow:',
    '  - banner [ref=e2]:',
    '    - button "Menu" [ref=e3] [cursor=pointer]',
    '    - textbox "Search" [ref=e4]',
    '  - list [ref=e5]:',
    ...Array.from({ length: links }, (_, i) => [`    - listitem [ref=e${10 + 2 * i}]:`, `      - link "Story ${i}" [ref=e${11 + 2 * i}] [cursor=pointer]:`, `        - /url: /story/${i}`]).flat(),
    '  - contentinfo [ref=e9]: Footer text',
  ].join('\n')

describe('trimAria', () => {
  it('drops Layout* noise and cursor attributes; collapses sibling runs only when needed', () => {
    const roomy = trimAria(nav(200), 100_000)!
    expect(roomy).not.toContain('Layout')
    expect(roomy).toContain('link "Story 199" [ref=e409]')
    const out = trimAria(nav(200), 8000)!
    expect(out.length).toBeLessThanOrEqual(8000)
    expect(out).not.toContain('Layout')
    expect(out).not.toContain('[cursor=pointer]')
    expect(out).toContain('    - ... 195 more listitems (195 links)')
    expect(out).toContain('link "Story 4" [ref=e19]')
    expect(out).not.toContain('Story 5"')
    expect(out).toContain('  - contentinfo [ref=e9]: Footer text')
  })

  it('puts interactive elements with their refs first when the snapshot is over budget', () => {
    const out = trimAria(nav(200), 700, { maxSiblings: 1000 })!
    expect(out.length).toBeLessThanOrEqual(700)
    const lines = out.split('\n')
    expect(lines[0]).toMatch(/^\[page snapshot: \d+ lines after cleaning; 202 interactive elements, \d+ listed first; then the outline\]$/)
    expect(lines[1]).toBe('button "Menu" [ref=e3]')
    expect(lines[2]).toBe('textbox "Search" [ref=e4]')
    expect(lines[3]).toBe('link "Story 0" [ref=e11]')
    expect(out).toContain('--- outline ---')
  })

  it('drops repeated lines and leaves a clean snapshot without Layout noise as it is', () => {
    const clean = '- main [ref=e1]:\n  - heading "Title" [level=1] [ref=e2]\n  - paragraph [ref=e3]: text'
    expect(trimAria(clean, 10_000)).toBeUndefined()
    expect(trimAria(`${clean}\n  - paragraph [ref=e3]: text`, 10_000)).toBe(clean)
  })

  it('cleans the snapshot of a JSON browser result and drops stealth fields', () => {
    const text = JSON.stringify({ success: true, url: 'https://x', stealth_warning: 'fingerprint mismatch', snapshot: nav(100) })
    const out = trimAriaInJson(text, 3000)!
    expect(out.length).toBeLessThanOrEqual(3000)
    expect(out.split('\n')[0]).toBe('{"success":true,"url":"https://x"}')
    expect(out).not.toContain('stealth')
    expect(out).toContain('more listitems (')
    expect(trimResult(text, { tool: 'browser_navigate', maxChars: 3000 }).applied).toEqual(['aria'])
  })

  it('is safe on deep nesting', () => {
    const deep = Array.from({ length: 3000 }, (_, i) => `${' '.repeat(i * 2)}- generic [ref=e${i}]:`).join('\n')
    const out = trimResult(deep, { tool: 'browser_snapshot', maxChars: 2000 })
    expect(out.text.length).toBeLessThanOrEqual(2000)
  })
})

describe.skipIf(!hasCorpus)('real Playwright MCP snapshots (corpus aria/)', () => {
  const dir = join(CORPUS, 'aria/playwright-mcp')
  it('cleans every page within budget, listing interactive elements first', () => {
    for (const f of readdirSync(dir).filter((x) => x.endsWith('.snapshot.yml'))) {
      const text = readFileSync(join(dir, f), 'utf8')
      const out = trimResult(text, { tool: 'browser_snapshot', maxChars: 4000 })
      expect(out.kind, f).toBe('aria')
      expect(out.applied, f).toEqual(['aria'])
      expect(out.text.length).toBeLessThanOrEqual(4000)
      expect(out.text, f).toMatch(/^\[page snapshot: \d+ lines after cleaning; \d+ interactive elements/)
      expect(out.text).not.toContain('[cursor=pointer]')
    }
  })
})
