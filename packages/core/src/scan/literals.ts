/**
 * Where a set of ASCII literals begins in a text: a WebAssembly SIMD scanner (Teddy-style nibble
 * masks over 16-byte blocks, `literals.wat`) over the text's UTF-8 bytes, answering UTF-16
 * positions, with a JavaScript fallback (one global regex of the escaped literals) that gives the
 * same answers where WebAssembly cannot be compiled at run time (Cloudflare Workers, pages whose
 * CSP forbids it). Semantics are those of a non-unicode JavaScript regex: with `ignoreCase` only
 * ASCII letters fold, so a non-ASCII char never matches. Linear, bounded memory (one 256 KiB
 * module memory, the text encoded a chunk at a time), never throws.
 */
import { LITERALS_WASM } from './literals.wasm.js'
import { buildTables, LAYOUT, MAX_WASM_LITERAL_BYTES, MAX_WASM_LITERALS, type WasmTables } from './tables.js'

/** A compiled literal set ({@link compileLiterals}). */
export interface LiteralSet {
  readonly literals: readonly string[]
  readonly ignoreCase: boolean
  /** The JS path's finder: the escaped literals in id order (at one position the lowest id that matches wins). */
  readonly finder: RegExp
  readonly maxLength: number
  /** The wasm tables, when the set fits them. */
  readonly tables: WasmTables | undefined
}

/** Options of {@link compileLiterals}. */
export interface LiteralOptions {
  /** Fold ASCII letters (as a regex's `i` flag does without `u`). Default false. */
  ignoreCase?: boolean
}

/** Longest literal the wasm path takes (a chunk, at least 21,834 chars, holds twice it). */
const MAX_WASM_LITERAL_LENGTH = 1024

const escapeLiteral = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')
const isAscii = (s: string): boolean => /^[\x00-\x7f]*$/.test(s)

/**
 * Compiles `literals` (non-empty strings) for {@link literalCursor}. Literals with non-ASCII
 * chars, or more than the wasm tables hold, make the set use the JS path.
 */
export function compileLiterals(literals: readonly string[], options: LiteralOptions = {}): LiteralSet {
  const ignoreCase = options.ignoreCase === true
  const list = literals.filter((l) => typeof l === 'string' && l !== '')
  const fits = list.length > 0 && list.every((l) => l.length <= MAX_WASM_LITERAL_LENGTH) && list.length <= MAX_WASM_LITERALS && list.every(isAscii) && list.reduce((n, l) => n + l.length, 0) <= MAX_WASM_LITERAL_BYTES
  return {
    literals: list,
    ignoreCase,
    finder: new RegExp(list.length > 0 ? list.map(escapeLiteral).join('|') : '(?!)', ignoreCase ? 'gi' : 'g'),
    maxLength: Math.max(1, ...list.map((l) => l.length)),
    tables: fits ? buildTables(list, ignoreCase) : undefined,
  }
}

/** The part of the `WebAssembly` global used here (core's types carry no DOM or Node lib). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> }
}
interface WasmGlobal {
  value: unknown
}

interface Scanner {
  memory: { buffer: ArrayBuffer }
  scan: (p: number, scanEnd: number, dataEnd: number, fold: number, cb: number, cu: number, cap: number) => number
  rPos: WasmGlobal
  rCb: WasmGlobal
  rCu: WasmGlobal
  /** The tables now in memory. */
  loaded: WasmTables | undefined
}

let scanner: Scanner | null | undefined

function decodeBase64(b64: string): Uint8Array {
  const bin = atob(b64)
  const out = new Uint8Array(bin.length)
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i)
  return out
}

/** The module's one instance, compiled on first use; null where WebAssembly cannot run. */
function getScanner(): Scanner | null {
  if (scanner !== undefined) return scanner
  try {
    const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly
    if (wasm === undefined) return (scanner = null)
    const e = new wasm.Instance(new wasm.Module(decodeBase64(LITERALS_WASM)), {}).exports
    scanner = { memory: e['memory'] as Scanner['memory'], scan: e['scan'] as Scanner['scan'], rPos: e['rPos'] as WasmGlobal, rCb: e['rCb'] as WasmGlobal, rCu: e['rCu'] as WasmGlobal, loaded: undefined }
  } catch {
    scanner = null
  }
  return scanner
}

/** Tests only: force the JS path (`true`), or let the next call compile the module again (`false`). */
export function forceLiteralFallback(on: boolean): void {
  scanner = on ? null : undefined
}

/** Bytes of the text area: the module's 4 pages after {@link LAYOUT}.text, less the slack. */
const TEXT_BYTES = 4 * 65536 - LAYOUT.text - LAYOUT.slack
/** Chars sliced per chunk: as many as the area holds when ASCII; `encodeInto` stops where it is full. */
let chunkChars = TEXT_BYTES

