import type { ContentKind } from '../trim/types.js'

const SAMPLE = 4096

const DIFF_START = /^(?:diff --git |commit [0-9a-f]{7,40}\b|From [0-9a-f]{40} |--- \S|Index: \S)/
const HUNK = /^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@/m
const ARIA_LINE = /^\s*- (?:link|button|generic|heading|paragraph|text|img|list|listitem|navigation|banner|main|contentinfo|textbox|checkbox|combobox|region|article|table|rowgroup|row|cell|columnheader|group|option|menu|menuitem|tab|tablist|dialog|searchbox|separator|figure|code|strong|emphasis|blockquote|document|complementary|form|radio|term|definition|time|iframe|\/url)\b/
const LOG_LINE = /^(?:\[?\d{2,4}[-/.]\d{2}[-/.]\d{2}[ T]\d{2}:\d{2}|\[?(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE|FATAL|NOTICE)\]?\b|\w{3} [ \d]\d \d{2}:\d{2}:\d{2}|\d{6} \d{6}|\d{2}\/\d{2}\/\d{2} \d{2}:|- \d{10} |\[[\d.]+\]|\d+[.:]\d+ )/
// The path must hold `.` or `/`: a timestamp (`2022-05-30T09:10:31Z`) is not a path.
const SEARCH_LINE = /^(?:\.{0,2}\/)?[\w@~+-]*[./][^\s:]*:\d+:/
// grep -C context lines (`path-12-text`), -c counts (`path:12`), --heading line numbers, -l paths.
const SEARCH_COUNT = /^(?:\.{0,2}\/)?[\w@~+-]*[./][^\s:]*:\d+$/
const NUMBERED = /^\d+(?::|-(?!\d))/
/** `path-12-text` (grep -C context) with a path holding `/` or `.`: a hand-written scan, linear. */
function isContextLine(line: string): boolean {
  let dotOrSlash = false
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i)
    if (c === 32 || c === 9 || c === 58) return false
    if (c === 46 || c === 47) dotOrSlash = true
    if (c === 45 && dotOrSlash && i > 0) {
      let j = i + 1
      while (j < line.length && line.charCodeAt(j) >= 48 && line.charCodeAt(j) <= 57) j++
      if (j > i + 1 && line.charCodeAt(j) === 45) return true
    }
  }
  return false
}
// Compiler and linter diagnostics (`a.c:3:5: error:`, tsc `a.ts:12:5 - error TS2322:`, mypy
// `a.py:12: error:`, ruff `a.py:1:8: F401`) and Go `log` lines with a file prefix (`main.go:42: msg`:
// gofmt'd source starts its lines with a tab, so a space after `.go:N:` is a log, not a grep hit).
// They look like `path:line:text`, but they are a command's output: never summarized as a search.
const DIAGNOSTIC = /^[^\s:]+:\d+(?::\d+)?(?::? (?:- )?(?:fatal error|error|warning|note)\b|: [A-Z]{1,4}\d{3,4}\b)|^[^\s:]+\.go:\d+: /
// Lines only a command's output has: make / ninja failures, a shell prompt, exit codes, Go
// panics, compiler and test-runner verdicts.
const COMMAND_LINE = /^(?:make(?:\[\d+\])?: \*\*\*|ninja: build stopped|\$ \S|exit (?:code|status)\b|Exit code:? \d|panic: |fatal error: |goroutine \d+ \[|Found \d+ errors?\b|error(?:\[E\d+\])?: |--- FAIL|FAIL\b|Traceback \(most recent call last\))/i
// A letter somewhere: `3.14` or `1.2.3` is a number, not a path.
const PATH_ONLY = /^(?=[^\s:]*[A-Za-z])(?:\.{0,2}\/)?[\w@~.+-][^\s:]*[/.][^\s:]*$/

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
  // git show of a binary-only change or a pure rename: no hunk, but `diff --git` and its headers.
  if (DIFF_START.test(trimmed) && /^diff --git /m.test(sample) && /^(?:Binary files |GIT binary patch|rename from |new file mode |deleted file mode )/m.test(sample)) return 'diff'
  const lines = sample.split('\n', 60)
  if (lines.length > 1 && sample.length === SAMPLE) lines.pop() // last line may be partial
  let aria = 0
  let search = 0
  let numbered = 0
  let paths = 0
  let log = 0
  let nonEmpty = 0
  let command = 0
  for (const line of lines) {
    if (line.trim() === '') continue
    nonEmpty++
    if (ARIA_LINE.test(line)) aria++
    if (SEARCH_LINE.test(line) || line === '--' || SEARCH_COUNT.test(line) || isContextLine(line)) search++
    else if (NUMBERED.test(line)) numbered++
    else if (PATH_ONLY.test(line)) paths++
    if (LOG_LINE.test(line)) log++
    if (DIAGNOSTIC.test(line) || COMMAND_LINE.test(line)) command++
  }
  if (nonEmpty === 0) return 'text'
  if (aria >= nonEmpty * 0.6 || /^- (?:Page Snapshot|generic|document|banner)\b.*:?$/m.test(trimmed.slice(0, 200)) && aria >= nonEmpty * 0.3) return 'aria'
  // One compiler diagnostic, `make: ***` or panic line makes it a command's output, not a search.
  if (command === 0) {
    if (search >= nonEmpty * 0.6) return 'search'
    // rg --heading: path lines, each followed by `12:text` lines; grep -l / find: only paths
    if (paths > 0 && log < nonEmpty * 0.3 && numbered >= nonEmpty * 0.3 && paths + numbered + search >= nonEmpty * 0.9) return 'search'
    if (nonEmpty >= 3 && paths >= nonEmpty * 0.9) return 'search'
  } else if (search >= nonEmpty * 0.6) return 'log'
  if (log >= nonEmpty * 0.3) return 'log'
  if (/<\/?(?:div|span|p|a|table|script)\b[^>]*>/i.test(sample) && (sample.match(/</g)?.length ?? 0) > 20) return 'html'
  return 'text'
}
