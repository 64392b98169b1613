import type { FilterDef } from '../types.js'
import { summarizeDiff } from './diff.js'
import { summarizeDiffInJson } from './json-diff.js'

export { DEFAULT_DIFF_SUMMARY, describeFile, summarizeDiff, type DiffSummaryOptions } from './diff.js'
export { summarizeDiffInJson } from './json-diff.js'
export { hunkCounts, parseDiff, type DiffCommit, type DiffFile, type Hunk } from './parse.js'

/** Commit header + every changed file with hunk and +/- counts + whole hunks while the budget allows. */
export const diffFilter: FilterDef = {
  name: 'diff',
  kinds: ['diff'],
  lossless: false,
  preservesLines: false,
  run: (text, ctx) => summarizeDiff(text, ctx.budget),
}

/** The same for a diff inside a JSON result (`write_file` / `patch`): other fields kept, the diff summarised. */
export const jsonDiffFilter: FilterDef = {
  name: 'diff',
  kinds: ['json'],
  lossless: false,
  preservesLines: false,
  run: (text, ctx) => summarizeDiffInJson(text, ctx.budget),
}
