import { detectKind } from '../detect/detect.js'
import { definedOnly } from '../options.js'
import { SpillwayError } from '../errors.js'
import { isBlobId, isSessionId } from '../store/ids.js'
import type { BlobInfo, SessionEntry, StorageAdapter } from '../store/types.js'
import { resolveBudget } from '../trim/budget.js'
import { DEFAULT_PROFILES, resolveProfile } from '../trim/profiles.js'
import { countLines } from '../trim/text.js'
import { asText } from '../trim/as-text.js'
import { stripAnsi } from '../filters/ansi/index.js'
import { trimResult } from '../pipeline/trim-result.js'
import type { ContentKind, TrimOptions, TrimOutcome } from '../trim/types.js'
import { lineView } from '../trim/view.js'
import { splitHandle } from '../trim/excerpt.js'
import { redactSecrets, type Redaction } from '../redact/index.js'
import { METRICS, instruments } from '../telemetry/index.js'
import { memoryStore } from '../store/memory.js'
import { blobLayer, bodyOf } from './blobs.js'
import { DEFAULT_CHUNK_CHARS, beginBlob, deriveBlobKeys, parseEncryptionKey, xxh, type BuiltBlob, type LockedReason } from './format/index.js'
import { bareBlock, compactBlock, handleBlock, type BlockFacts } from './block.js'
import { DEFAULT_SPILLWAY_OPTIONS, FETCH_TOOL_NAME } from './defaults.js'
import { entryIndex } from './entries.js'
import { runMode } from './fetch.js'
import { removeListed, sweepStore, storeStats } from './sweep.js'
import { spillUsage } from '../stats/index.js'
import { FETCH_TOOL_DESCRIPTION, fetchToolParameters, parseFetchArgs } from './tool.js'
import type { FetchContext, FetchRequest, FetchResponse, HandleInput, HandleResult, Spillway, SpillwayOptions } from './types.js'

/** First-pass guess of the handle block's length; the fit is then made exact. */
const BLOCK_ESTIMATE = 600

