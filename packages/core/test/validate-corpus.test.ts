// validateArgs on the real tool schemas of ../shared/corpus: the 199 MCP tools of catalog/ and the
// 2,479 ToolBench APIs of retrieval/toolbench (MetaTool's catalog has no parameter schemas).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { validateArgs } from '../src/disclose/validate.js'
import { CORPUS } from './corpus.js'

type Json = Record<string, unknown>
interface CatalogTool {
  name: string
  parameters: Json
}

const load = (file: string): CatalogTool[] => JSON.parse(readFileSync(join(CORPUS, file), 'utf8')) as CatalogTool[]
const mcp = load('catalog/mcp_tools.json')
const toolbench = load('retrieval/toolbench/tools.json')
const byName = (name: string): Json => {
  const tool = mcp.find((t) => t.name === name)
  if (tool === undefined) throw new Error(`no ${name} in catalog/mcp_tools.json`)
  return tool.parameters
}
const props = (schema: Json): Record<string, Json> => (schema['properties'] ?? {}) as Record<string, Json>
const required = (schema: Json): string[] => (Array.isArray(schema['required']) ? (schema['required'] as string[]) : [])

/** A value the property's schema accepts, built from its declared shape. */
function sample(s: Json): unknown {
  if (Array.isArray(s['enum'])) return s['enum'][0]
  if ('const' in s) return s['const']
  const type = Array.isArray(s['type']) ? s['type'][0] : s['type']
  if (type === undefined && Array.isArray(s['anyOf'])) return sample(s['anyOf'][0] as Json)
  if (type === 'string') return s['format'] === 'uri' ? 'https://example.com/a' : 'x'.repeat(Math.max(1, Number(s['minLength'] ?? 1)))
  if (type === 'number' || type === 'integer') return typeof s['minimum'] === 'number' ? s['minimum'] : 1
  if (type === 'boolean') return true
  if (type === 'array') return Array.from({ length: Number(s['minItems'] ?? 0) }, () => sample((s['items'] ?? {}) as Json))
  if (type === 'object') return Object.fromEntries(required(s).map((k) => [k, sample(props(s)[k] ?? {})]))
  return null
}
const validArgs = (schema: Json): Json => Object.fromEntries(required(schema).map((k) => [k, sample(props(schema)[k] ?? {})]))
const wrongType = (s: Json): unknown => (s['type'] === 'string' ? 12 : 'twelve')

/** The same schema with every property's subschema moved to `$defs` and referenced. */
function viaRefs(schema: Json): Json {
  const $defs: Json = {}
  const properties: Json = {}
  Object.entries(props(schema)).forEach(([k, p], i) => {
    $defs[`p${i}`] = p
    properties[k] = { $ref: `#/$defs/p${i}` }
  })
  return { ...schema, properties, $defs }
}

describe('validateArgs on the corpus catalogs', () => {
  const all = [...mcp, ...toolbench]

  it(`accepts arguments built from each of the ${mcp.length} + ${toolbench.length} real schemas, and leaves the schema untouched`, () => {
    expect(all.length).toBe(199 + 2479)
    const rejected = all.flatMap((t) => {
      const before = JSON.stringify(t.parameters)
      const errors = validateArgs(t.parameters, validArgs(t.parameters))
      expect(JSON.stringify(t.parameters)).toBe(before) // the validator writes into what it gets: never the tool's schema
      return errors.length === 0 ? [] : [`${t.name}: ${errors.join('; ')}`]
    })
    expect(rejected).toEqual([])
  })

  it('names each missing required property and each wrong type, with its path', () => {
    let checked = 0
    for (const t of all) {
      const args = validArgs(t.parameters)
      for (const k of required(t.parameters)) {
        const { [k]: _, ...rest } = args
        expect(validateArgs(t.parameters, rest, 50)).toContain(`/${k}: is required`)
        const p = props(t.parameters)[k] ?? {}
        if (typeof p['type'] === 'string' && !Array.isArray(p['enum'])) {
          const errors = validateArgs(t.parameters, { ...args, [k]: wrongType(p) }, 50)
          expect(errors.join('\n')).toMatch(new RegExp(`^/${k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: expected ${p['type']}`, 'm'))
        }
        checked++
      }
    }
    expect(checked).toBeGreaterThan(2000)
  })

  it('$ref: every MCP catalog schema with its properties behind $defs references answers exactly as the original', () => {
    for (const t of mcp) {
      const refd = viaRefs(t.parameters)
      const args = validArgs(t.parameters)
      const variants: unknown[] = [args, {}, 'not an object']
      for (const [k, p] of Object.entries(props(t.parameters))) variants.push({ ...args, [k]: wrongType(p) })
      for (const v of variants) expect(validateArgs(refd, v, 50), `${t.name} ${JSON.stringify(v)}`).toEqual(validateArgs(t.parameters, v, 50))
    }
  })

  it('format: the everything server\'s gzip tool checks `format: "uri"` (draft-07), and a property named "format" or "pattern" stays a property', () => {
    const gzip = byName('gzip-file-as-resource')
    expect(validateArgs(gzip, { data: 'https://raw.githubusercontent.com/modelcontextprotocol/servers/refs/heads/main/README.md' })).toEqual([])
    expect(validateArgs(gzip, { data: 'README.md has no scheme' })).toEqual(['/data: must be a valid uri (JSON Schema format "uri")'])
    const search = byName('search_files') // properties `path` and `pattern`
    expect(validateArgs(search, { path: '/tmp', pattern: '*.ts' })).toEqual([])
    expect(validateArgs(search, { path: '/tmp', pattern: 3 })).toEqual(['/pattern: expected string, got integer'])
  })

  it('pattern: a real schema given a `pattern` keyword refuses a value that does not match, in the schema\'s words', () => {
    const tool = mcp.find((t) => 'owner' in props(t.parameters) && 'repo' in props(t.parameters))
    if (tool === undefined) throw new Error('the catalog has no tool with owner and repo')
    const schema = structuredClone(tool.parameters)
    props(schema)['owner'] = { ...props(schema)['owner'], pattern: '^[A-Za-z0-9-]+$' }
    const args = validArgs(schema)
    expect(validateArgs(schema, { ...args, owner: 'octo-org' })).toEqual([])
    expect(validateArgs(schema, { ...args, owner: 'octo org/../x' })).toEqual(['/owner: must match the pattern ^[A-Za-z0-9-]+$'])
  })
})
