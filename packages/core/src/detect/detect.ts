import type { ContentKind } from '../trim/types.js'

const SAMPLE = 4096

const DIFF_START = /^(?:diff --git |commit [0-9a-f]{7,40}\b|From [0-9a-f]{40} |--- \S|Index: \S)/
const HUNK = /^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@/m
const ARIA_LINE = /^\s*- (?:link|button|generic|heading|paragraph|text|img|list|listitem|navigation|banner|main|contentinfo|textbox|checkbox|combobox|region|article|table|rowgroup|row|cell|columnheader|group|option|menu|menuitem|tab|tablist|dialog|searchbox|separator|figure|code|strong|emphasis|blockquote|document|complementary|form|radio|term|definition|time|iframe|\/url)\b/
const LOG_LINE = /^(?:\[?\d{2,4}[-/.]\d{2}[-/.]\d{2}[ T]\d{2}:\d{2}|\[?(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE|FATAL|NOTICE)\]?\b|\w{3} [ \d]\d \d{2}:\d{2}:\d{2}|\d{6} \d{6}|\d{2}\/\d{2}\/\d{2} \d{2}:|- \d{10} |\[[\d.]+\]|\d+[.:]\d+ )/
const SEARCH_LINE = /^(?:\.{0,2}\/)?[\w@~.+-][^\s:]*:\d+:/

/**
 * Detects what a tool result is from a sample of its first 4 KB (plus its last char).
 * Cheap, linear in the sample only, deterministic.
 */
export function detectKind(text: string): ContentKind {
  if (text.length === 0) return 'text'
  const sample = text.length > SAMPLE ? text.slice(0, SAMPLE) : text
  let control = 0
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i)
    if (c === 0) return 'binary'
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 27 && c !== 12) || c === 0xfffd) control++
  }
  if (control > sample.length * 0.1) return 'binary'
  const trimmed = sample.trimStart()
  const first = trimmed[0]
  if (first === '{' || first === '[') {
    const end = text.trimEnd()
    const lastChar = end[end.length - 1]
    if ((first === '{' && lastChar === '}') || (first === '[' && lastChar === ']')) {
      // `[INFO] ...` log lines also start with `[`: JSON needs a quote, digit, brace or `]` next.
      const second = trimmed.slice(1).trimStart()[0]
      if (first === '{' || second === undefined || '"{[]-0123456789tfn'.includes(second)) return 'json'
    }
  }
  if (/^\s*<(?:!doctype html|html|head|body)\b/i.test(trimmed)) return 'html'
  if (DIFF_START.test(trimmed) && HUNK.test(sample)) return 'diff'
  if (HUNK.test(sample) && /^\+\+\+ /m.test(sample)) return 'diff'
  const lines = sample.split('\n', 60)
  if (lines.length > 1 && sample.length === SAMPLE) lines.pop() // last line may be partial
  let aria = 0
  let search = 0
  let log = 0
  let nonEmpty = 0
  for (const line of lines) {
    if (line.trim() === '') continue
    nonEmpty++
    if (ARIA_LINE.test(line)) aria++
    if (SEARCH_LINE.test(line)) search++
    if (LOG_LINE.test(line)) log++
  }
  if (nonEmpty === 0) return 'text'
  if (aria >= nonEmpty * 0.6 || /^- (?:Page Snapshot|generic|document|banner)\b.*:?$/m.test(trimmed.slice(0, 200)) && aria >= nonEmpty * 0.3) return 'aria'
  if (search >= nonEmpty * 0.6) return 'search'
  if (log >= nonEmpty * 0.3) return 'log'
  if (/<\/?(?:div|span|p|a|table|script)\b[^>]*>/i.test(sample) && (sample.match(/</g)?.length ?? 0) > 20) return 'html'
  return 'text'
}
