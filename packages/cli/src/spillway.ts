import type { Spillway } from '@spillway/core'

/** Options of {@link openSpillway}. */
export interface OpenOptions {
  /** Store folder (created 0700 by the fs store). */
  dir: string
  /** Budget of the excerpt the model sees, in chars. @default core's `DEFAULT_MAX_CHARS` */
  maxChars?: number
}

/** A spillway whose `dispose` always exists and also releases the store. */
export type OpenSpillway = Spillway & { dispose(): Promise<void> }

/**
 * A spillway on an fs store in `dir`. The store and spill code are imported lazily so that
 * `spillway trim` and `--help` start without loading them.
 */
export async function openSpillway(options: OpenOptions): Promise<OpenSpillway> {
  const [{ createSpillway }, { fsStore }] = await Promise.all([import('@spillway/core'), import('@spillway/core/fs')])
  const store = fsStore({ dir: options.dir })
  const sw = createSpillway({ store, ...(options.maxChars !== undefined ? { maxChars: options.maxChars } : {}) })
  const ownDispose = sw.dispose?.bind(sw)
  return Object.assign(sw, {
    dispose: async () => {
      await ownDispose?.()
      await store.dispose?.()
    },
  })
}
