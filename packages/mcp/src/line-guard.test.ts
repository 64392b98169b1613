import fc from 'fast-check'
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

  it('answers with the real id when it is the last member (as SDK clients send it), not an "id" nested in the arguments', async () => {
    // The SDK's Protocol.request writes { ...request, jsonrpc, id }.
    const msg = (id: number, args: object) => `${JSON.stringify({ method: 'tools/call', params: { name: 'update_issue', arguments: args }, jsonrpc: '2.0', id })}\n`
    const { replies } = await run([msg(7, { id: 42, body: 'x'.repeat(5000) }), msg(8, { body: 'x'.repeat(5000) })], 1024)
    expect(replies.map((r) => JSON.parse(r).id)).toEqual([7, 8])
  })

  it('property: an oversized message is answered with its top-level id wherever it sits and however the line is chunked', async () => {
    const id = fc.oneof(fc.integer({ min: -1e9, max: 1e9 }), fc.stringMatching(/^[a-zA-Z0-9_:-]{0,40}$/))
    await fc.assert(
      fc.asyncProperty(id, fc.integer(), fc.boolean(), fc.integer({ min: 300, max: 3000 }), fc.array(fc.integer({ min: 1, max: 4000 }), { maxLength: 6 }), async (rid, nested, idFirst, pad, cuts) => {
        const request = { method: 'tools/call', params: { name: 't', arguments: { id: nested, body: 'é'.repeat(pad) } } }
        const line = `${JSON.stringify(idFirst ? { jsonrpc: '2.0', id: rid, ...request } : { ...request, jsonrpc: '2.0', id: rid })}\n`
        const bytes = Buffer.from(line)
        const edges = [...new Set(cuts.map((c) => c % bytes.length))].sort((a, b) => a - b)
        const chunks = [0, ...edges].map((from, i) => bytes.subarray(from, edges[i] ?? bytes.length)).filter((c) => c.length > 0)
        const replies: string[] = []
        const g = lineGuard(256, (l) => void replies.push(l))
        g.on('data', () => undefined)
        for (const c of chunks) g.write(c)
        await new Promise<void>((r) => g.end(r))
        expect(replies.map((r) => JSON.parse(r).id)).toEqual([rid])
      }),
      { numRuns: 150 },
    )
  })

  it('finds ids that are numbers or short strings, else null', () => {
    expect(sniffId('{"jsonrpc":"2.0","id": 42,')).toBe(42)
    expect(sniffId('{"id":"a-b"}')).toBe('a-b')
    expect(sniffId('{"method":"x"')).toBeNull()
    expect(sniffId('{"method":"tools/call","params":{"arguments":{"id":42,', '"}}')).toBeNull() // nested, not the request's
    expect(sniffId('{"method":"x","params":{', ',"jsonrpc":"2.0","id":"r-1"}\r\n')).toBe('r-1')
  })
})
