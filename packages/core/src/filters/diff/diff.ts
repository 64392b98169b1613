import { clipLine } from '../../trim/text.js'
import { parseDiff, type DiffCommit, type DiffFile } from './parse.js'

/** Options of {@link summarizeDiff}. */
export interface DiffSummaryOptions {
  /**
   * Most lines of each commit header (`commit`, `Author:`, `Date:`, message) kept, 1..1000.
   * @default 12
   */
  headerLines: number
  /**
   * Longest kept hunk line, in chars (40..100000); longer lines are cut with a count.
   * @default 300
   */
  maxLineChars: number
}

/** Defaults of {@link DiffSummaryOptions}. */
export const DEFAULT_DIFF_SUMMARY: Readonly<DiffSummaryOptions> = Object.freeze({ headerLines: 12, maxLineChars: 300 })

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`

/** `path (2 hunks, +5/-3)`, with the status, rename source and binary flag when they apply. */
export function describeFile(f: DiffFile): string {
  const notes: string[] = []
  if (f.status === 'added') notes.push('new file')
  if (f.status === 'deleted') notes.push('deleted')
  if (f.status === 'renamed' || f.status === 'copied') notes.push(`${f.status}${f.similarity !== undefined ? ` ${f.similarity}%` : ''}`)
  if (f.binary) notes.push('binary')
  if (f.hunks.length > 0) notes.push(plural(f.hunks.length, 'hunk'), `+${f.added}/-${f.deleted}`)
  const name = f.from !== undefined && f.from !== f.path && (f.status === 'renamed' || f.status === 'copied') ? `${f.from} -> ${f.path}` : f.path
  return notes.length > 0 ? `${name} (${notes.join(', ')})` : name
}

/** `path +5/-3`: the short form used when the full list does not fit. */
const shortFile = (f: DiffFile): string => `${f.path}${f.binary ? ' (binary)' : ''} +${f.added}/-${f.deleted}`

/** Files grouped by directory: `dir/: a.js +1/-0, b.js +2/-2`, the leanest form that still names each file. */
function groupedFiles(files: readonly DiffFile[]): string[] {
  const dirs = new Map<string, string[]>()
  for (const f of files) {
    const slash = f.path.lastIndexOf('/')
    const dir = slash === -1 ? '' : f.path.slice(0, slash + 1)
    const entry = `${f.path.slice(slash + 1)}${f.binary ? ' (binary)' : ''} +${f.added}/-${f.deleted}`
    const list = dirs.get(dir)
    if (list === undefined) dirs.set(dir, [entry])
    else list.push(entry)
  }
  return [...dirs].map(([dir, entries]) => `${dir === '' ? './' : dir}: ${entries.join(', ')}`)
}

/** The file list of one commit in the richest form that fits `max` chars. */
function fileList(files: readonly DiffFile[], max: number): string {
  const totals = files.reduce((t, f) => ({ a: t.a + f.added, d: t.d + f.deleted }), { a: 0, d: 0 })
  const title = `${plural(files.length, 'file')} changed, +${totals.a}/-${totals.d}:`
  for (const form of [(fs: readonly DiffFile[]) => fs.map(describeFile), (fs: readonly DiffFile[]) => fs.map(shortFile), groupedFiles]) {
    const lines = form(files)
    const text = [title, ...lines].join('\n')
    if (text.length <= max) return text
  }
  // Still too long: as many grouped lines as fit, then a count.
  const lines = groupedFiles(files)
  const out = [title]
  let used = title.length
  let shown = 0
  for (const l of lines) {
    const clipped = clipLine(l, Math.max(40, max - used - 40))
    if (used + clipped.length + 1 + 40 > max) break
    out.push(clipped)
    used += clipped.length + 1
    shown++
  }
  out.push(`[... ${lines.length - shown} more directories not listed ...]`)
  return out.join('\n')
}

/** The commit header, at most `lines` lines. */
function header(text: string, c: DiffCommit, lines: number, maxLine: number): string {
  let end = c.headerEnd
  while (end > c.headerStart && (text.charCodeAt(end - 1) === 10 || text.charCodeAt(end - 1) === 13)) end--
  const raw = text.slice(c.headerStart, end).split('\n')
  const kept = raw.slice(0, lines).map((l) => clipLine(l, maxLine))
  if (raw.length > lines) kept.push(`[... ${raw.length - lines} more message lines ...]`)
  return kept.join('\n')
}

/**
 * A unified diff, `git show` or `git log -p` output as: each commit header, every changed file
 * named with its hunks and +/- counts (`path (2 hunks, +5/-3)`; renames, new, deleted and binary
 * files said so), then whole hunks in order while the budget allows, and a count of the hunks
 * left out. Returns `undefined` when `text` holds no diff.
 *
 * @example
 * ```ts
 * summarizeDiff(gitShowOutput, 4000)
 * // commit 5d10ee4e...
 * // Author: ...
 * // 2 files changed, +2/-2:
 * // examples/chat/views/chat.haml.html (1 hunk, +1/-2)
 * // examples/chat/views/partials/message.haml.html (new file, 1 hunk, +1/-0)
 * // ...whole hunks...
 * ```
 */
export function summarizeDiff(text: string, budget: number, options: Partial<DiffSummaryOptions> = {}): string | undefined {
  const opts = { ...DEFAULT_DIFF_SUMMARY, ...options }
  const headerLines = Math.min(1000, Math.max(1, Math.floor(opts.headerLines)))
  const maxLine = Math.min(100_000, Math.max(40, Math.floor(opts.maxLineChars)))
  const commits = parseDiff(text)
  const files = commits.flatMap((c) => c.files)
  if (files.length === 0) return undefined
  const withFiles = commits.filter((c) => c.files.length > 0)
  // Summary first: every file named, within 85% of the budget shared by the commits.
  const summary: string[] = []
  const perCommit = Math.floor((budget * 0.85) / Math.max(1, withFiles.length))
  for (const c of commits) {
    const parts: string[] = []
    if (c.headerEnd > c.headerStart) parts.push(header(text, c, c.files.length > 0 ? headerLines : 1, Math.min(maxLine, 200)))
    if (c.files.length > 0) parts.push(fileList(c.files, Math.max(80, perCommit - (parts[0]?.length ?? 0))))
    summary.push(parts.join('\n\n'))
  }
  let out = summary.join('\n\n')
  const totalHunks = files.reduce((n, f) => n + f.hunks.length, 0)
  // Then whole hunks, in order, while they fit (a hunk that does not fit is skipped, a later smaller one may).
  const closing = (left: number, chars: number): string => `[... spillway: ${left} of ${totalHunks} hunks not shown (${chars} chars) ...]`
  const reserve = closing(totalHunks, text.length).length + 2
  const pieces: string[] = []
  let used = out.length + 2
  let shown = 0
  let leftChars = 0
  for (const f of files) {
    let fileHead: string | undefined = `--- ${f.path}`
    for (const h of f.hunks) {
      const body = text
        .slice(h.start, h.end)
        .replace(/\n$/, '')
        .split('\n')
        .map((l) => clipLine(l, maxLine))
        .join('\n')
      const cost = body.length + 1 + (fileHead !== undefined ? fileHead.length + 1 : 0)
      if (used + cost + reserve > budget) {
        leftChars += h.end - h.start
        continue
      }
      if (fileHead !== undefined) pieces.push(fileHead)
      fileHead = undefined
      pieces.push(body)
      used += cost
      shown++
    }
  }
  if (pieces.length > 0) out += `\n\n${pieces.join('\n')}`
  if (shown < totalHunks) out += `\n${closing(totalHunks - shown, leftChars)}`
  return out
}
