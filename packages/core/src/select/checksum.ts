import type { ToolDescriptor } from './types.js'

/** JSON with object keys sorted, so the same schema always hashes the same. Cycles and depth > 64 become `null`. */
export function stableJson(value: unknown): string {
  const seen = new Set<object>()
  const walk = (v: unknown, depth: number): string => {
    if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null'
    if (depth > 64 || seen.has(v)) return 'null'
    seen.add(v)
    let out: string
    if (Array.isArray(v)) out = `[${v.map((x) => walk(x, depth + 1)).join(',')}]`
    else {
      const obj = v as Record<string, unknown>
      const keys = Object.keys(obj).filter((k) => obj[k] !== undefined).sort()
      out = `{${keys.map((k) => `${JSON.stringify(k)}:${walk(obj[k], depth + 1)}`).join(',')}}`
    }
    seen.delete(v)
    return out
  }
  return walk(value, 0)
}

/**
 * 64-bit non-cryptographic hash of a string as 16 hex digits (two independent 32-bit lanes,
 * cyrb53-style mixing). Good for cache keys, not for security.
 */
export function hash64(text: string): string {
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ c, 2654435761)
    h2 = Math.imul(h2 ^ c, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0')
}

/** Checksum of one tool: name + description + schema. Keys persisted vectors. */
export function toolChecksum(tool: ToolDescriptor): string {
  return hash64(stableJson([tool.name, tool.description ?? '', tool.parameters ?? null]))
}

/** Checksum of a tool set, order included (declaration order is part of what the model sees). */
export function toolSetChecksum(tools: readonly ToolDescriptor[]): string {
  return hash64(tools.map(toolChecksum).join(','))
}
