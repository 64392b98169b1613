import { splitWords, tokenize } from './tokenize.js'
import type { WeightedTerms } from './bm25.js'
import type { FieldWeights, ToolDescriptor } from './types.js'

/** Field weights chosen on principle (see README): the name is the densest signal, parameters the weakest. */
export const DEFAULT_FIELD_WEIGHTS: Readonly<FieldWeights> = Object.freeze({ name: 3, description: 1, parameters: 0.5, extra: 0.5 })

/** Parameter names and descriptions of a JSON Schema, nested objects and array items included (depth <= 4), one per line. */
export function parameterText(schema: unknown): string {
  return parameterStrings(schema).join('\n')
}

/** {@link parameterText} as a list: each parameter name and description in schema order. */
export function parameterStrings(schema: unknown): string[] {
  const out: string[] = []
  eachParameterText(schema, (text) => out.push(text))
  return out
}

/**
 * Calls `visit` with each parameter name and description of a JSON Schema in schema order (nested
 * objects and array items, depth <= 4): {@link parameterStrings} without building the list.
 */
export function eachParameterText(schema: unknown, visit: (text: string) => void, depth = 0): void {
  if (depth > 4 || schema === null || typeof schema !== 'object') return
  const node = schema as Record<string, unknown>
  const props = node['properties']
  if (props !== null && typeof props === 'object' && !Array.isArray(props)) {
    // Own enumerable string keys in order: what `for...in` filtered by hasOwnProperty gives.
    for (const key of Object.keys(props)) {
      visit(key)
      const sub = (props as Record<string, unknown>)[key]
      if (sub !== null && typeof sub === 'object') {
        const d = (sub as Record<string, unknown>)['description']
        if (typeof d === 'string') visit(d)
        eachParameterText(sub, visit, depth + 1)
      }
    }
  }
  if (node['items'] !== undefined) eachParameterText(node['items'], visit, depth + 1)
}

/**
 * The weighted BM25 terms of one tool: each distinct term once, with the summed weight of its
 * occurrences (what BM25F counts as its term frequency), in order of first occurrence.
 */
export function toolTerms(tool: ToolDescriptor, weights: Readonly<FieldWeights>, extra?: string): WeightedTerms {
  const sums = new Map<string, number>()
  addTerms(sums, tool.name, weights.name)
  addTerms(sums, tool.description ?? '', weights.description)
  addTerms(sums, parameterText(tool.parameters), weights.parameters)
  if (extra !== undefined) addTerms(sums, extra, weights.extra)
  return [...sums]
}

function addTerms(sums: Map<string, number>, text: string, w: number): void {
  if (w <= 0 || text === '') return
  for (const t of tokenize(text)) sums.set(t, (sums.get(t) ?? 0) + w)
}

/** Text embedded for a tool: its name as words, its description and its parameter names. */
export function embeddingText(tool: ToolDescriptor): string {
  const params = parameterText(tool.parameters).split('\n').filter((l) => /^[\w.-]+$/.test(l))
  const head = `${splitWords(tool.name).join(' ')}: ${tool.description ?? ''}`
  return params.length > 0 ? `${head}\nParameters: ${params.join(', ')}` : head
}
