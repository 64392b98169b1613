// The literal scanner's two users, the salience scan and redaction, give the same answers on the
// WebAssembly path and on the regex fallback (where WebAssembly cannot compile: Cloudflare
// Workers, a strict CSP), with chunk edges anywhere: on real logs of ../shared/corpus and on
// arbitrary texts built from keywords, secrets, surrogates and CI timestamps.
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { redactSecrets } from '../redact/redact.js'
import { WORDS } from '../trim/keywords.js'
import { scanLines } from '../trim/salient.js'
import { forceLiteralFallback, setChunkChars } from './literals.js'

const CORPUS = fileURLToPath(new URL('../../../../../shared/corpus', import.meta.url))

/** Both users' full answers for `text`. */
const answers = (text: string) => ({ scan: scanLines(text, true, 1e6), redacted: redactSecrets(text) })

/** The answers on the wasm path (default chunks, then `chunk`-char chunks) and on the fallback, which must all be equal. */
function allPaths(text: string, chunk: number) {
  forceLiteralFallback(false)
  setChunkChars(undefined)
  const wasm = answers(text)
  setChunkChars(chunk)
  const chunked = answers(text)
  forceLiteralFallback(true)
  const fallback = answers(text)
  return { wasm, chunked, fallback }
}

const SECRETS = [
  'AKIAIOSFODNN7EXAMPLE',
  'glpat-Zx8y7W6v5U4t3S2r1Q0p',
  'xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOpQrStUvWx',
  'AIzaSyD-9tSrke72I6e0DVY5eF1Q5PDbOIGp5jX',
  'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8',
  'password=hunter2hunter2',
  'Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345',
]

const fragment = fc.oneof(
  fc.constantFrom(...WORDS),
  fc.constantFrom(...WORDS).map((w) => w.toUpperCase()),
  fc.constantFrom(...SECRETS),
  fc.constantFrom('\n', '\r\n', '  ', ': ', '[ERROR] ', '2022-06-06T09:56:39.5780460Z ', 'src/a.ts:12:5: ', '0 errors', 'exit code 1', '✓ ', '    at foo (a.js:1:1)'),
  fc.constantFrom('é', '\u2713', '😀', '\ud800', '\udc00', 'ſ', '\u212a'),
  fc.string({ unit: fc.constantFrom(...'aErRoO!-_ 0:\n'.split('')), maxLength: 8 }),
)

describe('the scanner inside scanLines and redactSecrets', () => {
  afterEach(() => {
    forceLiteralFallback(false)
    setChunkChars(undefined)
  })

  it('wasm, small chunks and the fallback agree on arbitrary texts', () => {
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 120 }), fc.integer({ min: 1, max: 96 }), (parts, chunk) => {
        const { wasm, chunked, fallback } = allPaths(parts.join(''), chunk)
        expect(chunked).toEqual(wasm)
        expect(fallback).toEqual(wasm)
      }),
      { numRuns: 200 },
    )
  })

  it('wasm and the fallback agree on the real CI logs of the development corpus', () => {
    // CI has the corpus beside the repository: a missing corpus is a failure, not a skip.
    expect(existsSync(join(CORPUS, 'README.md'))).toBe(true)
    const files = (readdirSync(join(CORPUS, 'ci-logs'), { recursive: true }) as string[]).filter((f) => f.endsWith('.log')).map((f) => join(CORPUS, 'ci-logs', f))
    expect(files.length).toBeGreaterThan(50)
    let salient = 0
    for (const f of files) {
      const text = readFileSync(f, 'utf8')
      const { wasm, chunked, fallback } = allPaths(text, 4093)
      expect(chunked, f).toEqual(wasm)
      expect(fallback, f).toEqual(wasm)
      salient += wasm.scan.salient.length
    }
    expect(salient).toBeGreaterThan(1000)
  })
})
