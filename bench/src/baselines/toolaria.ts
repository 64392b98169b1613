// Toolaria (Sahil-SS9/Toolaria, excerpt.py `build_excerpt` + config.yaml defaults; README in
// seeds/toolaria-readme.txt): results over the threshold become `[text excerpt]` + the first 40
// lines + the last 15 lines + up to 10 "error lines" (anchor lines matching error / fail /
// exception / fatal / warn, case-insensitive, each cut at 500 chars). Results of at most 55 lines
// keep their first `excerpt_max_chars` (8000) chars. JSON gets a `[JSON excerpt - array[N]]`
// header with the first 5 and last 2 items pretty-printed. The threshold is the budget here, and
// the excerpt is capped at the budget.
import { capToBudget, splitLines, type TrimMethod } from './types.js'

const HEAD_LINES = 40
const TAIL_LINES = 15
const JSON_HEAD = 5
const JSON_TAIL = 2
const EXCERPT_MAX_CHARS = 8000
const ERROR_LINE = /error|fail|exception|fatal|warn/i

function errorLines(lines: readonly string[]): string[] {
  const out: string[] = []
  for (const l of lines) {
    if (ERROR_LINE.test(l)) out.push(l.slice(0, 500))
    if (out.length >= 10) break
  }
  return out
}

function jsonExcerpt(obj: unknown, lines: readonly string[]): string | undefined {
  if (obj === null || typeof obj !== 'object') return undefined
  const entries = Array.isArray(obj) ? undefined : Object.entries(obj)
  const n = Array.isArray(obj) ? obj.length : entries!.length
  const desc = Array.isArray(obj) ? `array[${n}]` : `object, ${n} keys`
  const head = Array.isArray(obj) ? obj.slice(0, JSON_HEAD) : Object.fromEntries(entries!.slice(0, JSON_HEAD))
  const tail = Array.isArray(obj) ? obj.slice(-JSON_TAIL) : Object.fromEntries(entries!.slice(-JSON_TAIL))
  const parts = [`[JSON excerpt — ${desc}]`, '--- head ---', JSON.stringify(head, null, 2)]
  if (n > JSON_HEAD + JSON_TAIL) parts.push('--- tail ---', JSON.stringify(tail, null, 2))
  const errs = errorLines(lines)
  if (errs.length > 0) parts.push('--- error lines ---', ...errs)
  return parts.join('\n')
}

/** Toolaria's excerpt, capped at the budget. */
export const toolaria: TrimMethod = {
  id: 'toolaria',
  label: 'Toolaria 40/15 + anchors',
  source: 'Sahil-SS9/Toolaria excerpt.py build_excerpt + config.yaml (toolaria-readme.txt)',
  budgetNative: false,
  run(text, { budget }) {
    if (text.length <= budget) return text
    const lines = splitLines(text)
    const first = text.trimStart()[0]
    if (first === '{' || first === '[') {
      try {
        const out = jsonExcerpt(JSON.parse(text), lines)
        if (out !== undefined) return capToBudget(out, budget)
      } catch {
        // not JSON: text excerpt below
      }
    }
    const parts = ['[text excerpt]']
    if (lines.length <= HEAD_LINES + TAIL_LINES) parts.push(text.slice(0, EXCERPT_MAX_CHARS))
    else parts.push('--- head ---', lines.slice(0, HEAD_LINES).join('\n'), '--- tail ---', lines.slice(-TAIL_LINES).join('\n'))
    const errs = errorLines(lines)
    if (errs.length > 0) parts.push('--- error lines ---', ...errs)
    return capToBudget(parts.join('\n'), budget)
  },
}
