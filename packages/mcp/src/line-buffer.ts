import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'

const NEWLINE = 0x0a

/** The read-buffer surface `StdioClientTransport` uses (the SDK's `ReadBuffer`). */
export interface MessageLineBuffer {
  /** Takes the next chunk read from the server. Throws when the line being read passes the cap. */
  append(chunk: Buffer): void
  /** The next whole message, or `null` until one is complete. Throws (after consuming the line) on a line that is not a JSON-RPC message. */
  readMessage(): JSONRPCMessage | null
  clear(): void
}

/**
 * A newline-delimited JSON-RPC reader in linear time. The SDK's `ReadBuffer` concatenates its
 * whole buffer with every chunk, so a message of n bytes read in 64 KiB chunks costs O(n²)
 * (16 s for 50 MB). This one keeps the chunks of the unfinished line in a list and joins them
 * once, when its newline arrives; each byte is scanned for a newline once.
 *
 * `maxLineBytes` caps the line being read (a complete line is handed on at once), so memory
 * stays bounded whatever the server writes. Blank lines are skipped; a trailing `\r` is dropped.
 */
export function createLineBuffer(maxLineBytes: number): MessageLineBuffer {
  let parts: Buffer[] = [] // the unfinished line
  let size = 0
  let lines: Buffer[] = [] // complete lines not read yet
  let next = 0

  const clear = (): void => {
    parts = []
    size = 0
    lines = []
    next = 0
  }
  const take = (piece: Buffer): void => {
    if (piece.length === 0) return
    if (size + piece.length > maxLineBytes) {
      clear()
      throw new Error(`a message of more than ${maxLineBytes} bytes from the server (the proxy's limit)`)
    }
    parts.push(piece)
    size += piece.length
  }
  return {
    append(chunk) {
      let pos = 0
      for (let nl = chunk.indexOf(NEWLINE, pos); nl !== -1; nl = chunk.indexOf(NEWLINE, pos)) {
        take(chunk.subarray(pos, nl))
        lines.push(parts.length === 1 ? parts[0]! : Buffer.concat(parts, size))
        parts = []
        size = 0
        pos = nl + 1
      }
      take(chunk.subarray(pos))
    },
    readMessage() {
      while (next < lines.length) {
        const bytes = lines[next++]!
        if (next === lines.length) (lines = []), (next = 0)
        let end = bytes.length
        if (end > 0 && bytes[end - 1] === 0x0d) end--
        if (end === 0) continue
        return deserializeMessage(bytes.toString('utf8', 0, end))
      }
      return null
    },
    clear,
  }
}

/**
 * Puts a {@link createLineBuffer} in place of the SDK's `ReadBuffer` in a `StdioClientTransport`
 * (its private `_readBuffer`: the transport offers no option for it). Returns `false`, leaving
 * the transport as it was (correct, only slow on large messages), when this SDK version has no
 * such field; a test fails loudly in that case.
 */
export function useLineBuffer(transport: StdioClientTransport, maxLineBytes: number): boolean {
  const t = transport as unknown as { _readBuffer?: Partial<MessageLineBuffer> }
  const current = t._readBuffer
  if (current === undefined || typeof current.append !== 'function' || typeof current.readMessage !== 'function') return false
  t._readBuffer = createLineBuffer(maxLineBytes)
  return true
}
