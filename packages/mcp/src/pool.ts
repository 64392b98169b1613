import { createSpillway, resolveBudget, type Spillway, type SpillwayOptions, type StorageAdapter } from '@spillway/core'
import { DEFAULT_MCP_PROXY } from './types.js'

/** The spillways of a proxy over one store: one per result budget, plus one that reads blobs whole for `resources/read`. */
export interface SpillwayPool {
  readonly store: StorageAdapter
  /** The spillway that trims with `maxChars` (the default budget when undefined). */
  forBudget(maxChars?: number): Spillway
  /** The budget in chars of what the model sees per result for `forBudget(maxChars)`. */
  budgetOf(maxChars?: number): number
  /** Reads a blob whole (its `full` limit is `resourceMaxChars`); same sessions as the others. */
  reader(): Spillway
  /** Every spillway made so far (fetch tries them in turn for stores without a shared session index). */
  all(): Spillway[]
  dispose(): Promise<void>
}

/** Options of {@link createSpillwayPool}. */
export interface SpillwayPoolOptions extends Omit<SpillwayOptions, 'store'> {
  store: StorageAdapter
  /** Largest blob `reader()` returns whole, in chars. @default DEFAULT_MCP_PROXY.resourceMaxChars */
  resourceMaxChars?: number
}

/**
 * A pool of core spillways over one store, shared by every connection of a proxy (each
 * connection has its own session). A tool that declares its own size limit in `_meta` gets a
 * spillway with that budget; all of them read and write the same store and session index.
 */
export function createSpillwayPool(options: SpillwayPoolOptions): SpillwayPool {
  const { resourceMaxChars = DEFAULT_MCP_PROXY.resourceMaxChars, ...base } = options
  const byBudget = new Map<number | undefined, Spillway>()
  let reader: Spillway | undefined
  const forBudget = (maxChars?: number): Spillway => {
    const key = maxChars === undefined || maxChars === base.maxChars ? undefined : maxChars
    let sw = byBudget.get(key)
    if (sw === undefined) {
      sw = createSpillway({ ...base, ...(key !== undefined ? { maxChars: key } : {}) })
      byBudget.set(key, sw)
    }
    return sw
  }
  return {
    store: options.store,
    forBudget,
    budgetOf: (maxChars) => resolveBudget(maxChars ?? base.maxChars, base.contextWindow),
    reader() {
      // No cache: a resource read is one pass, and the model-facing spillways keep theirs.
      reader ??= createSpillway({ ...base, fullMaxChars: resourceMaxChars, cacheChars: 0 })
      return reader
    },
    all: () => [...byBudget.values()],
    async dispose() {
      for (const sw of [...byBudget.values(), ...(reader !== undefined ? [reader] : [])]) await sw.dispose().catch(() => undefined)
      byBudget.clear()
      reader = undefined
    },
  }
}
