import { describe, expect, it } from 'vitest'
import { trimResult } from '../src/index.js'
import { detectKind } from '../src/detect/detect.js'
import { listedFiles } from '../src/filters/search/listing.js'

// Review finding 1: compiler and log output of a terminal tool looks like `path:line:text`; the
// search filter (first matches per file) used to drop its one `error:` / `panic:` / exit line.

const pad = (n: number, f: (i: number) => string): string => Array.from({ length: n }, (_, i) => f(i)).join('\n')

const gcc = [
  '$ make',
  'gcc -O2 -Wall -c src/main.c -o build/main.o',
  pad(120, (i) => `src/util${i % 9}.c:${10 + i}:5: warning: unused variable 'tmp${i}' [-Wunused-variable]\n  ${10 + i} |     int tmp${i} = 0;\n      |         ^~~~`),
  "src/parser.c:412:17: error: 'struct node' has no member named 'nxt'; did you mean 'next'?",
  '  412 |     cur = cur->nxt;',
  '      |                ^~~',
  pad(60, (i) => `src/lexer.c:${200 + i}:9: warning: comparison of integer expressions of different signedness [-Wsign-compare]`),
  'make: *** [Makefile:12: build/parser.o] Error 1',
  'exit code 2',
].join('\n')

const tsc = [
  '$ npx tsc --noEmit -p .',
  pad(150, (i) => `src/components/widget${i % 17}.tsx:${20 + i}:7 - warning TS6133: 'unused${i}' is declared but its value is never read.`),
  "src/api/client.ts:88:12 - error TS2322: Type 'string' is not assignable to type 'number'.",
  pad(80, (i) => `src/store/slice${i % 5}.ts:${300 + i}:3 - warning TS6133: 'x${i}' is declared but its value is never read.`),
  'Found 1 error in src/api/client.ts:88',
  'exit code 2',
].join('\n')

const mypyRuff = [
  '$ mypy src && ruff check src',
  pad(140, (i) => `src/pkg/mod${i % 11}.py:${5 + i}: note: By default the bodies of untyped functions are not checked`),
  'src/pkg/service.py:211: error: Incompatible return value type (got "str", expected "int")  [return-value]',
  pad(90, (i) => `src/pkg/mod${i % 7}.py:${40 + i}:1: E501 Line too long (${100 + i} > 88)`),
  'src/pkg/db.py:3:8: F401 [*] `os` imported but unused',
  'Found 1 error in 1 file (checked 42 source files)',
  'exit code 1',
].join('\n')

const goPanic = [
  '$ go run ./cmd/server',
  pad(200, (i) => `server.go:${100 + (i % 30)}: handled request /api/items/${i} in ${i % 7}ms`),
  'panic: runtime error: invalid memory address or nil pointer dereference',
  '[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4a2b3c]',
  '',
  'goroutine 1 [running]:',
  'main.(*Server).handle(0x0, 0xc000123000)',
  '\t/home/dev/app/cmd/server/server.go:251 +0x1c',
  pad(40, (i) => `main.helper${i}()\n\t/home/dev/app/cmd/server/h.go:${i + 1} +0x${(i * 17).toString(16)}`),
  'exit status 2',
].join('\n')

const CASES: Array<{ name: string; text: string; keep: string[] }> = [
  { name: 'gcc', text: gcc, keep: ["error: 'struct node' has no member named 'nxt'", 'make: *** [Makefile:12: build/parser.o] Error 1', 'exit code 2'] },
  { name: 'tsc', text: tsc, keep: ["error TS2322: Type 'string' is not assignable", 'exit code 2'] },
  { name: 'mypy/ruff', text: mypyRuff, keep: ['error: Incompatible return value type', 'exit code 1'] },
  { name: 'go panic', text: goPanic, keep: ['panic: runtime error: invalid memory address', 'exit status 2'] },
]

describe('compiler and log output is never summarized as a search', () => {
  for (const c of CASES) {
    it(`${c.name}: not detected as search`, () => {
      expect(detectKind(c.text)).not.toBe('search')
    })
    for (const tool of ['terminal', 'bash', undefined]) {
      it(`${c.name} (tool ${tool ?? 'none'}): error, panic and exit lines stay visible`, () => {
        const out = trimResult(c.text, { ...(tool !== undefined ? { tool } : {}), maxChars: 2000 })
        expect(out.text.length).toBeLessThanOrEqual(2000)
        expect(out.applied).not.toContain('search')
        for (const k of c.keep) expect(out.text, k).toContain(k)
      })
    }
  }

  it('the search filter never runs for terminal or read_file results, even on real grep output', () => {
    const grep = pad(400, (i) => `src/dir${i % 20}/file${i % 40}.ts:${i + 1}:  const value${i} = compute(${i}) // match`)
    expect(trimResult(grep, { tool: 'search_files', maxChars: 2000 }).applied).toContain('search')
    expect(trimResult(grep, { maxChars: 2000 }).applied).toContain('search')
    for (const tool of ['terminal', 'bash', 'read_file']) expect(trimResult(grep, { tool, maxChars: 2000 }).applied, tool).not.toContain('search')
  })

  it('grep output keeps source line numbers as `L12:`, never in the `N: ` shape of result line numbers', () => {
    const grep = pad(400, (i) => `src/dir${i % 20}/file${i % 40}.ts:${i + 1}:  const value${i} = compute(${i})`)
    const out = trimResult(grep, { tool: 'grep', maxChars: 3000 })
    expect(out.applied).toContain('search')
    expect(out.text).toMatch(/^L\d+: {2}const value/m)
    expect(out.text).not.toMatch(/^\d+: /m)
    // every file the excerpt shows matches for is one the listing reads back
    const listed = new Set(listedFiles(out.text))
    for (const path of out.text.split('\n').filter((l) => /^src\/dir\d+\/file\d+\.ts$/.test(l))) expect(listed.has(path), path).toBe(true)
  })
})
