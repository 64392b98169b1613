// Reads a corpus folder laid out like ../shared/corpus (see its README.md). Every kind is found by
// folder and file pattern, never by file name; missing kinds are skipped with a note.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import type { ToolDescriptor } from '@spillway/core'
import { splitJavaLines } from '../metrics/retention.js'
import { diffFiles, grepFiles, jsonShapeFacts } from '../metrics/structure.js'
import { parseCsv } from './csv.js'
import type { Corpus, RetrievalSet, TrimCase } from './types.js'

const isDir = (p: string): boolean => existsSync(p) && statSync(p).isDirectory()
const read = (p: string): string => readFileSync(p, 'utf8')

/** Files under `dir` (recursive, sorted) whose name passes `keep`. */
export function walk(dir: string, keep: (name: string) => boolean): string[] {
  if (!isDir(dir)) return []
  const out: string[] = []
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) out.push(...walk(p, keep))
    else if (keep(name)) out.push(p)
  }
  return out
}

/** `E a-b` rows of a cidiff groundtruth file (first row is the parse mode) -> labelled lines. */
export function cidiffLabelled(log: string, groundtruth: string): string[] {
  const lines = splitJavaLines(log)
  const out: string[] = []
  for (const row of groundtruth.split('\n').slice(1)) {
    const m = /^E (\d+)(?:-(\d+))?$/.exec(row.trim())
    if (m === null) continue
    for (let i = Number(m[1]); i <= Number(m[2] ?? m[1]); i++) {
      const l = lines[i - 1]
      if (l !== undefined) out.push(l)
    }
  }
  return out
}

function ciLogs(root: string): TrimCase[] {
  const cases: TrimCase[] = []
  const base = join(root, 'ci-logs')
  for (const gt of walk(base, (n) => n === 'groundtruth')) {
    const log = join(gt, '..', 'fail.log')
    if (!existsSync(log)) continue
    const text = read(log)
    cases.push({ kind: 'ci-log', name: relative(root, log), text, labelled: cidiffLabelled(text, read(gt)), labelSource: 'cidiff' })
  }
  for (const labels of walk(base, (n) => n === 'labels.jsonl')) {
    const dir = join(labels, '..')
    for (const row of read(labels).split('\n')) {
      if (row.trim() === '') continue
      const label = JSON.parse(row) as { file?: string; failure_reason?: string }
      if (typeof label.file !== 'string' || typeof label.failure_reason !== 'string') continue
      const p = join(dir, label.file)
      if (!existsSync(p)) continue
      cases.push({ kind: 'ci-log', name: relative(root, p), text: read(p), labelled: label.failure_reason.split('\n'), labelSource: 'logchunks' })
    }
  }
  return cases
}

const ERROR_LEVELS = new Set(['error', 'err', 'e', 'fatal', 'f', 'severe', 'crit', 'critical', 'alert', 'emerg', 'failure'])

/**
 * Loghub 2k samples: `<Sys>_2k.log` + `<Sys>_2k.log_structured.csv` (row i = raw line i). With a
 * `Label` column (BGL) the labelled lines are the alerts (label other than `-`); else, with a
 * `Level` column, the error-level lines (ERROR, FATAL, E, ...).
 */
function systemLogs(root: string): TrimCase[] {
  const cases: TrimCase[] = []
  for (const log of walk(join(root, 'logs'), (n) => n.endsWith('.log'))) {
    const text = read(log)
    const csvPath = `${log}_structured.csv`
    const c: TrimCase = { kind: 'system-log', name: relative(root, log), text }
    if (existsSync(csvPath)) {
      const [header, ...rows] = parseCsv(read(csvPath))
      const labelCol = header?.indexOf('Label') ?? -1
      const levelCol = header?.indexOf('Level') ?? -1
      const idCol = header?.indexOf('LineId') ?? -1
      const raw = text.split('\n')
      const pick = (test: (row: string[]) => boolean): string[] =>
        rows.filter(test).map((r, i) => raw[(idCol >= 0 ? Number(r[idCol]) : i + 1) - 1] ?? '').filter((l) => l !== '')
      if (labelCol >= 0) {
        c.labelled = pick((r) => (r[labelCol] ?? '-') !== '-')
        c.labelSource = 'bgl-alert'
      } else if (levelCol >= 0) {
        c.labelled = pick((r) => ERROR_LEVELS.has((r[levelCol] ?? '').toLowerCase()))
        c.labelSource = 'error-level'
      }
      if (c.labelled?.length === 0) {
        delete c.labelled
        delete c.labelSource
      }
    }
    cases.push(c)
  }
  return cases
}

function simpleKind(root: string, folder: string, keep: (n: string) => boolean, kind: TrimCase['kind']): TrimCase[] {
  return walk(join(root, folder), keep).map((p) => {
    const text = read(p)
    const c: TrimCase = { kind, name: relative(root, p), text }
    if (kind === 'json') c.jsonFacts = jsonShapeFacts(text)
    if (kind === 'diff') c.files = diffFiles(text)
    if (kind === 'grep') c.files = grepFiles(text)
    return c
  })
}

/** Every `tools.json` + `queries.jsonl` pair under `retrieval/`. */
function retrievalSets(root: string): RetrievalSet[] {
  const sets: RetrievalSet[] = []
  for (const toolsPath of walk(join(root, 'retrieval'), (n) => n === 'tools.json')) {
    const dir = join(toolsPath, '..')
    const qPath = join(dir, 'queries.jsonl')
    if (!existsSync(qPath)) continue
    const raw = JSON.parse(read(toolsPath)) as Array<Record<string, unknown>>
    const extra: Record<string, string> = {}
    const tools: ToolDescriptor[] = raw.map((t) => {
      const d: ToolDescriptor = { name: String(t['name']) }
      const more = Object.entries(t).filter(([k, v]) => k !== 'name' && k !== 'description' && typeof v === 'string').map(([, v]) => v as string)
      if (more.length > 0) extra[d.name] = more.join(' ')
      if (typeof t['description'] === 'string') d.description = t['description']
      if (t['parameters'] !== undefined) d.parameters = t['parameters']
      return d
    })
    const queries = read(qPath)
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as { query: string; relevant: string[] })
      .map(({ query, relevant }) => ({ query, relevant }))
    sets.push({ name: relative(join(root, 'retrieval'), dir), tools, extra, queries })
  }
  return sets
}

/** Loads a corpus folder. Kinds it lacks are listed in `notes`. */
export function loadCorpus(root: string): Corpus {
  const notes: string[] = []
  const groups: Array<[string, TrimCase[]]> = [
    ['ci-logs (ci-log)', ciLogs(root)],
    ['logs (system-log)', systemLogs(root)],
    ['json', simpleKind(root, 'json', (n) => n.endsWith('.json'), 'json')],
    ['diffs (diff)', simpleKind(root, 'diffs', (n) => n.endsWith('.diff') || n.endsWith('.patch'), 'diff')],
    ['grep', simpleKind(root, 'grep', (n) => n.endsWith('.txt'), 'grep')],
    ['aria', simpleKind(root, 'aria', (n) => n.endsWith('.snapshot.yml') || n.endsWith('.aria.yml'), 'aria')],
  ]
  const cases: TrimCase[] = []
  for (const [what, list] of groups) {
    if (list.length === 0) notes.push(`no ${what} files found: kind skipped`)
    cases.push(...list)
  }
  const retrieval = retrievalSets(root)
  if (retrieval.length === 0) notes.push('no retrieval/*/tools.json + queries.jsonl found: retrieval skipped')
  return { source: 'dir', dir: root, cases, retrieval, notes }
}
