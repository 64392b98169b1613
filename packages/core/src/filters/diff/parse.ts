/**
 * A one-pass parser for unified diffs, `git show` and `git log -p` output. It records offsets
 * only (no copies of the text) and never throws on odd input: unknown lines are skipped.
 */

/** One hunk: its text is `text.slice(start, end)` (from the `@@` line, with its last `\n`). */
export interface Hunk {
  start: number
  end: number
  added: number
  deleted: number
}

/** One changed file. */
export interface DiffFile {
  /** New path (old path for a deletion). */
  path: string
  /** Old path, when renamed or copied. */
  from?: string | undefined
  status: 'modified' | 'added' | 'deleted' | 'renamed' | 'copied'
  binary: boolean
  /** `similarity index` of a rename or copy, in percent. */
  similarity?: number | undefined
  /** Offsets of the file's header lines (`diff --git` .. `+++`). */
  headerStart: number
  headerEnd: number
  hunks: Hunk[]
  added: number
  deleted: number
}

/** A commit (`git show`, `git log -p`) or, for a plain diff, a group without header. */
export interface DiffCommit {
  /** Offsets of the commit header (`commit`, `Author:`, `Date:`, the message). Empty for a plain diff. */
  headerStart: number
  headerEnd: number
  files: DiffFile[]
}

const isHex = (s: string): boolean => {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false
  }
  return s.length >= 7 && s.length <= 64
}

/** `commit <sha>` (optionally followed by refs). */
function isCommitLine(line: string): boolean {
  if (!line.startsWith('commit ')) return false
  const sp = line.indexOf(' ', 7)
  return isHex(line.slice(7, sp === -1 ? line.length : sp))
}

/** Strips quotes, the `a/` `b/` prefix and a trailing tab + timestamp from a diff path. */
function cleanPath(raw: string): string {
  let p = raw
  const tab = p.indexOf('\t')
  if (tab !== -1) p = p.slice(0, tab)
  if (p.length >= 2 && p.startsWith('"') && p.endsWith('"')) {
    try {
      p = JSON.parse(p) as string
    } catch {
      p = p.slice(1, -1)
    }
  }
  return p.startsWith('a/') || p.startsWith('b/') ? p.slice(2) : p
}

/** The two paths of `diff --git a/x b/y` (split at the last ` b/`, which is right for all but paths holding ` b/`). */
function gitPaths(line: string): { a: string; b: string } {
  const rest = line.slice('diff --git '.length)
  const q = rest.startsWith('"') ? rest.indexOf('" ', 1) : -1
  const cut = q !== -1 ? q + 1 : rest.lastIndexOf(' b/')
  if (cut <= 0) return { a: cleanPath(rest), b: cleanPath(rest) }
  return { a: cleanPath(rest.slice(0, cut)), b: cleanPath(rest.slice(cut + 1)) }
}

/** `@@ -a,b +c,d @@` -> old and new line counts (a missing count is 1), or `undefined`. */
export function hunkCounts(line: string): { old: number; new: number } | undefined {
  if (!line.startsWith('@@ -')) return undefined
  const end = line.indexOf(' @@', 4)
  if (end === -1) return undefined
  const parts = line.slice(4, end).split(' +')
  if (parts.length !== 2) return undefined
  const count = (range: string): number => {
    const comma = range.indexOf(',')
    const n = comma === -1 ? 1 : Number(range.slice(comma + 1))
    return Number.isFinite(n) && n >= 0 ? n : NaN
  }
  const o = count(parts[0]!)
  const n = count(parts[1]!)
  return Number.isNaN(o) || Number.isNaN(n) ? undefined : { old: o, new: n }
}

