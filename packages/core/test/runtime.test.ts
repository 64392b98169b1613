import { readFileSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// Core must run in browsers and edge runtimes: only the fs store may import node:* modules.
const SRC = join(dirname(fileURLToPath(import.meta.url)), '../src')
const files = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => {
    const p = join(dir, f)
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') && !p.endsWith('.test.ts') ? [p] : []
  })

describe('runtime-agnostic core', () => {
  it('imports node:* only under src/store/fs', () => {
    const offenders = files(SRC)
      .filter((f) => !relative(SRC, f).startsWith(join('store', 'fs')))
      .filter((f) => /from\s+['"](?:node:|fs['"]|path['"]|crypto['"]|os['"]|child_process['"]|worker_threads['"])/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(SRC, f))
    expect(offenders).toEqual([])
  })
})
