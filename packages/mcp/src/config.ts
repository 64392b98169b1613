import { SpillwayError } from '@spillway/core'
import type { UpstreamSpec } from './types.js'

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)

function strings(v: unknown, what: string): string[] | undefined {
  if (v === undefined) return undefined
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw new SpillwayError('invalid_argument', `${what} must be an array of strings`)
  return v
}

function stringMap(v: unknown, what: string): Record<string, string> | undefined {
  if (v === undefined) return undefined
  if (!isRecord(v) || !Object.values(v).every((x) => typeof x === 'string')) throw new SpillwayError('invalid_argument', `${what} must be an object of strings`)
  return v as Record<string, string>
}

/**
 * Upstreams from a config in the `mcpServers` shape that Claude Desktop, Claude Code and Cursor
 * use (`{ "mcpServers": { "github": { "command": "npx", "args": [...], "env": {...} }, "remote":
 * { "url": "https://...", "headers": {...} } } }`). Entries with `"disabled": true` are skipped;
 * entries that point at spillway itself are not special-cased. Throws `SpillwayError` with the
 * entry's name on a malformed entry.
 */
export function parseMcpServersConfig(json: unknown): UpstreamSpec[] {
  const servers = isRecord(json) ? json['mcpServers'] : undefined
  if (!isRecord(servers)) throw new SpillwayError('invalid_argument', 'the config needs an "mcpServers" object, as in Claude Desktop\'s claude_desktop_config.json')
  const out: UpstreamSpec[] = []
  for (const [name, entry] of Object.entries(servers)) {
    if (!isRecord(entry)) throw new SpillwayError('invalid_argument', `mcpServers.${name} must be an object`)
    if (entry['disabled'] === true) continue
    if (!/^[A-Za-z0-9_.-]{1,64}$/.test(name)) throw new SpillwayError('invalid_argument', `mcpServers: the name "${name}" must be 1-64 letters, digits, "_", "-" or "."`)
    const type = entry['type']
    if (typeof entry['url'] === 'string') {
      if (type === 'sse') throw new SpillwayError('invalid_argument', `mcpServers.${name}: the legacy SSE transport is not supported; use its Streamable HTTP URL`)
      const headers = stringMap(entry['headers'], `mcpServers.${name}.headers`)
      out.push({ name, url: entry['url'], ...(headers !== undefined ? { headers } : {}) })
    } else if (typeof entry['command'] === 'string') {
      const args = strings(entry['args'], `mcpServers.${name}.args`)
      const env = stringMap(entry['env'], `mcpServers.${name}.env`)
      const cwd = typeof entry['cwd'] === 'string' ? entry['cwd'] : undefined
      out.push({ name, command: entry['command'], ...(args !== undefined ? { args } : {}), ...(env !== undefined ? { env } : {}), ...(cwd !== undefined ? { cwd } : {}) })
    } else {
      throw new SpillwayError('invalid_argument', `mcpServers.${name} needs a "command" (stdio) or a "url" (Streamable HTTP)`)
    }
  }
  if (out.length === 0) throw new SpillwayError('invalid_argument', 'mcpServers lists no enabled server')
  return out
}
