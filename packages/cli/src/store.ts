import type { StorageAdapter } from '@spillway/core'
import { defaultStoreDir } from './dir.js'

/** A store spec that names a Redis server rather than a folder. */
const REDIS_URL = /^rediss?:\/\//i
/** Any other `scheme://`: refused rather than taken for a folder name. */
const OTHER_URL = /^[a-z][a-z0-9+.-]*:\/\//i

/** True when `spec` is a `redis://` or `rediss://` URL. */
export const isRedisUrl = (spec: string): boolean => REDIS_URL.test(spec)

/** Where a command was told to keep its store. */
export interface StoreFlags {
  /** `--store`: a folder or a `redis://` / `rediss://` URL. */
  store?: string | undefined
  /** `--dir`: the folder of the fs store. */
  dir?: string | undefined
}

/**
 * The store every entry point uses, in two steps. Which store: `--store`, else `$SPILLWAY_STORE`;
 * when neither is set, the fs store in its folder: `--dir`, else `$SPILLWAY_DIR`, else the
 * user's cache folder (see `defaultStoreDir`). So `$SPILLWAY_STORE` set for a host (the Hermes
 * plugin starts `spillway sidecar --dir ...` in Hermes' environment) moves every entry point to
 * the shared store, while `--dir` keeps naming the folder used without one.
 */
export function storeSpec(flags: StoreFlags, env: Record<string, string | undefined>): string {
  return flags.store || env['SPILLWAY_STORE'] || flags.dir || defaultStoreDir(env)
}

/**
 * `spec` as a URL, or `undefined` when it does not parse or parses with an `@` outside the
 * credentials: an unencoded `/`, `?` or `#` in a password moves the rest of it into the host,
 * port, path or query, where a message would show it.
 */
function parseStoreUrl(spec: string): URL | undefined {
  try {
    const u = new URL(spec)
    return `${u.host}${u.pathname}${u.search}${u.hash}`.includes('@') ? undefined : u
  } catch {
    return undefined
  }
}

/**
 * `spec` for messages, never with a secret in it: a folder as it is; a URL with its password and
 * query values (other than `prefix`) masked; only its scheme (`redis://…`) when it does not parse
 * cleanly (see {@link parseStoreUrl}).
 */
export function describeStore(spec: string): string {
  const scheme = OTHER_URL.exec(spec)?.[0]
  if (scheme === undefined) return spec
  const u = parseStoreUrl(spec)
  if (u === undefined) return `${scheme}…`
  if (u.password !== '') u.password = '***'
  for (const key of [...u.searchParams.keys()]) if (key !== 'prefix') u.searchParams.set(key, '***')
  u.hash = ''
  return u.toString()
}

/**
 * Opens the store named by `spec`, a `--store` value or both flags (see {@link storeSpec} for the
 * rule and the default): a folder (fs store, created 0700) or `redis://[user:pass@]host:port/db` /
 * `rediss://...` (`@spillway/redis`; a `?prefix=NAME` query sets the key prefix, default
 * `spillway`). Stores are imported lazily so that commands which store nothing start without
 * loading them. Pass `{ store, dir }` when a command has both flags, so `$SPILLWAY_STORE` keeps
 * its place between them.
 *
 * @example
 * ```ts
 * const store = await openStore('redis://127.0.0.1:6379/0', process.env)
 * const sw = createSpillway({ store })
 * ```
 */
export async function openStore(spec: string | StoreFlags | undefined, env: Record<string, string | undefined>): Promise<StorageAdapter> {
  const s = storeSpec(typeof spec === 'object' ? spec : { store: spec }, env)
  if (isRedisUrl(s)) {
    const url = parseStoreUrl(s)
    if (url === undefined) {
      throw new Error(`invalid store URL ${describeStore(s)} (the rest of it is not shown, it may hold a password): expected redis://[user:password@]host:port/db or rediss://..., with a "/", "?", "#" or "@" in the password percent-encoded`)
    }
    const prefix = url.searchParams.get('prefix') ?? undefined
    url.search = ''
    const { redisStore } = await import('@spillway/redis')
    return redisStore({ url: url.toString(), ...(prefix !== undefined ? { prefix } : {}) })
  }
  if (OTHER_URL.test(s)) throw new Error(`unsupported store ${describeStore(s)}: use a folder path, redis://host:port/db or rediss://...`)
  const { fsStore } = await import('@spillway/core/fs')
  return fsStore({ dir: s })
}
