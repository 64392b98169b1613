// The second development set (this folder): the same checks as the held-out set, with the same
// functions (bench/src/corpus/heldout.ts, `dir` argument): every label is a non-blank line its log
// keeps, every log has a manifest row under a permissive licence, groundtruth and MANIFEST.tsv are
// what labels.spec.json says, no log is a development-corpus file or a held-out log.
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { createHash } from 'node:crypto'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { DEFAULT_DEVEXTRA_DIR, DEFAULT_HELDOUT_DIR, GENERATED_SOURCE, HELDOUT_LOG_FILE, checkHeldout, checkLicenses, checkNotInDevCorpus, heldoutIds, heldoutManifest, loadHeldout, readHeldoutLog } from '../src/corpus/heldout.js'
import { retention } from '../src/metrics/retention.js'

const here = dirname(fileURLToPath(import.meta.url))
const DEV_CORPUS = resolve(here, '../../../shared/corpus')

describe('second development set (bench/devextra)', () => {
  it('loads from this folder', () => {
    expect(resolve(DEFAULT_DEVEXTRA_DIR)).toBe(resolve(here))
  })

  it('has no broken label, manifest row or licence', () => {
    expect(checkHeldout(here)).toEqual([])
    expect(checkLicenses(here, { generated: true })).toEqual([])
  })

  it('gives labelled ci-log cases named devextra/<id> whose every label the untrimmed log keeps', () => {
    const cases = loadHeldout(here)
    expect(cases.length).toBeGreaterThanOrEqual(10)
    expect(cases.length).toBe(heldoutManifest(here).size)
    for (const c of cases) {
      expect(c.name.startsWith('devextra/')).toBe(true)
      expect(retention(c.text, c.labelled!)).toBe(1)
      expect(retention(c.text.split('\n').slice(0, 1).join('\n'), c.labelled!) ?? 0).toBeLessThan(1)
    }
  })

  it('keeps groundtruth and MANIFEST.tsv in step with labels.spec.json', () => {
    execFileSync(process.execPath, [join(here, '../heldout/label.mjs'), '--dir', here, '--check'], { stdio: 'pipe' })
  })

  it('has no file over 1 MB in the repository', () => {
    for (const id of heldoutIds(here)) expect(statSync(join(here, 'logs', id, HELDOUT_LOG_FILE)).size).toBeLessThan(1024 * 1024)
  })

  it('shares no log with the held-out set', () => {
    const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex')
    const held = new Set(heldoutIds(DEFAULT_HELDOUT_DIR).map((id) => sha(readHeldoutLog(DEFAULT_HELDOUT_DIR, id))))
    for (const id of heldoutIds(here)) expect(held.has(sha(readHeldoutLog(here, id))), id).toBe(false)
  })
})

describe.skipIf(!existsSync(DEV_CORPUS))('second development set vs the shared corpus', () => {
  it('holds no file of the shared corpus', () => {
    expect(checkNotInDevCorpus(DEV_CORPUS, here)).toEqual([])
  })
})

describe('generated logs (gen/)', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'spillway-devextra-'))
  afterAll(() => rmSync(tmp, { recursive: true, force: true }))
  const manifest = readFileSync(join(here, 'MANIFEST.tsv'), 'utf8').split('\n')
  const cols = manifest[0]!.split('\t')
  const generated = manifest.slice(1).filter((l) => l.split('\t')[cols.indexOf('source_repo')] === GENERATED_SOURCE)

  it('name the folder in gen/ that holds their sources and commands', () => {
    expect(generated.length).toBeGreaterThan(0)
    for (const row of generated) {
      const path = row.split('\t')[cols.indexOf('source_path')]!
      expect(path).toMatch(/^gen\/[\w.-]+$/)
      expect(existsSync(join(here, path, 'README.md')), path).toBe(true)
    }
  })

  it('are reported when their sources are missing', () => {
    const row = generated[0]!
    const id = row.split('\t')[0]!
    cpSync(join(here, 'logs', id), join(tmp, 'logs', id), { recursive: true })
    writeFileSync(join(tmp, 'MANIFEST.tsv'), `${manifest[0]}\n${row}\n`)
    expect(checkLicenses(tmp, { generated: true }).join('\n')).toMatch(/source_path must be its sources' folder/)
    const path = row.split('\t')[cols.indexOf('source_path')]!
    cpSync(join(here, path), join(tmp, path), { recursive: true })
    expect(checkLicenses(tmp, { generated: true })).toEqual([])
    // (never in the held-out set, whose check is the default)
    expect(checkLicenses(tmp).join('\n')).toMatch(/a generated log has no place in this set/)
    // (nor a path out of gen/, even where it leads to a README.md)
    writeFileSync(join(tmp, 'README.md'), '')
    const cells = row.split('\t')
    cells[cols.indexOf('source_path')] = 'gen/..'
    writeFileSync(join(tmp, 'MANIFEST.tsv'), `${manifest[0]}\n${cells.join('\t')}\n`)
    expect(checkLicenses(tmp, { generated: true }).join('\n')).toMatch(/source_path must be/)
  })
})
