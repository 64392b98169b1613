/** Separator of namespaced names: `server__tool` (the convention of Claude Code's `mcp__server__tool`). */
export const NAMESPACE_SEPARATOR = '__'

/** An item of one upstream as the host sees it: its exposed name and where it came from. */
export interface Routed<T> {
  /** Name shown to the host. */
  name: string
  /** Name on the upstream. */
  original: string
  /** Index of the upstream in the proxy's list. */
  upstream: number
  item: T
}

/**
 * Merges the named items of several upstreams: a name that only one upstream has is kept as is;
 * a name that two have (or that is `reserved`, like `fetch_result`) becomes `server__name`.
 * Order: upstream by upstream, each in its own order, so the list is stable.
 */
export function mergeNamed<T extends { name: string }>(lists: readonly (readonly T[])[], serverNames: readonly string[], reserved: ReadonlySet<string> = new Set()): Routed<T>[] {
  const count = new Map<string, number>()
  for (const list of lists) for (const n of new Set(list.map((t) => t.name))) count.set(n, (count.get(n) ?? 0) + 1)
  const out: Routed<T>[] = []
  const taken = new Set<string>()
  lists.forEach((list, upstream) => {
    for (const item of list) {
      const clash = (count.get(item.name) ?? 0) > 1 || reserved.has(item.name)
      let name = clash ? `${serverNames[upstream]}${NAMESPACE_SEPARATOR}${item.name}` : item.name
      while (taken.has(name)) name = `${serverNames[upstream]}${NAMESPACE_SEPARATOR}${name}`
      taken.add(name)
      out.push({ name, original: item.name, upstream, item })
    }
  })
  return out
}