/** Parses `text` into commits and files. */
export function parseDiff(text: string): DiffCommit[] {
  const commits: DiffCommit[] = []
  let commit: DiffCommit | undefined
  let file: DiffFile | undefined
  let hunk: Hunk | undefined
  let oldLeft = 0
  let newLeft = 0
  let inHeader = false // between `diff --git` and the first hunk
  const newFile = (path: string, start: number): DiffFile => {
    if (commit === undefined) {
      commit = { headerStart: start, headerEnd: start, files: [] }
      commits.push(commit)
    }
    const f: DiffFile = { path, status: 'modified', binary: false, headerStart: start, headerEnd: start, hunks: [], added: 0, deleted: 0 }
    commit.files.push(f)
    return f
  }
  let pos = 0
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos)
    const next = nl === -1 ? text.length : nl + 1
    let line = text.slice(pos, nl === -1 ? text.length : nl)
    if (line.endsWith('\r')) line = line.slice(0, -1)
    if (hunk !== undefined && (oldLeft > 0 || newLeft > 0)) {
      const c = line.charCodeAt(0)
      if (c === 43 /* + */) {
        newLeft--
        hunk.added++
      } else if (c === 45 /* - */) {
        oldLeft--
        hunk.deleted++
      } else if (c === 32 || line === '') {
        oldLeft--
        newLeft--
      } else if (c !== 92 /* \ No newline */) {
        oldLeft = newLeft = 0 // a malformed hunk ends here; judge this line below
      }
      if (oldLeft > 0 || newLeft > 0 || c === 43 || c === 45 || c === 32 || line === '' || c === 92) {
        hunk.end = next
        pos = next
        continue
      }
    }
    if (hunk !== undefined && line.startsWith('\\')) {
      hunk.end = next
      pos = next
      continue
    }
    hunk = undefined
    if (isCommitLine(line)) {
      commit = { headerStart: pos, headerEnd: next, files: [] }
      commits.push(commit)
      file = undefined
      inHeader = false
    } else if (line.startsWith('diff --git ')) {
      const { a, b } = gitPaths(line)
      file = newFile(b, pos)
      if (a !== b) file.from = a
      file.headerEnd = next
      inHeader = true
    } else if (line.startsWith('--- ') && (inHeader || text.startsWith('+++ ', next))) {
      if (!inHeader) file = newFile(cleanPath(line.slice(4)), pos)
      const oldPath = cleanPath(line.slice(4))
      if (oldPath === '/dev/null' && file !== undefined) file.status = 'added'
      if (file !== undefined) file.headerEnd = next
    } else if (line.startsWith('+++ ') && file !== undefined && (inHeader || file.hunks.length === 0)) {
      const newPath = cleanPath(line.slice(4))
      if (newPath === '/dev/null') file.status = 'deleted'
      else if (file.status !== 'renamed' && file.status !== 'copied') file.path = newPath
      file.headerEnd = next
      inHeader = true
    } else if (line.startsWith('@@ ') && file !== undefined) {
      const counts = hunkCounts(line)
      if (counts !== undefined) {
        hunk = { start: pos, end: next, added: 0, deleted: 0 }
        file.hunks.push(hunk)
        oldLeft = counts.old
        newLeft = counts.new
        inHeader = false
      }
    } else if (file !== undefined && inHeader) {
      if (line.startsWith('new file mode')) file.status = 'added'
      else if (line.startsWith('deleted file mode')) file.status = 'deleted'
      else if (line.startsWith('rename from ')) {
        file.status = 'renamed'
        file.from = line.slice(12)
      } else if (line.startsWith('rename to ')) file.path = line.slice(10)
      else if (line.startsWith('copy from ')) {
        file.status = 'copied'
        file.from = line.slice(10)
      } else if (line.startsWith('copy to ')) file.path = line.slice(8)
      else if (line.startsWith('similarity index ')) file.similarity = Number.parseInt(line.slice(17), 10)
      else if (line.startsWith('Binary files ') || line.startsWith('GIT binary patch')) file.binary = true
      file.headerEnd = next
    } else if (commit !== undefined && commit.files.length === 0 && commit.headerEnd === pos) {
      commit.headerEnd = next // the commit message
    }
    pos = next
  }
  for (const c of commits) {
    for (const f of c.files) {
      for (const h of f.hunks) {
        f.added += h.added
        f.deleted += h.deleted
      }
      if (f.status === 'deleted' && f.from !== undefined && f.path !== f.from) f.path = f.from
      if (f.status === 'modified' && f.from !== undefined && f.from !== f.path) f.status = 'renamed'
    }
  }
  return commits.filter((c) => c.files.length > 0 || c.headerEnd > c.headerStart)
}
