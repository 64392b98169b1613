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

/** `spec` for messages: a URL without its password. */
export function describeStore(spec: string): string {
  if (!OTHER_URL.test(spec)) return spec
  try {
    const u = new URL(spec)
    if (u.password !== '') u.password = '***'
    return u.toString()
  } catch {
    return spec.replace(/\/\/[^@/]*@/, '//***@')
  }
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
    let url: URL
    try {
      url = new URL(s)
    } catch {
      throw new Error(`invalid store URL ${describeStore(s)}: expected redis://host:port/db or rediss://...`)
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
