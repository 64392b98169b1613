import { listedFiles } from '@spillway/core'
import type { JsonFact } from '../corpus/types.js'

/** Paths a unified diff / `git show` touches, in order, from its `diff --git` or `+++` lines. */
export function diffFiles(diff: string): string[] {
  const files = new Set<string>()
  for (const line of diff.split('\n')) {
    const git = /^diff --git a\/(\S+) b\/(\S+)/.exec(line)
    if (git !== null) {
      files.add(git[2]!)
      continue
    }
    const plus = /^\+\+\+ b\/(\S+)/.exec(line)
    if (plus !== null) files.add(plus[1]!)
  }
  return [...files]
}

const NUMBERED = /^(.+?):(\d+)(?::|$)/ // path:line:text (grep -n, rg -n) or path:count (rg -c)
const CONTEXT = /^(.+?)-(\d+)-/ // rg -C context line
const BARE_NUMBERED = /^\d+[:-]/ // a line of rg --heading output

/**
 * Files a grep / ripgrep output names, whatever the flags: `path:n:text`, `path:count`,
 * `rg --heading` blocks, `-C` context lines, or a plain `-l` list.
 */
export function grepFiles(output: string): string[] {
  const files = new Set<string>()
  const lines = output.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (line === '' || line === '--' || BARE_NUMBERED.test(line)) continue
    const m = NUMBERED.exec(line)
    if (m !== null) {
      files.add(m[1]!)
      continue
    }
    if (CONTEXT.test(line)) continue
    const next = lines[i + 1]
    if (next !== undefined && BARE_NUMBERED.test(next)) files.add(line) // heading
  }
  if (files.size === 0) {
    for (const line of lines) if (/^\S+$/.test(line) && /[/.]/.test(line)) files.add(line) // grep -l
  }
  return [...files]
}

/**
 * Share (0..1) of `paths` an excerpt names: a path counts when it appears verbatim (a raw grep
 * line, a diff header) or when `listedFiles` of @spillway/core reads it back from a search index
 * (`dir/*.go a:3 b` = `dir/a.go`, `dir/b.go`). The same rule for every method: baselines that print
 * raw lines are counted by the verbatim half, an index by the other. `undefined` without paths.
 */
export function filesNamed(excerpt: string, paths: readonly string[]): number | undefined {
  if (paths.length === 0) return undefined
  const listed = new Set(listedFiles(excerpt))
  let n = 0
  for (const p of paths) if (listed.has(p) || excerpt.includes(p)) n++
  return n / paths.length
}

const MAX_KEYS = 20

/**
 * The shape facts of a JSON body a reader needs first: for an array, its length; for an object,
 * its top-level keys (at most 20) and the length of each top-level array. `[]` if not JSON.
 */
export function jsonShapeFacts(text: string): JsonFact[] {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return []
  }
  if (Array.isArray(value)) return [{ type: 'length', path: '$', length: value.length }]
  if (value === null || typeof value !== 'object') return []
  const facts: JsonFact[] = []
  for (const [key, v] of Object.entries(value).slice(0, MAX_KEYS)) {
    facts.push({ type: 'key', key })
    if (Array.isArray(v)) facts.push({ type: 'length', path: `$.${key}`, length: v.length })
  }
  return facts
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * Whether an excerpt states one fact. A key counts when it appears (quoted or as `key:`); an array
 * length counts only when the number is written as a count, e.g. `30 items`, `array[30]`,
 * `[30]`, `length: 30`, `(30 elements)` - a bare number in the data does not.
 */
export function factStated(excerpt: string, fact: JsonFact): boolean {
  if (fact.type === 'key') return excerpt.includes(`"${fact.key}"`) || new RegExp(`(^|[\\s{,.])${escape(fact.key)}\\s*:`, 'm').test(excerpt)
  const n = String(fact.length)
  const patterns = [
    `\\b${n}\\s*(items?|elements?|entries|objects?|values?|records?)\\b`,
    `\\[\\s*${n}\\s*\\]`,
    `\\b(length|len|count|size|total)\\b\\s*[:=]?\\s*${n}\\b`,
    `\\b(array|list)\\s*(of|\\()\\s*${n}\\b`,
  ]
  return patterns.some((p) => new RegExp(p, 'i').test(excerpt))
}

/** Share (0..1) of shape facts the excerpt states; `undefined` without facts. */
export function shapeStated(excerpt: string, facts: readonly JsonFact[]): number | undefined {
  if (facts.length === 0) return undefined
  return facts.filter((f) => factStated(excerpt, f)).length / facts.length
}
