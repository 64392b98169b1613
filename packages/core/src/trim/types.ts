/** What a tool result looks like, found by {@link detectKind} in one cheap pass. */
export type ContentKind = 'text' | 'log' | 'json' | 'diff' | 'search' | 'aria' | 'html' | 'binary'

/** A size in three units. `tokens` comes from the tokenizer option (default: an estimate). */
export interface Size {
  chars: number
  lines: number
  tokens: number
}

/**
 * Lines `start`..`end` (1-based, inclusive) of the original result that the excerpt leaves out,
 * wholly or in part; `chars` is how many characters of them are missing.
 */
export interface LineRange {
  start: number
  end: number
  chars: number
}

/** How one tool's results are trimmed. Every field can be overridden per tool or per profile. */
export interface Profile {
  /** Name of the profile (`default`, `terminal`, `read_file`, `search`, `web`, `exempt`). */
  name: string
  /** Never trim this tool's results (memory, todo, clarify, the fetch tool itself). @default false */
  exempt: boolean
  /** Share of the budget for the first lines, 0..1. */
  head: number
  /** Share of the budget for the last lines, 0..1. What head and tail leave goes to salient lines. */
  tail: number
  /** Look for salient lines (errors, failures, tracebacks...) between head and tail. @default true */
  salient: boolean
  /** Lines of context kept before (`contextBefore`, default 1) and after (`contextAfter`, default 4) each salient line, 0..10. */
  contextBefore: number
  contextAfter: number
  /** A kept middle line longer than this is cut, with the count of chars left out. @default 400 (the `terminal` profile: 240) */
  maxLineChars: number
  /**
   * Lossless filters (`ansi`, `blank`, `dedup-exact`) that run even when the result fits the
   * budget. Off by default so that results under budget come back byte-identical.
   * @default []
   */
  lossless: string[]
  /**
   * Opt-in filters (`dedup`, `dedup-exact`, `dedup-cycles`, `blank`, `ci-epilogue`) this profile
   * runs on over-budget results of the kinds they handle. `dedup-exact`, `dedup-cycles` (a block
   * of lines repeated right after itself, a recursion's frames, kept once with a line that counts
   * its repeats), `blank` and `ci-epilogue` (a GitHub Actions job's post-steps at the end, merged
   * into one line that counts them) map every kept line back to its original line number; `dedup`
   * (near duplicates) does not, so with it the excerpt's numbers are lost and, on the labelled CI
   * logs, retention drops.
   * @default ['ci-epilogue', 'dedup-exact', 'dedup-cycles', 'blank'] for `default` and `terminal`, else []
   */
  filters: string[]
  /** Filters this profile may never use (by name). @default [] */
  disabledFilters: string[]
}

/** Options of {@link trimResult}. */
export interface TrimOptions {
  /** Name of the tool that produced the result; picks the profile. */
  tool?: string
  /** The tool call's arguments (used by filters that read them, e.g. a grep pattern). */
  args?: unknown
  /**
   * What the call was made for, when the host has it: e.g. the user's last message. Its
   * distinctive words (see `requestTerms`) raise the lines that hold them, as the arguments'
   * terms do. Deterministic: the same text gives the same excerpt.
   */
  focus?: string
  /** Hard budget for `text`, in UTF-16 code units (JavaScript string length). */
  maxChars?: number
  /**
   * Budget for `text` in tokens, beside `maxChars` (both hold when both are given). With a
   * `tokenizer`, exact: the excerpt is re-fitted until `tokenizer(text) <= maxTokens`. Without
   * one, an estimate: `maxChars` becomes at most `maxTokens * DEFAULT_CHARS_PER_TOKEN` (3).
   * For o200k: `import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'` (an optional
   * peer dependency; core never imports it) and pass `tokenizer: countTokens`.
   */
  maxTokens?: number
  /** Model context window in tokens; used to derive `maxChars` when that is absent. */
  contextWindow?: number
  /** Overrides, keyed by tool name or by profile name (`terminal`, `read_file`, ...). */
  profiles?: Record<string, Partial<Profile>>
  /** Token counter for the reported sizes and for `maxTokens`. @default {@link estimateTokens} */
  tokenizer?: (text: string) => number
}

/** What {@link trimResult} returns. */
export interface TrimOutcome {
  /** Exactly what the model sees. `text.length <= maxChars` always. */
  text: string
  /** False when `text` is the input, byte for byte. */
  changed: boolean
  kind: ContentKind
  /** Names of the filters and steps that changed the text, in order (`json`, `dedup`, `fit`, ...). */
  applied: string[]
  /** Name of the profile used. */
  profile: string
  /** The budget that was applied, in chars (with `maxTokens`, the one the last fit used). */
  maxChars: number
  /** The token budget, when `maxTokens` was given. */
  maxTokens?: number
  /**
   * Size of the input. `chars` and `tokens` are always the raw result's; `lines` counts the lines
   * of the {@link TrimOutcome.view | view} when there is one.
   */
  original: Size
  kept: Size
  /**
   * Lines of the original (of its view when {@link TrimOutcome.view | view} is set) left out, in
   * order. Empty when nothing was omitted. Line-exact when {@link TrimOutcome.omittedExact} is
   * true; else one coarse range (see there).
   */
  omitted: LineRange[]
  /**
   * True when `omitted` names exactly the lines left out: the excerpt is the original's lines
   * (numbered `N: ` in the middle), or runs merged by exact dedup / blank-run collapse (each
   * shown with its count, numbered with its first line), or the terminal filter's fit of the
   * `output` field. False after a structural filter (aria, diff, search, json, events,
   * near-duplicate dedup), which rewrites lines into summaries: then `omitted` is one range,
   * from the first to the last line of the original not shown verbatim at the excerpt's top or
   * bottom; every line it may have dropped is inside it, some may be restated in the summary,
   * and its `chars` is the range's chars in the original (an upper bound of what is missing).
   */
  omittedExact: boolean
  /**
   * 1-based line numbers of the salient lines found in the original (kept or not), ascending;
   * lines of the view when {@link TrimOutcome.view | view} is set.
   */
  salient: number[]
  /**
   * Set when the result is JSON around the real text (an MCP `{"result": "..."}` envelope, a
   * terminal result `{"output": "...", "exit_code": 1}`, a JSON string): the JSON path of that
   * text, as `lineView` returns it (e.g. `['output']`, `['result']`, `['(string)', 'output']`).
   * Then `salient`, `omitted` and `original.lines` count lines of that text, the lines the
   * excerpt numbers (`3000: FAILED ...`) and the ones `fetch_result` `range` / `grep` read.
   */
  view?: string[]
}
