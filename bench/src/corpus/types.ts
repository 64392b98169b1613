import type { ToolDescriptor } from '@spillway/core'

/** The content kinds the trimming suite reports on (one per corpus folder kind). */
export type CaseKind = 'ci-log' | 'system-log' | 'json' | 'diff' | 'grep' | 'aria'

/** Every kind, in report order. */
export const CASE_KINDS: readonly CaseKind[] = ['ci-log', 'system-log', 'json', 'diff', 'grep', 'aria']

/**
 * The tool name each kind is trimmed as, so spillway picks the matching profile: build and system
 * logs come from a shell (`terminal`), `git show` too, API bodies from a fetch (`web_fetch`),
 * searches from `grep`, snapshots from `browser_snapshot`.
 */
export const TOOL_FOR_KIND: Readonly<Record<CaseKind, string>> = {
  'ci-log': 'terminal',
  'system-log': 'terminal',
  json: 'web_fetch',
  diff: 'terminal',
  grep: 'grep',
  aria: 'browser_snapshot',
}

/** One tool result of the corpus with what is known about it. */
export interface TrimCase {
  kind: CaseKind
  /** Path relative to the corpus root (or a synthetic name). */
  name: string
  text: string
  /** Labelled lines that an excerpt should keep (CI failure lines, BGL alerts, error-level lines). */
  labelled?: string[]
  /** Which label set `labelled` comes from (`cidiff`, `logchunks`, `bgl-alert`, `level`). */
  labelSource?: string
  /** File paths a diff touches, or a search output names. */
  files?: string[]
  /** Facts of a JSON body's shape (see `jsonShapeFacts`). */
  jsonFacts?: JsonFact[]
}

/** One checkable fact of a JSON shape: a top-level key, or an array and its length. */
export type JsonFact = { type: 'key'; key: string } | { type: 'length'; path: string; length: number }

/** A tool catalog with labelled queries. */
export interface RetrievalSet {
  name: string
  tools: ToolDescriptor[]
  /**
   * Extra text per tool name: the string fields of tools.json beyond name / description /
   * parameters (a plugin's long model-facing description, an API's tool and category...).
   */
  extra: Record<string, string>
  queries: Array<{ query: string; relevant: string[] }>
}

/** What the bench runs on. */
export interface Corpus {
  /** `dir` for a folder on disk, `synthetic` for the generated one. */
  source: 'dir' | 'synthetic'
  /** Absolute folder, for `dir`. */
  dir?: string
  cases: TrimCase[]
  retrieval: RetrievalSet[]
  /** Human notes: skipped kinds, counts. */
  notes: string[]
}
