// The held-out CI logs of bench/heldout/ (see its README.md): public, permissively licensed build
// and test logs of projects, build systems and languages the development corpus does not have,
// with hand-checked failure lines in cidiff's groundtruth format. Never used to write rules: only
// to measure them. Each case has the shape the trimming suite uses for labelled CI logs.
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { fileURLToPath } from 'node:url'
import { retention, splitJavaLines, stripAnsi } from '../metrics/retention.js'
import { cidiffLabelled, walk } from './load.js'
import type { TrimCase } from './types.js'

/** bench/heldout/, next to this package's src/. */
export const DEFAULT_HELDOUT_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../heldout')

/**
 * bench/devextra/: a second development set in the same layout (logs, groundtruth, MANIFEST.tsv,
 * labels.spec.json), of runners the shared corpus lacks. Unlike the held-out set, rules may be
 * written against it; it is loaded and checked with the same functions (`dir` argument).
 */
export const DEFAULT_DEVEXTRA_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../devextra')

/** The `labelSource` of every held-out case (whole-line labels, matched as cidiff's are). */
export const HELDOUT_LABEL_SOURCE = 'heldout'

/** The parse-mode first lines of cidiff groundtruth files. */
const CIDIFF_MODES: ReadonlySet<string> = new Set(['DEFAULT', 'RAW_GITHUB', 'FULL_GITHUB', 'GITHUB'])

/** One row of bench/heldout/MANIFEST.tsv (the columns named in its header). */
export type HeldoutManifestRow = Record<string, string>

/**
 * Each log's file: gzip-compressed (`gzip -9 -n`), so the repository holds no multi-MB text file;
 * {@link readHeldoutLog} gives the log's bytes as the source repository has them.
 */
export const HELDOUT_LOG_FILE = 'fail.log.gz'

/** The bytes of one held-out log, decompressed. */
export function readHeldoutLog(dir: string, id: string): Buffer {
  return gunzipSync(readFileSync(join(dir, 'logs', id, HELDOUT_LOG_FILE)))
}

/** Case ids: the folders under `<dir>/logs` that hold a log file, sorted. */
export function heldoutIds(dir: string = DEFAULT_HELDOUT_DIR): string[] {
  const logs = join(dir, 'logs')
  if (!existsSync(logs)) return []
  return readdirSync(logs)
    .filter((id) => statSync(join(logs, id)).isDirectory() && existsSync(join(logs, id, HELDOUT_LOG_FILE)))
    .sort()
}

/** MANIFEST.tsv rows keyed by their `id` column (empty when the file is missing). */
export function heldoutManifest(dir: string = DEFAULT_HELDOUT_DIR): Map<string, HeldoutManifestRow> {
  const p = join(dir, 'MANIFEST.tsv')
  const out = new Map<string, HeldoutManifestRow>()
  if (!existsSync(p)) return out
  const [header, ...rows] = readFileSync(p, 'utf8').split('\n').filter((l) => l.trim() !== '')
  const cols = (header ?? '').split('\t')
  for (const row of rows) {
    const cells = row.split('\t')
    const rec: HeldoutManifestRow = {}
    cols.forEach((c, i) => (rec[c] = cells[i] ?? ''))
    if (rec['id'] !== undefined && rec['id'] !== '') out.set(rec['id'], rec)
  }
  return out
}

/**
 * The held-out logs as trimming cases: kind `ci-log`, name `<set>/<id>` (`set`: the folder's name,
 * `heldout` or `devextra`), the log text as committed, `labelled` = the log lines its
 * groundtruth's `E` rows name (cidiff semantics, via `cidiffLabelled`), `labelSource`
 * {@link HELDOUT_LABEL_SOURCE}. A log without a groundtruth file is an error: an unlabelled
 * held-out log would silently drop out of the retention mean.
 */
export function loadHeldout(dir: string = DEFAULT_HELDOUT_DIR): TrimCase[] {
  const set = basename(resolve(dir))
  return heldoutIds(dir).map((id) => {
    const base = join(dir, 'logs', id)
    const gt = join(base, 'groundtruth')
    if (!existsSync(gt)) throw new Error(`held-out case ${id} has no groundtruth file (${gt})`)
    const text = readHeldoutLog(dir, id).toString('utf8')
    return { kind: 'ci-log', name: `${set}/${id}`, text, labelled: cidiffLabelled(text, readFileSync(gt, 'utf8')), labelSource: HELDOUT_LABEL_SOURCE }
  })
}

/**
 * Everything wrong with the held-out labels, as sentences (empty when all is well): a groundtruth
 * without its mode line, a row that is neither `E a[-b]` nor `C n`, a line number outside the log,
 * a row whose lines are all blank (blank lines inside a block are allowed: the retention rule
 * ignores them, as it does in the dev corpus's cidiff labels), a case whose labels the untrimmed log itself does not keep in
 * full under the bench's retention rule (a label that is not found), a case missing from
 * MANIFEST.tsv, or a manifest row without its log.
 */
