import type { Profile } from './types.js'

// Exact dedup and blank-run collapse keep line order and map kept lines back to their original
// numbers, so they may run on over-budget logs: on the labelled CI logs at 8,000 chars they keep
// retention (terminal 90.46% -> 90.56%). Near-duplicate dedup stays opt-in (90.06%).
// A GitHub Actions job's post-steps at the log's end become one line (`ci-epilogue`, issue 16):
// the tail then shows the lines before them (shared corpus 94.8 -> 95.1% at 8k, devextra 84.0 ->
// 84.4%).
const MERGE_RUNS = ['ci-epilogue', 'dedup-exact', 'dedup-cycles', 'blank']

/** Chars a shell command's output line is shown with at most in an excerpt's middle (the `terminal` profile's `maxLineChars`). */
export const TERMINAL_LINE_CHARS = 240

const BASE: Omit<Profile, 'name'> = {
  exempt: false,
  head: 0.25,
  tail: 0.3,
  salient: true,
  contextBefore: 1,
  contextAfter: 4,
  maxLineChars: 400,
  lossless: [],
  filters: [],
  disabledFilters: [],
}

/** The built-in profiles. Override any field with `TrimOptions.profiles`. */
export const DEFAULT_PROFILES: Readonly<Record<string, Profile>> = Object.freeze({
  default: { ...BASE, name: 'default', filters: MERGE_RUNS },
  // Commands put their verdict at the end: keep most of the tail.
  // Measured on the labelled CI logs: a small head (setup noise), a quarter for the tail, the rest
  // for error lines with 2 lines before and 5 after each (a sweep of 96 settings, issue 16: shared
  // corpus at 8k 95.1 -> 95.8%, leave-one-source-out 95.1 -> 95.4%, devextra 84.6 -> 85.0%; from
  // head 0.1, tail 0.3, 1 before, 6 after).
  // A long line shows its first 240 chars (with a `… [+N chars]` note; the whole line stays one
  // fetch_result away): a runner's verdict, a test's name and its message come first on a line,
  // and where salient lines overflow the budget, the chars of one 400-char line show another
  // failure instead (issue 16, round 5, at 8k: devextra's first 27 logs 91.8% -> 93.0%, shared
  // corpus 93.79% -> 93.82%; 200 lost labelled lines on both, 300 gained half as much).
  terminal: { ...BASE, name: 'terminal', head: 0.05, tail: 0.25, contextBefore: 2, contextAfter: 5, maxLineChars: TERMINAL_LINE_CHARS, filters: MERGE_RUNS },
  // Files are read top-down: keep most of the head.
  read_file: { ...BASE, name: 'read_file', head: 0.6, tail: 0.15 },
  search: { ...BASE, name: 'search', head: 0.4, tail: 0.3 },
  web: { ...BASE, name: 'web', head: 0.6, tail: 0.1 },
  exempt: { ...BASE, name: 'exempt', exempt: true },
})

/**
 * Which built-in profile a tool name maps to. Keys are lower-case tool names; tools not listed
 * use `default`. Matching also tries the part after the last `__` or `.` (MCP prefixes such as
 * `mcp__github__search_code`).
 */
export const DEFAULT_TOOL_PROFILES: Readonly<Record<string, string>> = Object.freeze({
  terminal: 'terminal', bash: 'terminal', shell: 'terminal', sh: 'terminal', exec: 'terminal',
  run_command: 'terminal', execute_command: 'terminal', run_terminal_cmd: 'terminal', execute_code: 'terminal',
  process: 'terminal',
  read_file: 'read_file', read: 'read_file', cat: 'read_file', view: 'read_file', open_file: 'read_file',
  read_text_file: 'read_file', get_file_contents: 'read_file',
  search_files: 'search', grep: 'search', rg: 'search', search: 'search', glob: 'search', search_code: 'search',
  find_files: 'search',
  web_extract: 'web', web_search: 'web', web_fetch: 'web', fetch: 'web', browser_navigate: 'web',
  browser_snapshot: 'web', browser_get_content: 'web',
  memory: 'exempt', todo: 'exempt', todo_write: 'exempt', clarify: 'exempt', fetch_result: 'exempt',
  tool_search: 'exempt', tool_describe: 'exempt',
})

function baseProfileName(tool: string | undefined): string {
  if (tool === undefined || tool === '') return 'default'
  const lower = tool.toLowerCase()
  const direct = DEFAULT_TOOL_PROFILES[lower]
  if (direct !== undefined) return direct
  const cut = Math.max(lower.lastIndexOf('__'), lower.lastIndexOf('.'))
  if (cut >= 0) {
    const short = DEFAULT_TOOL_PROFILES[lower.slice(cut + (lower[cut] === '.' ? 1 : 2))]
    if (short !== undefined) return short
  }
  return 'default'
}

const clamp = (v: unknown, lo: number, hi: number, fallback: number): number =>
  typeof v === 'number' && Number.isFinite(v) ? Math.min(hi, Math.max(lo, v)) : fallback

/**
 * The profile for `tool`: the built-in profile it maps to, then overrides keyed by that profile's
 * name, then overrides keyed by the exact tool name. Out-of-range numbers are clamped.
 */
export function resolveProfile(tool: string | undefined, overrides?: Record<string, Partial<Profile>>): Profile {
  let name = baseProfileName(tool)
  // An override may name a profile for an unknown tool: `{ my_tool: { name: 'terminal' } }`.
  const byTool = tool !== undefined && overrides !== undefined && Object.hasOwn(overrides, tool) ? overrides[tool] : undefined
  if (byTool?.name !== undefined && Object.hasOwn(DEFAULT_PROFILES, byTool.name)) name = byTool.name
  const base = DEFAULT_PROFILES[name] ?? DEFAULT_PROFILES['default']!
  const byProfile = overrides !== undefined && Object.hasOwn(overrides, name) ? overrides[name] : undefined
  const merged: Profile = { ...base, ...byProfile, ...byTool, name: base.name }
  const head = clamp(merged.head, 0, 1, base.head)
  const tail = clamp(merged.tail, 0, 1 - head, Math.min(base.tail, 1 - head))
  return {
    ...merged,
    exempt: merged.exempt === true,
    salient: merged.salient !== false,
    head,
    tail,
    contextBefore: Math.floor(clamp(merged.contextBefore, 0, 10, base.contextBefore)),
    contextAfter: Math.floor(clamp(merged.contextAfter, 0, 10, base.contextAfter)),
    maxLineChars: Math.floor(clamp(merged.maxLineChars, 40, 1e6, base.maxLineChars)),
    lossless: Array.isArray(merged.lossless) ? merged.lossless.filter((x) => typeof x === 'string') : [],
    filters: Array.isArray(merged.filters) ? merged.filters.filter((x) => typeof x === 'string') : [],
    disabledFilters: Array.isArray(merged.disabledFilters) ? merged.disabledFilters.filter((x) => typeof x === 'string') : [],
  }
}
