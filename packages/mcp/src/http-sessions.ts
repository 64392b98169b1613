import type { ServerResponse } from 'node:http'
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import type { McpProxy } from './proxy.js'

/** One Streamable HTTP session: its transport and proxy (with the proxy's own upstream connections). */
export interface HttpSession {
  readonly transport: StreamableHTTPServerTransport
  readonly proxy: McpProxy
}

/** The sessions of one endpoint, with an idle time-out (the endpoint caps how many it opens). */
export interface SessionTable {
  get(id: string): HttpSession | undefined
  /** Adds a session. */
  add(id: string, session: HttpSession): void
  /** Counts `res` as activity of session `id` until it closes: a session with an open response (a call in flight, an event stream) never expires. */
  track(id: string, res: ServerResponse): void
  /** Removes the session and closes its proxy (which stops its upstreams). */
  end(id: string): Promise<void>
  size(): number
  closeAll(): Promise<void>
}

interface Entry {
  session: HttpSession
  open: number
  timer: ReturnType<typeof setTimeout> | undefined
}

/** Whether sessions idle for `idleMs` expire: setTimeout fires at once for Infinity or anything past 2^31-1 ms, so those mean "never". */
export const idleExpires = (idleMs: number): boolean => idleMs >= 0 && idleMs <= 2 ** 31 - 1

/**
 * A session table: a session with no open response for `idleMs` is ended
 * (its proxy closed, its upstream processes stopped), as if the client had sent DELETE.
 * `Infinity` (or any value past 2^31-1 ms) disables the time-out.
 */
export function createSessionTable(idleMs: number, onExpired: (id: string) => void = () => undefined): SessionTable {
  const entries = new Map<string, Entry>()
  const expires = idleExpires(idleMs)
  const arm = (id: string, e: Entry): void => {
    clearTimeout(e.timer)
    if (!expires) return
    e.timer = setTimeout(() => {
      onExpired(id)
      void table.end(id)
    }, idleMs)
    e.timer.unref?.()
  }
  const table: SessionTable = {
    get: (id) => entries.get(id)?.session,
    add(id, session) {
      const e: Entry = { session, open: 0, timer: undefined }
      entries.set(id, e)
      arm(id, e)
    },
    track(id, res) {
      const e = entries.get(id)
      if (e === undefined) return
      e.open++
      clearTimeout(e.timer)
      e.timer = undefined
      res.once('close', () => {
        e.open--
        if (e.open === 0 && entries.get(id) === e) arm(id, e)
      })
    },
    async end(id) {
      const e = entries.get(id)
      if (e === undefined) return
      entries.delete(id)
      clearTimeout(e.timer)
      await e.session.proxy.close()
    },
    size: () => entries.size,
    async closeAll() {
      await Promise.all([...entries.keys()].map((id) => table.end(id)))
    },
  }
  return table
}