/** An excerpt fitted beside its handle block: the trim, how many `trimResult` runs it took, and the content for an id. */
interface Fit {
  outcome: TrimOutcome
  trims: number
  render(id: string): string | undefined
}

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
  const persist = options?.persist !== false
  // persist: false never writes; an empty memory store stands in so fetch answers "not available".
  const store: StorageAdapter | undefined = persist ? options?.store : memoryStore()
  if (store === undefined || typeof store.put !== 'function' || typeof store.get !== 'function') {
    throw new SpillwayError('invalid_argument', 'createSpillway needs { store }: memoryStore(), fsStore({ dir }) or a StorageAdapter (or persist: false to store nothing)')
  }
  // A bad key is a configuration error, said at once; the subkeys are derived (async) on first use.
  const keys = options.encryption === undefined ? undefined : deriveBlobKeys(parseEncryptionKey(options.encryption?.key))
  const redactOptions = options.redact === false ? undefined : options.redact === true || options.redact === undefined ? {} : options.redact
  const telemetry = instruments(options.telemetry)
  const o = { ...DEFAULT_SPILLWAY_OPTIONS, ...definedOnly(options) }
  const clock = options.clock ?? Date.now
  const usage = spillUsage(store, options, clock)
  const budget = resolveBudget(options.maxChars, options.contextWindow)
  const index = entryIndex(store)
  const trimBase: TrimOptions = { ...(options.profiles ? { profiles: options.profiles } : {}), ...(options.tokenizer ? { tokenizer: options.tokenizer } : {}) }
  // Answers scale with the budget the caller chose for results, within the default caps.
  const answerMaxChars = options.answerMaxChars ?? Math.min(DEFAULT_SPILLWAY_OPTIONS.answerMaxChars, Math.max(2_000, budget))
  const fullMaxChars = options.fullMaxChars ?? Math.min(DEFAULT_SPILLWAY_OPTIONS.fullMaxChars, Math.max(8_000, budget * 4))
  const limits = { fullMaxChars, answerMaxChars, grepPageSize: Math.max(1, o.grepPageSize), patternMaxChars: o.patternMaxChars, regexTimeoutMs: Math.max(1, o.regexTimeoutMs) }
  const blobs = blobLayer(store, {
    compress: o.compress,
    cacheChars: o.cacheChars,
    keys,
    readPlaintext: options.encryption?.readPlaintext === true,
    onResize: (_id, delta) => {
      if (storeBytes !== undefined) storeBytes += delta
    },
  })

  // Stored bytes as this process last knew them (undefined: not listed yet). Kept up to date on
  // put, eviction and sweep, so `handle` lists the whole store (a file read per blob with fsStore)
  // only on first use and when the running total crosses the cap. Other processes' writes are
  // seen at the next listing; within this process the cap holds to one blob.
  let storeBytes: number | undefined
  // The listing in flight: concurrent puts share one (100 concurrent first puts listed the store 100 times).
  let listing: Promise<readonly BlobInfo[]> | undefined
  const listStore = (): Promise<readonly BlobInfo[]> =>
    (listing ??= (async () => {
      try {
        const all: BlobInfo[] = []
        for await (const b of store!.list()) all.push(b)
        return all
      } finally {
        listing = undefined
      }
    })())

  /** Keeps the store under `maxStoreBytes` by evicting least recently used blobs, never `keep`. */
  async function enforceCap(keep: string, added: number): Promise<void> {
    if (storeBytes !== undefined) {
      storeBytes += added
      if (storeBytes <= o.maxStoreBytes) return
    } else {
      // A listing already in flight may have missed this put: count it on top (an over-count only
      // costs a fresh listing below, never an eviction the true total did not call for).
      const joined = listing !== undefined
      const all = await listStore()
      storeBytes ??= all.reduce((s, b) => s + b.bytes, 0)
      if (joined) storeBytes += added
      if (storeBytes <= o.maxStoreBytes) return
    }
    const all = [...(await listStore())]
    let total = all.reduce((s, b) => s + b.bytes, 0)
    storeBytes = total
    if (total <= o.maxStoreBytes) return
    all.sort((a, b) => a.lastAccessAt - b.lastAccessAt || (a.id < b.id ? -1 : 1))
    for (const b of all) {
      if (total <= o.maxStoreBytes) break
      if (b.id === keep) continue
      if (!(await removeListed(store!, b))) continue // used since the listing (a duplicate handed out meanwhile): kept
      blobs.removed(b.id)
      total -= b.bytes
      storeBytes = total
    }
  }

  /** One call's budget and trim options: the instance's, or the call's own window, budget and profile hint. */
  interface Call {
    budget: number
    trim: TrimOptions
  }
  function callFor(input: HandleInput, tool: string): Call {
    // A per-call window moves the budget only when the user fixed none (maxChars here or on createSpillway).
    const own = validCount(input?.maxChars) ?? (options.maxChars === undefined && validCount(input?.contextWindow) !== undefined ? resolveBudget(undefined, input.contextWindow) : undefined)
    const hint = typeof input?.profile === 'string' && Object.hasOwn(DEFAULT_PROFILES, input.profile) ? input.profile : undefined
    // The hint names a profile for a tool its name does not map to; the user's overrides still win.
    const useHint = hint !== undefined && resolveProfile(tool, options.profiles).name === 'default' && !Object.hasOwn(options.profiles ?? {}, tool)
    const hinted = useHint ? { ...trimBase, profiles: { ...options.profiles, [tool]: { name: hint } } } : trimBase
    // What the call was made for (the user's last message): its distinctive words raise lines.
    const trim = typeof input?.focus === 'string' && input.focus !== '' ? { ...hinted, focus: input.focus } : hinted
    return { budget: own ?? budget, trim }
  }

  /**
   * Fits the excerpt and the handle block within the budget. The block's length depends on the id
   * only through its length, so this runs before the id is known (while the SHA-256 computes) and
   * `render` puts the id in; `undefined` when even the bare id line would not fit.
   */
  function fitWithBlock(call: Call, result: string, lineOf: (n: number) => string, tool: string, args: unknown, facts: Omit<BlockFacts, 'id' | 'salientText' | 'salientCount' | 'firstSalient' | 'omitted'>, idLength: number): Fit {
    let trims = 0
    const trim = (maxChars: number): TrimOutcome => {
      trims++
      return trimResult(result, { ...call.trim, tool, args, maxChars: Math.max(0, maxChars) })
    }
    const block = (out: TrimOutcome, id: string): string => {
      const first = out.salient[0]
      return handleBlock({
        ...facts,
        id,
        salientCount: out.salient.length,
        // `salient` counts lines of the view when there is one, as fetch_result does; the text is
        // the line fetch_result's grep reads (ANSI codes removed), so the suggested grep finds it.
        ...(first !== undefined ? { firstSalient: first, salientText: lineOf(first) } : {}),
        ...(out.omitted[0] !== undefined ? { omitted: out.omitted[0] } : {}),
      })
    }
    const placeholder = '0'.repeat(idLength)
    let target = call.budget - BLOCK_ESTIMATE
    let outcome = trim(target)
    for (let attempt = 0; attempt < 4; attempt++) {
      const b = block(outcome, placeholder)
      if (call.budget - b.length - 1 < 200) break // too small for a useful excerpt with the full block
      if (outcome.text.length + 1 + b.length <= call.budget) {
        const fitted = outcome
        return { outcome, trims, render: (id) => `${fitted.text}\n${block(fitted, id)}` }
      }
      target = Math.min(target - 16, call.budget - b.length - 1)
      outcome = trim(target)
    }
    const compact = compactBlock(placeholder)
    if (call.budget <= compact.length + 1) {
      // Too small for an excerpt beside the block: the block alone, else a bare id line (never an id cut short).
      const render = (id: string): string | undefined => [compactBlock(id), bareBlock(id)].find((c) => c.length <= call.budget)
      return { outcome: trim(0), trims, render }
    }
    outcome = trim(call.budget - compact.length - 1)
    const fitted = outcome
    return { outcome, trims, render: (id) => `${fitted.text}\n${compactBlock(id)}` }
  }

  /** {@link fitWithBlock} inside a `spillway.trim` span (a child of `spillway.handle`). */
  function tracedFit(...args: Parameters<typeof fitWithBlock>): Promise<Fit> {
    const [call, result, , tool, , facts] = args
    const attributes = { 'gen_ai.tool.name': tool, 'spillway.kind': facts.kind, 'spillway.budget.max_chars': call.budget, 'spillway.original.chars': result.length }
    return telemetry.span('spillway.trim', attributes, async (set) => {
      const fit = fitWithBlock(...args)
      set({ 'spillway.kept.chars': fit.outcome.kept.chars, 'spillway.filters': [...fit.outcome.applied], 'spillway.trim.passes': fit.trims })
      return fit
    })
  }

  async function handleOnce(call: Call, input: HandleInput, raw: string, tool: string): Promise<HandleResult> {
    const args = input?.args
    const exempt = tool === FETCH_TOOL_NAME || resolveProfile(tool, call.trim.profiles).exempt
    // Results that pass unchanged are the tool's own bytes: nothing is stored or rewritten. Anything
    // spillway excerpts or stores is redacted first, so no secret reaches the store or the excerpt.
    const passes = exempt || raw.length <= call.budget
    const redaction: Redaction | undefined = passes || redactOptions === undefined ? undefined : redactSecrets(raw, redactOptions)
    const result = redaction?.text ?? raw
    const redacted = redaction !== undefined && redaction.count > 0 ? { redacted: redaction.kinds } : {}
    const plain = (): HandleResult => {
      const outcome = trimResult(result, { ...call.trim, tool, args, maxChars: call.budget })
      return { content: outcome.text, changed: outcome.changed, outcome, ...redacted }
    }
    // An excerpt that already carries spillway's handle (a sub-agent's result, a proxy behind an
    // adapter) is re-fitted keeping that handle: never a second handle to an excerpt.
    if (passes || result.length < o.spillOver || !isSessionId(input?.sessionId) || splitHandle(result) !== undefined) return plain()
    if (!persist) return unstored(call, result, tool, args, undefined, redacted)
    // Smallest call.budget that can carry a handle (the bare id line); below it nothing is spilled.
    if (call.budget < bareBlock('0'.repeat(12)).length) return plain()
    let stored: { id: string; added: number }
    let lines: number
    let view: ReturnType<typeof lineView>
    let kind: ContentKind
    let building: Promise<BuiltBlob>
    try {
      lines = countLines(result)
      kind = safeKind(result)
      // JSON around text: the block and fetch_result number the lines inside, as the excerpt does.
      // Memoized, so the trims below do not parse the result again.
      view = lineView(result)
      // Encode and checksum the chunks now and start the SHA-256 (off the main thread where the
      // runtime has one): the excerpt is fitted while it computes.
      building = beginBlob({ text: result, body: bodyOf(result, view) }, await xxh(), DEFAULT_CHUNK_CHARS, blobs.digest)
      building.catch(() => undefined) // awaited below; a failure is handled there
    } catch (err) {
      return unstored(call, result, tool, args, err, redacted)
    }
    const lined = view?.text ?? result
    const lineOf = (n: number): string => stripAnsi(nthLine(lined, n)) ?? nthLine(lined, n)
    const facts = { tool, chars: result.length, lines: view === undefined ? lines : countLines(lined), kind, ...(view !== undefined ? { view: view.path } : {}) }
    let fit = await tracedFit(call, result, lineOf, tool, args, facts, 12)
    try {
      // The store step in its own span: the id, the bytes it added (0: the same content was
      // already stored, a dedup hit) and the store, so an operator sees what storing costs.
      stored = await telemetry.span('spillway.spill', { 'gen_ai.tool.name': tool, 'spillway.store': store!.name, 'spillway.original.chars': result.length }, async (set) => {
        const createdAt = clock()
        const s = await blobs.write(building, { tool, kind, chars: result.length, lines, createdAt })
        await index.put(input.sessionId, { id: s.id, tool, kind, chars: result.length, lines, createdAt })
        await enforceCap(s.id, s.added)
        set({ 'spillway.handle.id': s.id, 'spillway.stored.bytes': s.added, 'spillway.store.hit': s.added === 0 })
        return s
      })
    } catch (err) {
      return unstored(call, result, tool, args, err, redacted) // the model is told the full output could not be kept
    }
    const id = stored.id
    if (id.length !== 12) fit = await tracedFit(call, result, lineOf, tool, args, facts, id.length) // a collision: longer id
    const content = fit.render(id)
    if (content === undefined) return plain() // no room for even the id: no handle that leads nowhere
    return { content, changed: true, handle: { id }, outcome: fit.outcome, ...redacted }
  }

  async function handle(input: HandleInput): Promise<HandleResult> {
    const raw = typeof input?.result === 'string' ? input.result : asText(input?.result)
    const tool = typeof input?.tool === 'string' && input.tool !== '' ? input.tool : 'unknown'
    const call = callFor(input, tool)
    const attributes = { 'gen_ai.tool.name': tool, 'gen_ai.tool.call.id': typeof input?.toolCallId === 'string' ? input.toolCallId : undefined, 'spillway.budget.max_chars': call.budget }
    return telemetry.span('spillway.handle', attributes, async (set) => {
      const res = await handleOnce(call, input, raw, tool)
      const out = res.outcome
      const outcome = res.handle !== undefined ? 'spilled' : res.changed ? 'trimmed' : 'passed'
      const redactedCount = Object.values(res.redacted ?? {}).reduce((a, b) => a + b, 0)
      set({
        'spillway.kind': out.kind,
        'spillway.outcome': outcome,
        'spillway.original.chars': raw.length,
        'spillway.original.tokens': out.original.tokens,
        'spillway.kept.chars': res.content.length,
        'spillway.kept.tokens': out.kept.tokens,
        'spillway.filters': [...out.applied],
        'spillway.handle.id': res.handle?.id,
        'spillway.redacted': redactedCount,
      })
      const tags = { 'gen_ai.tool.name': tool, 'spillway.kind': out.kind, 'spillway.outcome': outcome }
      telemetry.count(METRICS.results, 1, tags)
      telemetry.count(METRICS.originalChars, raw.length, tags)
      telemetry.count(METRICS.keptChars, res.content.length, tags)
      usage.handled(tool, raw.length, res)
      return res
    })
  }

  /** The excerpt, and a line saying the full output could not be stored (so no handle is given). */
  function unstored(call: Call, result: string, tool: string, args: unknown, err: unknown, extra: Pick<HandleResult, 'redacted'>): HandleResult {
    const why = !persist ? 'this agent keeps no copies' : SpillwayError.is(err) && err.code === 'store' ? 'the result store failed' : 'storing it failed'
    const note = `[spillway: the full output ${persist ? 'could not be stored' : 'was not stored'} (${why}), so it cannot be fetched later; re-run \`${tool.slice(0, 80)}\` with narrower arguments if you need more of it]`
    const room = call.budget - note.length - 1
    const outcome = trimResult(result, { ...call.trim, tool, args, maxChars: Math.max(0, room) })
    if (room < 40) return { content: outcome.text, changed: outcome.changed, outcome, ...extra }
    return { content: `${outcome.text}\n${note}`, changed: true, outcome, ...extra }
  }

  const gone = (id: string, tool: string): FetchResponse => ({ ok: false, text: `Result ${id} (from \`${tool}\`) is no longer stored: it expired or was evicted to save space. Re-run \`${tool}\` to get the output again.` })
  const damaged = (id: string, tool: string): FetchResponse => ({
    ok: false,
    text: `Result ${id} is damaged in the store (its bytes fail the integrity check), so it is not served. Re-run \`${tool}\`: the new output replaces the damaged copy.`,
  })

  const locked = (id: string, tool: string, reason: LockedReason): FetchResponse => ({
    ok: false,
    text:
      reason === 'plaintext'
        ? `Result ${id} is stored without encryption and this spillway serves only encrypted results (nothing authenticates a result in clear); re-run \`${tool}\` to store it encrypted.`
        : `Result ${id} is encrypted at rest and ${reason === 'no_key' ? 'no key is set here' : 'the key set here is not the one it was written with'}; set SPILLWAY_KEY (or createSpillway({ encryption: { key } })) to that key, or re-run \`${tool}\`.`,
  })

  /** Opens the blob and runs the mode; a chunk that fails to verify re-opens once (the blob may have been rewritten meanwhile). */
  async function read(r: FetchRequest, entry: SessionEntry): Promise<FetchResponse> {
    for (let attempt = 0; ; attempt++) {
      const opened = await blobs.open(r.id)
      if (opened.status !== 'ok') {
        // Not trusted as this process's copy any more: re-running the tool rewrites it (the write's
        // "already stored" shortcut would otherwise hand back the same damaged id).
        blobs.forget(r.id)
        if (opened.status === 'absent') return gone(r.id, entry.tool)
        if (opened.status === 'damaged') return damaged(r.id, entry.tool)
        return locked(r.id, entry.tool, opened.reason)
      }
      try {
        const res = await runMode(opened.reader, entry, r, limits)
        await store!.touch?.(r.id, clock())
        return res
      } catch (err) {
        blobs.forget(r.id)
        if (!(SpillwayError.is(err) && err.code === 'integrity')) throw err
        if (attempt >= 2) return damaged(r.id, entry.tool) // re-read twice: another process may have rewritten it meanwhile
      }
    }
  }

  async function fetchOnce(req: FetchRequest, ctx: FetchContext, found: (tool: string) => void): Promise<FetchResponse> {
    const parsed = parseFetchArgs(req)
    if (!parsed.ok) return { ok: false, text: parsed.text }
    const r = parsed.req
    if (!isSessionId(ctx?.sessionId)) return { ok: false, text: 'fetch_result needs the session of the conversation; none was given.' }
    if (!isBlobId(r.id)) return { ok: false, text: `"${String(r.id).slice(0, 70)}" is not a result id: ids are 12 or more hex characters, shown in the handle block under an excerpt.` }
    const entry = await index.get(ctx.sessionId, r.id)
    // Same answer whether the blob exists in another session or nowhere: ids leak nothing.
    if (entry === undefined) return { ok: false, text: `Result ${r.id} is not available in this session: use an id from a handle block shown in this conversation, or, if it came from one, it is no longer stored (the store was cleared or its record expired) and re-running the tool that produced it gives a new one.` }
    found(entry.tool)
    return read(r, entry)
  }

  async function fetch(req: FetchRequest, ctx: FetchContext): Promise<FetchResponse> {
    const mode = typeof req?.mode === 'string' ? req.mode : undefined
    const attributes = { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': FETCH_TOOL_NAME, 'spillway.fetch.mode': mode, 'spillway.handle.id': typeof req?.id === 'string' ? req.id.slice(0, 64) : undefined }
    return telemetry.span('spillway.fetch', attributes, async (set) => {
      let res: FetchResponse
      let tool: string | undefined // the tool whose result is read, once the session's entry is found
      try {
        res = await fetchOnce(req, ctx, (t) => (tool = t))
      } catch {
        res = { ok: false, text: 'fetch_result could not read the result store just now. Try again; if it keeps failing, re-run the original tool.' }
      }
      set({ 'spillway.fetch.ok': res.ok, 'spillway.kept.chars': res.text.length })
      telemetry.count(METRICS.fetches, 1, { 'spillway.fetch.mode': mode, 'spillway.fetch.ok': res.ok })
      usage.fetched(mode, res.ok, tool)
      return res
    })
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
    stats: async (opts) => usage.withUsage(await storeStats(store, index, opts?.sessionId), opts),
    flushStats: () => usage.flush(),
    async sweep() {
      const report = await sweepStore(store, index, { now: clock(), ttlHours: o.ttlHours, tombstoneTtlHours: o.tombstoneTtlHours, maxStoreBytes: o.maxStoreBytes })
      for (const id of report.removedIds) blobs.removed(id)
      storeBytes = report.bytes
      const { removedIds: _ids, ...rest } = report
      void _ids
      return rest
    },
    async dispose() {
      await usage.close()
      await blobs.idle()
      blobs.clear()
    },
  }
}

/** Line `n` (1-based) of `text`, without its `\n` or a trailing `\r`. */
function nthLine(text: string, n: number): string {
  let start = 0
  for (let i = 1; i < n && start !== -1; i++) start = text.indexOf('\n', start) + 1 || -1
  if (start === -1) return ''
  const nl = text.indexOf('\n', start)
  const end = nl === -1 ? text.length : nl
  return text.slice(start, end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end)
}

function safeKind(text: string): ContentKind {
  try {
    return detectKind(text)
  } catch {
    return 'text'
  }
}

const validCount = (n: unknown): number | undefined => (typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : undefined)
