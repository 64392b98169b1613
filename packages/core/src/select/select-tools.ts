import type { SearchMode, ToolIndex } from './types.js'

/** Options of {@link selectTools}. */
export interface SelectToolsOptions {
  /** Index over the tool set (its declaration order orders the result). */
  index: ToolIndex
  /** The user's latest message (or any text that states the intent). */
  query: string
  /** Retrieved tools added on top of pinned and sticky ones. Range >= 0. */
  k: number
  /** Always selected, first, in this order (they need not be in the index). */
  pinned?: readonly string[]
  /** Tools used earlier in the conversation: kept whatever the query. */
  sticky?: readonly string[]
  /** Last turn's selection: tools still selected keep that order, so the prompt prefix survives. */
  previous?: readonly string[]
  /** @default the index's default (hybrid with an embedder, else keyword) */
  mode?: SearchMode
}

/**
 * Names of the tools to show this turn: `pinned` (always, first), `sticky` (always) and the `k`
 * best-ranked other tools. Order is stable rather than by score: after the pinned tools come the
 * tools of `previous` still selected, in their previous order, then the newly selected ones in
 * declaration order. A turn that changes nothing therefore sends the same array, and one that adds
 * a tool only appends, so a provider's cached prompt prefix survives. Never throws: if the search
 * fails, the pinned, sticky and previous tools are returned.
 *
 * @example
 * const active = await selectTools({ index, query: userText, k: 8, pinned: ['terminal'], sticky: usedSoFar, previous: lastActive })
 */
export async function selectTools(opts: SelectToolsOptions): Promise<string[]> {
  const { index, query } = opts
  const k = Number.isFinite(opts.k) ? Math.max(0, Math.floor(opts.k)) : 0
  const pinned = [...new Set(opts.pinned ?? [])]
  const sticky = opts.sticky ?? []
  const previous = opts.previous ?? []
  const chosen = new Set<string>([...pinned, ...sticky])
  let retrieved: string[] = []
  try {
    const searchOpts = opts.mode === undefined ? { k: k + chosen.size } : { k: k + chosen.size, mode: opts.mode }
    const wanted = k > 0 && typeof query === 'string' && query.trim() !== ''
    // Keyword search is synchronous: call it directly rather than through the async `search`.
    const keyword = (opts.mode ?? index.defaultMode) === 'keyword' && typeof index.searchKeyword === 'function'
    const hits = !wanted ? [] : keyword ? index.searchKeyword(query, k + chosen.size) : await index.search(query, searchOpts)
    retrieved = hits.map((h) => h.name).filter((n) => !chosen.has(n)).slice(0, k)
  } catch {
    for (const n of previous) chosen.add(n) // keep last turn's tools rather than lose them
  }
  for (const n of retrieved) chosen.add(n)

  const out: string[] = [...pinned]
  const placed = new Set(pinned)
  const place = (n: string): void => {
    if (chosen.has(n) && !placed.has(n)) {
      placed.add(n)
      out.push(n)
    }
  }
  for (const n of previous) place(n)
  // The rest in declaration order: sort the few chosen names by position rather than walk
  // every name of the index (a 2,479-tool catalog would cost ~90 us per turn).
  const indexOf = typeof index.indexOf === 'function' ? index.indexOf.bind(index) : undefined
  if (indexOf !== undefined) {
    const rest = [...chosen].filter((n) => !placed.has(n) && indexOf(n) >= 0)
    rest.sort((a, b) => indexOf(a) - indexOf(b))
    for (const n of rest) place(n)
  } else for (const n of index.names) place(n)
  for (const n of sticky) place(n) // sticky names the index does not know
  return out
}
