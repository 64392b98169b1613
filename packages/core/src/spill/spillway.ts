import { detectKind } from '../detect/detect.js'
import { SpillwayError } from '../errors.js'
import { isBlobId, isSessionId } from '../store/ids.js'
import type { BlobInfo, SessionEntry, StorageAdapter } from '../store/types.js'
import { resolveBudget } from '../trim/budget.js'
import { resolveProfile } from '../trim/profiles.js'
import { countLines } from '../trim/text.js'
import { asText } from '../trim/as-text.js'
import { trimResult } from '../trim/trim.js'
import type { ContentKind, TrimOptions, TrimOutcome } from '../trim/types.js'
import { lineView, type LineView } from '../trim/view.js'
import { blobCache, loadedBlob, type LoadedBlob } from './blob.js'
import { compactBlock, handleBlock, type BlockFacts } from './block.js'
import { encodeEnvelope, envelopeHash, openEnvelope } from './codec.js'
import { DEFAULT_SPILLWAY_OPTIONS, FETCH_TOOL_NAME } from './defaults.js'
import { entryIndex } from './entries.js'
import { runMode } from './fetch.js'
import { sha256Hex } from './hash.js'
import { sweepStore, storeStats } from './sweep.js'
import { FETCH_TOOL_DESCRIPTION, fetchToolParameters, parseFetchArgs } from './tool.js'
import type { FetchContext, FetchRequest, FetchResponse, HandleInput, HandleResult, Spillway, SpillwayOptions } from './types.js'

/** First-pass guess of the handle block's length; the fit is then made exact. */
const BLOCK_ESTIMATE = 600

/**
 * The spill layer. `handle` turns a tool result into what the model sees: results that fit
 * `maxChars` pass unchanged; longer ones are stored whole (content-addressed, compressed,
 * hash-verified) and replaced by a `trimResult` excerpt plus a handle block naming the exact
 * `fetch_result` calls that fit, the two together within `maxChars`. `fetch` / `fetchTool`
 * answer those calls for the session that spilled the result, and only for it.
 *
 * @example
 * ```ts
 * import { createSpillway, memoryStore } from '@spillway/core'
 *
 * const sw = createSpillway({ store: memoryStore(), maxChars: 8000 })
 * const { content, handle } = await sw.handle({ tool: 'terminal', result: hugeLog, sessionId: 'chat-1' })
 * // content: excerpt + "--- spillway: the text above is an excerpt, not the full output ---" ...
 * await sw.fetchTool.execute({ id: handle!.id, mode: 'grep', pattern: 'error', context: 2 }, { sessionId: 'chat-1' })
 * ```
 */
