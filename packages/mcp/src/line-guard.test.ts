import { describe, expect, it } from 'vitest'
import { lineGuard, sniffId } from './line-guard.js'

async function run(chunks: string[], max: number): Promise<{ passed: string; replies: string[] }> {
  const replies: string[] = []
  const g = lineGuard(max, (l) => void replies.push(l))
  let passed = ''
  g.on('data', (d: Buffer) => void (passed += d.toString()))
  for (const c of chunks) g.write(Buffer.from(c))
  await new Promise<void>((r) => g.end(r))
  return { passed, replies }
}

describe('lineGuard', () => {
  it('passes lines under the limit unchanged, however they are chunked', async () => {
    const text = '{"id":1}\n{"id":2,"x":"abc"}\n'
    for (let cut = 1; cut < text.length; cut++) expect((await run([text.slice(0, cut), text.slice(cut)], 100)).passed).toBe(text)
  })

  it('drops a line over the limit as it streams and answers its id; the next line still passes', async () => {
    const big = `{"jsonrpc":"2.0","id":"req-7","method":"tools/call","params":{"pad":"${'x'.repeat(500)}"}}\n`
    const { passed, replies } = await run([big.slice(0, 100), big.slice(100, 300), big.slice(300), '{"id":8}\n'], 200)
    expect(passed).toBe('{"id":8}\n')
    expect(replies).toHaveLength(1)
    expect(JSON.parse(replies[0]!)).toMatchObject({ jsonrpc: '2.0', id: 'req-7', error: { code: -32600 } })
  })

  it('finds ids that are numbers or short strings, else null', () => {
    expect(sniffId('{"jsonrpc":"2.0","id": 42,')).toBe(42)
    expect(sniffId('{"id":"a-b"}')).toBe('a-b')
    expect(sniffId('{"method":"x"')).toBeNull()
  })
})
