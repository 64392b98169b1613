import { LIMIT_LEVELS, renderCompact } from '../json/render.js'
import { summarizeDiff } from './diff.js'
import { parseJsonObject } from '../../trim/json-memo.js'

/** A string that reads as a unified diff: a hunk header plus a file header or `diff --git`. */
export function looksLikeDiff(s: string): boolean {
  if (s.length < 20) return false
  const hunk = s.startsWith('@@ -') || s.includes('\n@@ -')
  return hunk && (s.startsWith('--- ') || s.includes('\n--- ') || s.startsWith('diff --git ') || s.includes('\ndiff --git '))
}

/**
 * A JSON object with a diff in a string field (top level or one level down, e.g. the results of
 * `write_file` / `patch` tools): the other fields as compact JSON with the diff field replaced by
 * a pointer, then the diff summarised by {@link summarizeDiff} in the budget left.
 * Returns `undefined` when no field holds a diff.
 */
export function summarizeDiffInJson(text: string, budget: number): string | undefined {
  const obj = parseJsonObject(text)
  if (obj === undefined) return undefined
  // Where the diff sits: obj[key], or obj[outer][key] one level down.
  let outer: string | undefined
  let key: string | undefined
  for (const k of Object.keys(obj)) {
    const v = obj[k]
    if (typeof v === 'string' && looksLikeDiff(v)) {
      key = k
      break
    }
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      key = Object.keys(v).find((k2) => {
        const v2 = (v as Record<string, unknown>)[k2]
        return typeof v2 === 'string' && looksLikeDiff(v2)
      })
      if (key !== undefined) {
        outer = k
        break
      }
    }
  }
  if (key === undefined) return undefined
  // Copies, never the parsed value: it is shared through parseJsonObject's memo.
  const shown: Record<string, unknown> = { ...obj }
  const holder: Record<string, unknown> = outer === undefined ? shown : (shown[outer] = { ...(obj[outer] as Record<string, unknown>) })
  const diff = holder[key] as string
  holder[key] = `<diff, ${diff.length} chars: summarised below>`
  let rest = ''
  for (const limits of LIMIT_LEVELS) {
    rest = renderCompact(shown, limits, budget)
    if (rest.length <= budget / 3) break
  }
  const summary = summarizeDiff(diff, budget - rest.length - 1)
  return summary === undefined ? undefined : `${rest}\n${summary}`
}
