import { LIMIT_LEVELS, renderCompact } from '../json/render.js'
import { summarizeDiff } from './diff.js'

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
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return undefined
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined
  const obj = value as Record<string, unknown>
  let holder: Record<string, unknown> | undefined
  let key: string | undefined
  for (const k of Object.keys(obj)) {
    const v = obj[k]
    if (typeof v === 'string' && looksLikeDiff(v)) {
      holder = obj
      key = k
      break
    }
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      for (const k2 of Object.keys(v)) {
        const v2 = (v as Record<string, unknown>)[k2]
        if (typeof v2 === 'string' && looksLikeDiff(v2)) {
          holder = v as Record<string, unknown>
          key = k2
          break
        }
      }
      if (key !== undefined) break
    }
  }
  if (holder === undefined || key === undefined) return undefined
  const diff = holder[key] as string
  holder[key] = `<diff, ${diff.length} chars: summarised below>`
  let rest = ''
  for (const limits of LIMIT_LEVELS) {
    rest = renderCompact(obj, limits, budget)
    if (rest.length <= budget / 3) break
  }
  const summary = summarizeDiff(diff, budget - rest.length - 1)
  return summary === undefined ? undefined : `${rest}\n${summary}`
}
