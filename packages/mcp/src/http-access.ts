/**
 * DNS rebinding protection of the Streamable HTTP endpoint (the MCP spec: servers MUST validate
 * `Origin`, and local servers should check `Host`). The SDK's own checks do not fit here: the
 * transport's `allowedHosts` compares `host:port` exactly and runs only once a session's
 * transport exists (after the proxy and its upstreams were made), and `hostHeaderValidation` is
 * Express middleware. This is the same rule as that middleware (the Host's hostname, any port),
 * applied to every request before anything else happens.
 */

/** Host names of this machine's loopback interface, as a Host header carries them. */
export const LOOPBACK_HOSTS: readonly string[] = Object.freeze(['localhost', '127.0.0.1', '[::1]'])

/** What the endpoint accepts. */
export interface HttpAccess {
  /** Host names (no port; IPv6 in brackets) accepted in the `Host` header, lower case. */
  hosts: readonly string[]
  /** Origins (`scheme://host[:port]`) accepted in an `Origin` header; `undefined`: any origin whose host name is in `hosts`. */
  origins: readonly string[] | undefined
}

/** The host name of a `Host` header or an origin's authority (lower case, IPv6 in brackets), or `undefined` when it is not one. */
export function hostnameOf(authority: string): string | undefined {
  if (authority === '' || /[/?#@\s]/.test(authority)) return undefined
  try {
    return new URL(`http://${authority}`).hostname
  } catch {
    return undefined
  }
}

/** An origin in its canonical form (`new URL(o).origin`), or `undefined` for `null` and non-URLs. */
export function canonicalOrigin(origin: string): string | undefined {
  try {
    const o = new URL(origin).origin
    return o === 'null' ? undefined : o
  } catch {
    return undefined
  }
}

/** Whether a listen address names one interface (so clients may use it as the Host), not all of them. */
const isSpecific = (host: string): boolean => host !== '' && host !== '0.0.0.0' && host !== '::' && host !== '[::]'

/**
 * The access rule of an endpoint listening on `listenHost`: the given hosts (default: loopback
 * names) plus the listen address itself when it names one interface (a client reaching
 * `192.168.1.5` sends that as its Host; an attacker's rebound name never equals an IP literal).
 */
export function httpAccess(listenHost: string, hosts: readonly string[] = LOOPBACK_HOSTS, origins?: readonly string[]): HttpAccess {
  const own = isSpecific(listenHost) ? hostnameOf(listenHost.includes(':') && !listenHost.startsWith('[') ? `[${listenHost}]` : listenHost) : undefined
  const names = [...hosts.map((h) => hostnameOf(h) ?? h.toLowerCase()), ...(own !== undefined ? [own] : [])]
  return {
    hosts: [...new Set(names)],
    origins: origins === undefined ? undefined : origins.map((o) => canonicalOrigin(o) ?? o),
  }
}

/**
 * Why a request is refused, as a sentence for its JSON-RPC error, or `undefined` when its `Host`
 * and `Origin` are accepted. A request without `Origin` (not from a browser) is judged by its Host alone.
 */
export function refusal(access: HttpAccess, host: string | undefined, origin: string | undefined): string | undefined {
  const name = host === undefined ? undefined : hostnameOf(host)
  if (name === undefined || !access.hosts.includes(name)) {
    return `spillway: Host "${(host ?? '').slice(0, 100)}" is not allowed (DNS rebinding protection; allowed: ${access.hosts.join(', ')}); to serve this name, add it to allowedHosts (--allowed-hosts)`
  }
  if (origin === undefined) return undefined
  const o = canonicalOrigin(origin)
  const ok = o !== undefined && (access.origins !== undefined ? access.origins.includes(o) : access.hosts.includes(new URL(o).hostname))
  if (ok) return undefined
  const allowed = access.origins !== undefined ? access.origins.join(', ') || 'none' : `origins on ${access.hosts.join(', ')}`
  return `spillway: Origin "${origin.slice(0, 100)}" is not allowed (allowed: ${allowed}); to accept requests from this web origin, add it to allowedOrigins (--allowed-origins)`
}