export function createSpillway(options: SpillwayOptions): Spillway {
  const store: StorageAdapter | undefined = options?.store
  if (store === undefined || typeof store.put !== 'function' || typeof store.get !== 'function') {
    throw new SpillwayError('invalid_argument', 'createSpillway needs { store }: memoryStore(), fsStore({ dir }) or a StorageAdapter')
  }
  const o = { ...DEFAULT_SPILLWAY_OPTIONS, ...stripUndefined(options) }
  const clock = options.clock ?? Date.now
  const budget = resolveBudget(options.maxChars, options.contextWindow)
  const index = entryIndex(store)
  const cache = blobCache(o.cacheChars)
  const knownSha = new Map<string, string>() // id -> sha256 of blobs this process wrote or verified
  const trimBase: TrimOptions = { ...(options.profiles ? { profiles: options.profiles } : {}), ...(options.tokenizer ? { tokenizer: options.tokenizer } : {}) }
  // Answers scale with the budget the caller chose for results, within the default caps.
  const answerMaxChars = options.answerMaxChars ?? Math.min(DEFAULT_SPILLWAY_OPTIONS.answerMaxChars, Math.max(2_000, budget))
  const fullMaxChars = options.fullMaxChars ?? Math.min(DEFAULT_SPILLWAY_OPTIONS.fullMaxChars, Math.max(8_000, budget * 4))
  const limits = { fullMaxChars, answerMaxChars, grepPageSize: Math.max(1, o.grepPageSize), patternMaxChars: o.patternMaxChars, regexTimeoutMs: Math.max(1, o.regexTimeoutMs) }

  const remember = (id: string, sha: string): void => {
    if (knownSha.size > 10_000) knownSha.clear()
    knownSha.set(id, sha)
  }

  /**
   * Stores the text once (content-addressed) and returns its id (12 hex, longer on a collision) and
   * the bytes this call added to the store (0 when the blob was already there).
   */
  async function store_(text: string, utf8: Uint8Array, meta: Omit<SessionEntry, 'id'>, view: LineView | undefined): Promise<{ id: string; added: number; blob?: LoadedBlob }> {
    const sha = await sha256Hex(utf8)
    for (let len = 12; len <= 64; len += 4) {
      const id = sha.slice(0, len)
      if (knownSha.get(id) === sha && (await store!.has(id))) {
        await store!.touch?.(id, meta.createdAt)
        return { id, added: 0 }
      }
      const existing = (await store!.has(id)) ? await store!.get(id) : undefined
      const theirs = existing === undefined ? undefined : envelopeHash(existing)
      if (theirs === sha) {
        remember(id, sha)
        await store!.touch?.(id, meta.createdAt)
        return { id, added: 0 }
      }
      if (theirs !== undefined) continue // same prefix, different content: use a longer id
      const envelope = encodeEnvelope(utf8, sha, o.compress)
      await store!.put(id, envelope, { sha256: sha, tool: meta.tool, kind: meta.kind, chars: meta.chars, lines: meta.lines, createdAt: meta.createdAt })
      remember(id, sha)
      const blob = loadedBlob(id, text, envelope.length, utf8.length, view ?? null)
      cache.set(blob)
      return { id, added: envelope.length, blob }
    }
    throw new SpillwayError('integrity', 'every id prefix of this result is taken by other content')
  }

  // Stored bytes as this process last knew them (undefined: not listed yet). Kept up to date on
  // put, eviction and sweep, so `handle` lists the whole store (a file read per blob with fsStore)
  // only on first use and when the running total crosses the cap. Other processes' writes are
  // seen at the next listing; within this process the cap holds to one blob.
  let storeBytes: number | undefined

  /** Keeps the store under `maxStoreBytes` by evicting least recently used blobs, never `keep`. */
  async function enforceCap(keep: string, added: number): Promise<void> {
    if (storeBytes !== undefined) {
      storeBytes += added
      if (storeBytes <= o.maxStoreBytes) return
    }
    const all: BlobInfo[] = []
    for await (const b of store!.list()) all.push(b)
    let total = all.reduce((s, b) => s + b.bytes, 0)
    storeBytes = total
    if (total <= o.maxStoreBytes) return
    all.sort((a, b) => a.lastAccessAt - b.lastAccessAt || (a.id < b.id ? -1 : 1))
    for (const b of all) {
      if (total <= o.maxStoreBytes) break
      if (b.id === keep) continue
      await store!.delete(b.id)
      cache.delete(b.id)
      knownSha.delete(b.id)
      total -= b.bytes
      storeBytes = total
    }
  }

  function fitWithBlock(result: string, lined: LoadedBlob, tool: string, args: unknown, facts: Omit<BlockFacts, 'salientText' | 'salientCount' | 'firstSalient' | 'omitted'>): { content: string; outcome: TrimOutcome } {
    const trim = (maxChars: number): TrimOutcome => trimResult(result, { ...trimBase, tool, args, maxChars: Math.max(0, maxChars) })
    const block = (out: TrimOutcome): string => {
      const first = out.salient[0]
      return handleBlock({
        ...facts,
        salientCount: out.salient.length,
        // `salient` counts lines of the view when there is one, as fetch_result does; the text is
        // the line fetch_result's grep reads (ANSI codes removed), so the suggested grep finds it.
        ...(first !== undefined ? { firstSalient: first, salientText: lined.line(first - 1) } : {}),
        ...(out.omitted[0] !== undefined ? { omitted: out.omitted[0] } : {}),
      })
    }
    let target = budget - BLOCK_ESTIMATE
    let outcome = trim(target)
    for (let attempt = 0; attempt < 4; attempt++) {
      const b = block(outcome)
      if (budget - b.length - 1 < 200) break // too small for a useful excerpt with the full block
      if (outcome.text.length + 1 + b.length <= budget) return { content: `${outcome.text}\n${b}`, outcome }
      target = Math.min(target - 16, budget - b.length - 1)
      outcome = trim(target)
    }
    const compact = compactBlock(facts.id)
    if (budget <= compact.length + 1) return { content: compact.slice(0, budget), outcome: trim(0) }
    outcome = trim(budget - compact.length - 1)
    return { content: `${outcome.text}\n${compact}`, outcome }
  }

  async function handle(input: HandleInput): Promise<HandleResult> {
    const result = typeof input?.result === 'string' ? input.result : asText(input?.result)
    const tool = typeof input?.tool === 'string' && input.tool !== '' ? input.tool : 'unknown'
    const args = input?.args
    const plain = (): HandleResult => {
      const outcome = trimResult(result, { ...trimBase, tool, args, maxChars: budget })
      return { content: outcome.text, changed: outcome.changed, outcome }
    }
    const exempt = tool === FETCH_TOOL_NAME || resolveProfile(tool, options.profiles).exempt
    if (exempt || result.length <= budget || result.length < o.spillOver || !isSessionId(input?.sessionId)) return plain()
    try {
      const utf8 = new TextEncoder().encode(result)
      const lines = countLines(result)
      const createdAt = clock()
      const kind = safeKind(result)
      // JSON around text: the block and fetch_result number the lines inside, as the excerpt does.
      // Memoized, so the trims below do not parse the result again.
      const view = lineView(result)
      const stored = await store_(result, utf8, { tool, kind, chars: result.length, lines, createdAt }, view)
      const id = stored.id
      await index.put(input.sessionId, { id, tool, kind, chars: result.length, lines, createdAt })
      await enforceCap(id, stored.added)
      const lined = stored.blob ?? loadedBlob(id, result, 0, utf8.length, view ?? null)
      const facts = { id, tool, chars: result.length, lines: view === undefined ? lines : countLines(view.text), kind, ...(view !== undefined ? { view: view.path } : {}) }
      const { content, outcome } = fitWithBlock(result, lined, tool, args, facts)
      return { content, changed: true, handle: { id }, outcome }
    } catch {
      return plain() // a failing store must not break the agent: the excerpt still marks what is missing
    }
  }

  async function load(id: string, entry: SessionEntry): Promise<LoadedBlob | FetchResponse> {
    const hit = cache.get(id)
    if (hit !== undefined && (await store!.has(id))) return hit
    cache.delete(id)
    const data = await store!.get(id)
    const tool = entry.tool
    if (data === undefined) {
      return { ok: false, text: `Result ${id} (from \`${tool}\`) is no longer stored: it expired or was evicted to save space. Re-run \`${tool}\` to get the output again.` }
    }
    const opened = openEnvelope(data)
    const bad: FetchResponse = { ok: false, text: `Result ${id} failed its integrity check (the stored bytes do not match its SHA-256), so it is not served. Re-run \`${tool}\` to get the output again.` }
    if (opened === undefined || !opened.sha256.startsWith(id)) return bad
    if ((await sha256Hex(opened.utf8)) !== opened.sha256) return bad
    let text: string
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(opened.utf8)
    } catch {
      return bad
    }
    const blob = loadedBlob(id, text, data.length, opened.utf8.length)
    cache.set(blob)
    remember(id, opened.sha256)
    return blob
  }

  async function fetchOnce(req: FetchRequest, ctx: FetchContext): Promise<FetchResponse> {
    const parsed = parseFetchArgs(req)
    if (!parsed.ok) return { ok: false, text: parsed.text }
    const r = parsed.req
    if (!isSessionId(ctx?.sessionId)) return { ok: false, text: 'fetch_result needs the session of the conversation; none was given.' }
    if (!isBlobId(r.id)) return { ok: false, text: `"${String(r.id).slice(0, 70)}" is not a result id: ids are 12 or more hex characters, shown in the handle block under an excerpt.` }
    const entry = await index.get(ctx.sessionId, r.id)
    // Same answer whether the blob exists in another session or nowhere: ids leak nothing.
    if (entry === undefined) return { ok: false, text: `Result ${r.id} is not available in this session. Use an id from a handle block shown in this conversation.` }
    const blob = await load(r.id, entry)
    if (!('text' in blob && 'lineCount' in blob)) return blob as FetchResponse
    await store!.touch?.(r.id, clock())
    return runMode(blob, entry, r, limits)
  }

  async function fetch(req: FetchRequest, ctx: FetchContext): Promise<FetchResponse> {
    try {
      return await fetchOnce(req, ctx)
    } catch {
      return { ok: false, text: 'fetch_result could not read the result store just now. Try again; if it keeps failing, re-run the original tool.' }
    }
  }

  return {
    handle,
    fetch,
    fetchTool: {
      name: FETCH_TOOL_NAME,
      description: FETCH_TOOL_DESCRIPTION,
      parameters: fetchToolParameters(o.patternMaxChars),
      execute: async (args: unknown, ctx: FetchContext) => (await fetch(args as FetchRequest, ctx)).text,
    },
    stats: (opts) => storeStats(store, index, opts?.sessionId),
    async sweep() {
      const report = await sweepStore(store, index, { now: clock(), ttlHours: o.ttlHours, tombstoneTtlHours: o.tombstoneTtlHours, maxStoreBytes: o.maxStoreBytes })
      for (const id of report.removedIds) {
        cache.delete(id)
        knownSha.delete(id)
      }
      storeBytes = report.bytes
      const { removedIds: _ids, ...rest } = report
      void _ids
      return rest
    },
    async dispose() {
      cache.clear()
      knownSha.clear()
    },
  }
}

function safeKind(text: string): ContentKind {
  try {
    return detectKind(text)
  } catch {
    return 'text'
  }
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>
}
