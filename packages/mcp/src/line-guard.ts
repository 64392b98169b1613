import { Transform, type TransformCallback } from 'node:stream'

/** Largest JSON-RPC message accepted from the host, in bytes. @default 16 MiB */
export const DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024

const NEWLINE = 0x0a

/** A JSON-RPC id as it can be read from a cut line: a number or a short string without escapes. */
const ID_VALUE = String.raw`(-?\d{1,15}|"[^"\\]{0,200}")`
/** `"id"` among the first members of the object (after `jsonrpc` / `method` only): the top-level one. */
const LEADING_ID = new RegExp(String.raw`^\s*\{(?:\s*"(?:jsonrpc|method)"\s*:\s*"[^"\\]{0,100}"\s*,){0,2}\s*"id"\s*:\s*` + ID_VALUE)
/** `"id"` as the object's last member (`{...request, jsonrpc, id}`, as SDK clients write it): followed by the closing brace alone. */
const TRAILING_ID = new RegExp(String.raw`[,{]\s*"id"\s*:\s*` + ID_VALUE + String.raw`\s*\}\s*$`)

/** Bytes kept of each end of an oversized line, to find its `id`. */
const END_BYTES = 256

const idValue = (v: string): number | string => (v.startsWith('"') ? v.slice(1, -1) : Number(v))

/**
 * The top-level `id` of a JSON-RPC message from its first and last bytes, when it is there
 * (numbers and short strings): the object's last member (where SDK clients put it) or one of its
 * first members. An `"id"` nested in the params (`{"params":{"arguments":{"id":42}}}`) is never
 * taken for it. `null` when neither end tells.
 */
export function sniffId(head: string, tail = ''): number | string | null {
  const t = TRAILING_ID.exec(tail)
  if (t !== null) return idValue(t[1]!)
  const h = LEADING_ID.exec(head)
  return h === null ? null : idValue(h[1]!)
}

/**
 * Passes stdin through line by line, except lines (messages) longer than `maxBytes`: those are
 * dropped as they stream in (never buffered whole) and `reply` gets a JSON-RPC error for the id
 * found at the line's start or end ({@link sniffId}), so the host hears why instead of the proxy closing.
 */
export function lineGuard(maxBytes: number, reply: (line: string) => void): Transform {
  let lineBytes = 0 // bytes of the current line passed on so far
  let pending: Buffer[] = [] // the current line while it is still under the limit
  let dropping = false
  let head: Buffer = Buffer.alloc(0) // the first END_BYTES bytes of the current line
  let tail: Buffer = Buffer.alloc(0) // the last END_BYTES bytes of the current line
  const keepHead = (piece: Buffer): void => {
    if (head.length < END_BYTES) head = Buffer.concat([head, piece.subarray(0, END_BYTES - head.length)])
  }
  const keepTail = (piece: Buffer): void => {
    tail = piece.length >= END_BYTES ? Buffer.from(piece.subarray(-END_BYTES)) : Buffer.concat([tail, piece]).subarray(-END_BYTES)
  }
  const refuse = (): void => {
    const error = { code: -32600, message: `spillway: message of more than ${maxBytes} bytes refused (the proxy's limit); send a smaller one` }
    reply(`${JSON.stringify({ jsonrpc: '2.0', id: sniffId(head.toString('utf8'), tail.toString('utf8')), error })}\n`)
  }
  return new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      let start = 0
      while (start < chunk.length) {
        const nl = chunk.indexOf(NEWLINE, start)
        const end = nl < 0 ? chunk.length : nl + 1
        const piece = chunk.subarray(start, end)
        if (lineBytes === 0) (head = Buffer.alloc(0)), (tail = Buffer.alloc(0))
        keepHead(piece)
        keepTail(piece)
        if (!dropping) {
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