/** Tests only: the chunk size in chars (default when undefined), so chunk edges are hit often. */
export function setChunkChars(n: number | undefined): void {
  chunkChars = n === undefined ? TEXT_BYTES : Math.max(1, Math.min(TEXT_BYTES, n))
}

const encoder = new TextEncoder()

/**
 * A forward cursor over the positions where a literal of `set` begins in `text`:
 * `next(from)` is the first such position >= `from` (or -1), and `id` then names the literal (the
 * lowest id of those beginning there). `from` must not decrease between calls.
 */
export interface LiteralCursor {
  next(from: number): number
  id: number
}

/** A {@link LiteralCursor} over `text` (see {@link compileLiterals}). */
export function literalCursor(text: string, set: LiteralSet): LiteralCursor {
  const s = set.tables !== undefined && text.length > 0 ? getScanner() : null
  return s === null ? regexCursor(text, set) : wasmCursor(text, set, s)
}

function regexCursor(text: string, set: LiteralSet): LiteralCursor {
  const finder = new RegExp(set.finder.source, set.finder.flags)
  const sticky = set.literals.map((l) => new RegExp(escapeLiteral(l), set.ignoreCase ? 'iy' : 'y'))
  let last = -1
  let lastId = -1
  const cursor: LiteralCursor = {
    id: -1,
    next(from) {
      if (last >= from) return ((cursor.id = lastId), last)
      if (last === -2) return -1
      finder.lastIndex = from
      const m = finder.exec(text)
      if (m === null) return ((last = -2), -1)
      last = m.index
      // the lowest id beginning here (the alternation's choice; with `ignoreCase` non-ASCII letters fold too)
      lastId = sticky.findIndex((re) => ((re.lastIndex = last), re.test(text)))
      cursor.id = lastId
      return last
    },
  }
  return cursor
}

function wasmCursor(text: string, set: LiteralSet, s: Scanner): LiteralCursor {
  const tables = set.tables!
  const overlap = set.maxLength - 1
  const n = text.length
  let pos = new Int32Array(0)
  let ids = new Int32Array(0)
  let count = 0
  let idx = 0
  /** First char of the next chunk to scan; n when the text is done. */
  let nextChunk = 0
  /** Hits of the current chunk are reported below this char (the next chunk finds the rest). */
  let reportTo = 0

  const load = (from: number): void => {
    if (s.loaded !== tables) {
      const mem = new Uint8Array(s.memory.buffer)
      mem.fill(0, 0, LAYOUT.literalBytes)
      mem.set(tables.head, 0)
      mem.set(tables.bytes, LAYOUT.literalBytes)
      s.loaded = tables
    }
    const start = Math.max(nextChunk, from)
    const mem = new Uint8Array(s.memory.buffer)
    const { read, written } = encoder.encodeInto(text.slice(start, Math.min(n, start + Math.max(chunkChars, 2 * set.maxLength))), mem.subarray(LAYOUT.text, LAYOUT.text + TEXT_BYTES))
    const end = start + read
    mem.fill(0, LAYOUT.text + written, LAYOUT.text + written + LAYOUT.slack)
    const last = end >= n
    nextChunk = last ? n : Math.max(start + 1, end - overlap)
    reportTo = last ? n : nextChunk
    const fold = set.ignoreCase ? 1 : 0
    const dataEnd = LAYOUT.text + written
    const outPos: number[] = []
    const outIds: number[] = []
    let p: number = LAYOUT.text
    let cb: number = LAYOUT.text
    let cu = 0
    let past = false
    for (;;) {
      const got = s.scan(p, dataEnd, dataEnd, fold, cb, cu, LAYOUT.hitCap)
      const view = new Int32Array(s.memory.buffer, LAYOUT.hits, got * 2)
      for (let k = 0; k < got && !past; k++) {
        const at = start + view[2 * k]!
        if (at >= reportTo) past = true // the next chunk reports these
        else {
          outPos.push(at)
          outIds.push(view[2 * k + 1]!)
        }
      }
      p = s.rPos.value as number
      if (past || got < LAYOUT.hitCap || p >= dataEnd) break
      cb = s.rCb.value as number
      cu = s.rCu.value as number
    }
    pos = Int32Array.from(outPos)
    ids = Int32Array.from(outIds)
    count = pos.length
    idx = 0
  }

  const cursor: LiteralCursor = {
    id: -1,
    next(from) {
      for (;;) {
        while (idx < count && pos[idx]! < from) idx++
        if (idx < count) {
          cursor.id = ids[idx]!
          return pos[idx]!
        }
        if (nextChunk >= n || from >= n) return -1
        load(from)
      }
    },
  }
  return cursor
}
