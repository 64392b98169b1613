import { readFile, stat } from 'node:fs/promises'
import { binaryPlaceholder, describeBytes, type BytesVerdict } from '@spillway/core'
import type { CliIO } from './io.js'

/** A command's input: text to trim or spill, or what binary bytes were instead. */
export type Input = { text: string; binary?: undefined } | { binary: BytesVerdict; placeholder: string; text?: undefined }

/**
 * Largest input read: the longest string the JavaScript engine holds (V8: 2^29 - 24 chars), less
 * a margin. A result past it could not be decoded into text at all.
 */
export const MAX_INPUT_BYTES = 512 * 1024 * 1024 - 64

const tooLarge = (what: string, bytes: number | string): Error =>
  new Error(`${what} is ${bytes} bytes; spillway reads results up to ${MAX_INPUT_BYTES} bytes (the longest text the JavaScript engine holds). Split it (e.g. split -b 256m) and pass the parts one by one`)

async function readBytes(stream: NodeJS.ReadableStream): Promise<Uint8Array> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of stream) {
    const b = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer)
    size += b.length
    // Stop at the bound rather than buffer gigabytes only to fail at the decode.
    if (size > MAX_INPUT_BYTES) throw tooLarge('the input on stdin', `more than ${MAX_INPUT_BYTES}`)
    chunks.push(b)
  }
  return Buffer.concat(chunks)
}

/** `read()` of `file`, its failure said in words. */
async function readable<T>(file: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read()
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code
    throw new Error(code === 'ENOENT' ? `no such file: ${file}` : code === 'EISDIR' ? `${file} is a folder, not a file` : `cannot read ${file}: ${(err as Error).message}`)
  }
}

/**
 * Reads `file` (or stdin when it is undefined or `-`) as bytes and decides whether it is text.
 * Binary bytes (a NUL, invalid UTF-8) are never decoded into replacement characters: the caller
 * prints a placeholder naming the type and size instead.
 */
export async function readInput(file: string | undefined, io: CliIO): Promise<Input> {
  let bytes: Uint8Array
  if (file === undefined || file === '-') bytes = await readBytes(io.stdin)
  else {
    const size = await readable(file, () => stat(file).then((s) => s.size))
    if (size > MAX_INPUT_BYTES) throw tooLarge(file, size)
    bytes = await readable(file, () => readFile(file))
  }
  const verdict = describeBytes(bytes)
  if (verdict.binary) return { binary: verdict, placeholder: binaryPlaceholder(verdict) }
  return { text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes) } // a leading U+FEFF is part of the result: kept
}
