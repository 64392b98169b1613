import { Transform, type TransformCallback } from 'node:stream'

/** Largest JSON-RPC message accepted from the host, in bytes. @default 16 MiB */
export const DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024

const NEWLINE = 0x0a

/** The `id` of a JSON-RPC message from its first bytes, when it is there (numbers and short strings). */
export function sniffId(head: string): number | string | null {
  const m = /"id"\s*:\s*(-?\d{1,15}|"[^"\\]{0,200}")/.exec(head)
  if (m === null) return null
  const v = m[1]!
  return v.startsWith('"') ? v.slice(1, -1) : Number(v)
}

/**
 * Passes stdin through line by line, except lines (messages) longer than `maxBytes`: those are
 * dropped as they stream in (never buffered whole) and `reply` gets a JSON-RPC error for the id
 * found at the line's start, so the host hears why instead of the proxy closing.
 */
export function lineGuard(maxBytes: number, reply: (line: string) => void): Transform {
  let lineBytes = 0 // bytes of the current line passed on so far
  let pending: Buffer[] = [] // the current line while it is still under the limit
  let dropping = false
  let head = ''
  const refuse = (): void => {
    const error = { code: -32600, message: `spillway: message of more than ${maxBytes} bytes refused (the proxy's limit); send a smaller one` }
    reply(`${JSON.stringify({ jsonrpc: '2.0', id: sniffId(head), error })}\n`)
  }
  return new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      let start = 0
      while (start < chunk.length) {
        const nl = chunk.indexOf(NEWLINE, start)
        const end = nl < 0 ? chunk.length : nl + 1
        const piece = chunk.subarray(start, end)
        if (!dropping) {
          if (lineBytes === 0) head = piece.subarray(0, 256).toString('utf8')
          lineBytes += piece.length
          if (lineBytes > maxBytes) {
            dropping = true
            pending = []
          } else pending.push(piece)
        }
        if (nl >= 0) {
          if (dropping) refuse()
          else this.push(Buffer.concat(pending))
          pending = []
          lineBytes = 0
          dropping = false
        }
        start = end
      }
      done()
    },
    flush(done) {
      if (!dropping && pending.length > 0) this.push(Buffer.concat(pending))
      done()
    },
  })
}
