import type { SessionEntry, StorageAdapter } from '../store/types.js'

/** Which blobs each session may read: the store's session index, else an in-process map. */
export interface EntryIndex {
  put(sessionId: string, entry: SessionEntry): Promise<void>
  get(sessionId: string, id: string): Promise<SessionEntry | undefined>
  delete(sessionId: string, id: string): Promise<void>
  list(sessionId?: string): AsyncIterable<{ sessionId: string; entry: SessionEntry }>
}

/** The session index of `store` when it has that capability; otherwise one held in this process only. */
export function entryIndex(store: StorageAdapter): EntryIndex {
  const { putEntry, getEntry, deleteEntry, listEntries } = store
  if (putEntry && getEntry && deleteEntry && listEntries) {
    return {
      put: (s, e) => putEntry.call(store, s, e),
      get: (s, id) => getEntry.call(store, s, id),
      delete: (s, id) => deleteEntry.call(store, s, id),
      list: (s) => listEntries.call(store, s),
    }
  }
  const map = new Map<string, Map<string, SessionEntry>>()
  return {
    async put(s, e) {
      let m = map.get(s)
      if (m === undefined) map.set(s, (m = new Map()))
      m.set(e.id, { ...e })
    },
    async get(s, id) {
      const e = map.get(s)?.get(id)
      return e === undefined ? undefined : { ...e }
    },
    async delete(s, id) {
      map.get(s)?.delete(id)
    },
    async *list(s) {
      for (const [sid, m] of [...map]) if (s === undefined || s === sid) for (const e of [...m.values()]) yield { sessionId: sid, entry: { ...e } }
    },
  }
}
