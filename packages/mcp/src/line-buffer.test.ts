import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createLineBuffer, useLineBuffer } from './line-buffer.js'

/** Feeds `bytes` cut at `edges` and reads every message out after each chunk, as the SDK transport does. */
function feed(bytes: Buffer, edges: number[], max = 1 << 20): JSONRPCMessage[] {
  const rb = createLineBuffer(max)
  const out: JSONRPCMessage[] = []
  const cuts = [...new Set(edges.map((e) => e % (bytes.length + 1)))].sort((a, b) => a - b)
  let from = 0
  for (const to of [...cuts, bytes.length]) {
    rb.append(bytes.subarray(from, to))
    from = to
    for (let m = rb.readMessage(); m !== null; m = rb.readMessage()) out.push(m)
  }
  return out
}

const message = fc.oneof(
  fc.record({ jsonrpc: fc.constant('2.0' as const), id: fc.nat(), result: fc.record({ text: fc.string({ unit: 'grapheme', maxLength: 300 }) }) }),
  fc.record({ jsonrpc: fc.constant('2.0' as const), method: fc.constantFrom('notifications/progress', 'notifications/message'), params: fc.record({ data: fc.string({ unit: 'binary', maxLength: 200 }) }) }),
)

describe('createLineBuffer', () => {
  it('property: gives back exactly the messages written, in order, however the bytes are chunked (multi-byte chars cut included)', () => {
    fc.assert(
      fc.property(fc.array(message, { maxLength: 12 }), fc.array(fc.nat(), { maxLength: 20 }), fc.boolean(), (msgs, edges, crlf) => {
        const bytes = Buffer.from(msgs.map((m) => JSON.stringify(m) + (crlf ? '\r\n' : '\n')).join(''))
        expect(feed(bytes, edges)).toEqual(msgs)
      }),
      { numRuns: 300 },
    )
  })

  it('holds a message until its newline arrives, one byte at a time', () => {
    const line = Buffer.from('{"jsonrpc":"2.0","id":1,"result":{"t":"café ☕ 🚀"}}\n')
    const rb = createLineBuffer(1024)
    for (let i = 0; i < line.length - 1; i++) {
      rb.append(line.subarray(i, i + 1))
      expect(rb.readMessage()).toBeNull()
    }
    rb.append(line.subarray(-1))
    expect(rb.readMessage()).toEqual({ jsonrpc: '2.0', id: 1, result: { t: 'café ☕ 🚀' } })
  })

  it('throws on a line that is not a JSON-RPC message, then reads the next one; skips blank lines', () => {
    const rb = createLineBuffer(1024)
    rb.append(Buffer.from('not json\n\n{"jsonrpc":"2.0","id":2,"result":{}}\n'))
    expect(() => rb.readMessage()).toThrow()
    expect(rb.readMessage()).toEqual({ jsonrpc: '2.0', id: 2, result: {} })
    expect(rb.readMessage()).toBeNull()
  })

  it('refuses a line over the cap while it streams in (never holding more), and counts per line, not per buffer', () => {
    const rb = createLineBuffer(100)
    const small = Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { p: 'x'.repeat(50) } })}\n`)
    for (let i = 0; i < 10; i++) rb.append(small) // 10 lines of ~80 bytes: each under the cap
    let n = 0
    while (rb.readMessage() !== null) n++
    expect(n).toBe(10)
    rb.append(Buffer.alloc(60, 0x61))
    expect(() => rb.append(Buffer.alloc(60, 0x61))).toThrow(/more than 100 bytes/)
  })
})

describe('useLineBuffer', () => {
  it("replaces the read buffer of this SDK version's StdioClientTransport (fails loudly if the SDK renamed it)", () => {
    const t = new StdioClientTransport({ command: process.execPath })
    expect(useLineBuffer(t, 1024)).toBe(true)
    const rb = (t as unknown as { _readBuffer: ReturnType<typeof createLineBuffer> })._readBuffer
    rb.append(Buffer.from('{"jsonrpc":"2.0","id":3,"result":{}}\n'))
    expect(rb.readMessage()).toEqual({ jsonrpc: '2.0', id: 3, result: {} })
  })
})