export function checkHeldout(dir: string = DEFAULT_HELDOUT_DIR): string[] {
  const problems: string[] = []
  const ids = heldoutIds(dir)
  const manifest = heldoutManifest(dir)
  if (ids.length === 0) problems.push(`no held-out logs under ${join(dir, 'logs')}`)
  for (const id of ids) {
    const base = join(dir, 'logs', id)
    const gtPath = join(base, 'groundtruth')
    if (!manifest.has(id)) problems.push(`${id}: no row in MANIFEST.tsv`)
    if (!existsSync(gtPath)) {
      problems.push(`${id}: no groundtruth file`)
      continue
    }
    const text = readHeldoutLog(dir, id).toString('utf8')
    const lines = splitJavaLines(text)
    const [mode, ...rows] = readFileSync(gtPath, 'utf8').split('\n')
    if (!CIDIFF_MODES.has(mode?.trim() ?? '')) problems.push(`${id}: groundtruth must start with a parse mode line (${[...CIDIFF_MODES].join(', ')})`)
    let count = 0
    for (const row of rows) {
      if (row.trim() === '') continue
      const m = /^([EC]) (\d+)(?:-(\d+))?$/.exec(row.trim())
      if (m === null) {
        problems.push(`${id}: groundtruth row "${row}" is not "E a-b" or "C n"`)
        continue
      }
      const a = Number(m[2]), b = Number(m[3] ?? m[2])
      if (a < 1 || b > lines.length || a > b) problems.push(`${id}: row "${row}" is outside the log's ${lines.length} lines`)
      if (m[1] !== 'E') continue
      let shown = 0
      for (let i = a; i <= Math.min(b, lines.length); i++) if (stripAnsi(lines[i - 1] ?? '').trim() !== '') shown++
      // Blank lines inside a labelled block are ignored by the retention rule; a row of only blank lines labels nothing.
      if (shown === 0 && b <= lines.length) problems.push(`${id}: labelled line${a === b ? ` ${a} is` : `s ${a}-${b} are`} blank`)
      count += shown
    }
    if (count === 0) problems.push(`${id}: no non-blank labelled (E) lines`)
    const labelled = cidiffLabelled(text, readFileSync(gtPath, 'utf8'))
    const whole = retention(text, labelled)
    if (whole !== 1) problems.push(`${id}: the untrimmed log keeps ${whole === undefined ? 'no' : `${(whole * 100).toFixed(1)}% of its`} labelled lines (a label not found in its log)`)
  }
  for (const id of manifest.keys()) if (!ids.includes(id)) problems.push(`${id}: in MANIFEST.tsv but logs/${id}/${HELDOUT_LOG_FILE} is missing`)
  return problems
}

/** Licences a held-out log may come under (SPDX ids as MANIFEST.tsv writes them). */
export const PERMISSIVE_LICENSES: ReadonlySet<string> = new Set(['MIT', 'Apache-2.0', 'BSD-2-Clause', 'BSD-3-Clause', 'ISC', 'CC0-1.0', 'CC-BY-4.0'])

/**
 * `source_repo` of a log made in this repository: real runner output of test code written for the
 * set, whose sources and commands are in the set's folder at `source_path` (`gen/<project>`).
 */
export const GENERATED_SOURCE = 'generated'

/**
 * Rows of MANIFEST.tsv whose licence is not in {@link PERMISSIVE_LICENSES} or that lack a licence
 * URL at a pinned commit. Where `generated` is allowed (a development set, never the held-out
 * one), a {@link GENERATED_SOURCE} row instead names its sources' folder in the set, `gen/<name>`
 * with a README.md (the commands that printed the log).
 */
export function checkLicenses(dir: string = DEFAULT_HELDOUT_DIR, { generated = false }: { generated?: boolean } = {}): string[] {
  const problems: string[] = []
  for (const [id, row] of heldoutManifest(dir)) {
    if (!PERMISSIVE_LICENSES.has(row['license'] ?? '')) problems.push(`${id}: licence "${row['license'] ?? ''}" is not one of ${[...PERMISSIVE_LICENSES].join(', ')}`)
    if (row['source_repo'] === GENERATED_SOURCE) {
      const path = row['source_path'] ?? ''
      if (!generated) problems.push(`${id}: a generated log has no place in this set`)
      else if (!/^gen\/[\w-][\w.-]*$/.test(path) || !existsSync(join(dir, path, 'README.md'))) problems.push(`${id}: a generated log's source_path must be its sources' folder gen/<name> in the set, with a README.md`)
      continue
    }
    if (!/^https:\/\/github\.com\/[^/]+\/[^/]+\/blob\/[0-9a-f]{40}\//.test(row['license_url'] ?? '')) problems.push(`${id}: licence_url must point at the licence file at a pinned commit`)
    if (!/^[0-9a-f]{40}$/.test(row['source_commit'] ?? '')) problems.push(`${id}: source_commit must be a full commit id`)
  }
  return problems
}

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex')

/**
 * Held-out logs that are byte-for-byte a file of the development corpus (`devDir`, e.g.
 * ../shared/corpus): none may be, since the corpus must not be copied into the repository and a
 * held-out log the rules were tuned on would measure nothing.
 */
export function checkNotInDevCorpus(devDir: string, dir: string = DEFAULT_HELDOUT_DIR): string[] {
  const dev = new Map<string, string>()
  for (const p of walk(devDir, () => true)) dev.set(sha256(readFileSync(p)), p)
  return heldoutIds(dir).flatMap((id) => {
    const hit = dev.get(sha256(readHeldoutLog(dir, id)))
    return hit === undefined ? [] : [`${id}: identical to the development corpus file ${hit}`]
  })
}
