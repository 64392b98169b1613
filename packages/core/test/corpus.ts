// Test helper: reads the labelled CI logs of ../shared/corpus (never copied into the repo).
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const CORPUS = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../shared/corpus')
export const hasCorpus = existsSync(join(CORPUS, 'README.md'))

export interface LabelledLog {
  name: string
  text: string
  /** Lines labelled as the failure, as they appear in the log. */
  failureLines: string[]
}

/** cidiff logs with their `E a-b` ground-truth lines, and LogChunks logs with their failure reason. */
export function labelledCiLogs(): LabelledLog[] {
  const logs: LabelledLog[] = []
  const cidiff = join(CORPUS, 'ci-logs/cidiff')
  for (const name of readdirSync(cidiff).sort()) {
    const dir = join(cidiff, name)
    if (!statSync(dir).isDirectory()) continue
    const text = readFileSync(join(dir, 'fail.log'), 'utf8')
    const lines = text.split(/\r\n|\r|\n/) // the labels count lines the way Java's readLine does
    const failureLines: string[] = []
    for (const row of readFileSync(join(dir, 'groundtruth'), 'utf8').split('\n').slice(1)) {
      const m = /^E (\d+)(?:-(\d+))?$/.exec(row.trim())
      if (m === null) continue
      for (let i = Number(m[1]); i <= Number(m[2] ?? m[1]); i++) if (lines[i - 1] !== undefined) failureLines.push(lines[i - 1]!)
    }
    logs.push({ name: `cidiff/${name}`, text, failureLines })
  }
  const lc = join(CORPUS, 'ci-logs/travis-logchunks')
  for (const row of readFileSync(join(lc, 'labels.jsonl'), 'utf8').trim().split('\n')) {
    const label = JSON.parse(row) as { file: string; failure_reason: string }
    logs.push({ name: `logchunks/${label.file}`, text: readFileSync(join(lc, label.file), 'utf8'), failureLines: label.failure_reason.split('\n') })
  }
  return logs
}

const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g

/**
 * Share of a log's labelled failure lines visible in an excerpt: each non-blank line (ANSI codes
 * removed, trimmed, its first 200 chars when longer) must appear as a substring.
 */
export function retention(excerpt: string, failureLines: string[]): number | undefined {
  const wanted = failureLines.map((l) => l.replace(ANSI, '').trim().slice(0, 200)).filter((l) => l !== '')
  if (wanted.length === 0) return undefined
  const shown = excerpt.replace(ANSI, '')
  return wanted.filter((l) => shown.includes(l)).length / wanted.length
}
