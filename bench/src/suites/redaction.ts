// Redaction suite: fake credentials in the issuers' real formats, planted into corpus results,
// must all be caught (recall); the untouched corpus must come out unchanged (false positives per
// line); and the pass is timed against one newline scan of the same text.
import { redactSecrets } from '@spillway/core'
import { createRng, type Rng } from '../corpus/prng.js'
import type { TrimCase } from '../corpus/types.js'
import { newlineScan } from './speed.js'

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
const UPPER_NUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'
const URLSAFE = `${ALNUM}_-`
const HEX = '0123456789abcdef'
const B64 = `${ALNUM}+/`

const chars = (rng: Rng, set: string, n: number): string => Array.from({ length: n }, () => set[rng.int(0, set.length - 1)]).join('')

/** One generator per credential format: the secret text, and the kind the marker must name. */
const FORMATS: ReadonlyArray<{ kind: string; make: (r: Rng) => string }> = [
  { kind: 'aws-access-key', make: (r) => `${r.pick(['AKIA', 'ASIA'])}${chars(r, UPPER_NUM, 16)}` },
  { kind: 'github-token', make: (r) => `${r.pick(['ghp', 'gho', 'ghs', 'ghu'])}_${chars(r, ALNUM, 36)}` },
  { kind: 'github-token', make: (r) => `github_pat_${chars(r, ALNUM, 22)}_${chars(r, ALNUM, 59)}` },
  { kind: 'gitlab-token', make: (r) => `glpat-${chars(r, URLSAFE, 20)}` },
  { kind: 'slack-token', make: (r) => `xoxb-${chars(r, '0123456789', 12)}-${chars(r, '0123456789', 13)}-${chars(r, ALNUM, 24)}` },
  { kind: 'anthropic-key', make: (r) => `sk-ant-api03-${chars(r, URLSAFE, 93)}AA` },
  { kind: 'openai-key', make: (r) => `sk-proj-${chars(r, URLSAFE, 58)}T3BlbkFJ${chars(r, URLSAFE, 58)}` },
  { kind: 'openai-key', make: (r) => `sk-${chars(r, ALNUM, 48)}` },
  { kind: 'google-api-key', make: (r) => `AIza${chars(r, URLSAFE, 35)}` },
  { kind: 'stripe-key', make: (r) => `${r.pick(['sk', 'rk'])}_live_${chars(r, ALNUM, 24)}` },
  { kind: 'npm-token', make: (r) => `npm_${chars(r, ALNUM, 36)}` },
  { kind: 'huggingface-token', make: (r) => `hf_${chars(r, ALNUM, 34)}` },
  { kind: 'sendgrid-key', make: (r) => `SG.${chars(r, URLSAFE, 22)}.${chars(r, URLSAFE, 43)}` },
  { kind: 'digitalocean-token', make: (r) => `dop_v1_${chars(r, HEX, 64)}` },
  { kind: 'jwt', make: (r) => `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ${chars(r, URLSAFE, 40)}.${chars(r, URLSAFE, 43)}` },
]

/** How a secret appears in a line: an env dump, a config read, a header, a URL, a JSON body. */
const CONTEXTS: ReadonlyArray<(secret: string, r: Rng) => string> = [
  (s) => `export API_TOKEN=${s}`,
  (s) => `  "token": "${s}",`,
  (s) => `Using credentials ${s} for upload`,
  (s) => `curl -H "Authorization: Bearer ${s}" https://api.example.com/v1`,
  (s, r) => `[${r.int(10, 23)}:${r.int(10, 59)}:${r.int(10, 59)}] config loaded: key=${s}`,
]

/** Secrets that are not a token format: they are caught by their context (assignment, URL, header, key block). */
const CONTEXT_SECRETS: ReadonlyArray<{ kind: string; make: (r: Rng) => { line: string; secret: string } }> = [
  { kind: 'assignment', make: (r) => { const s = `${chars(r, ALNUM, 10)}!${chars(r, ALNUM, 4)}`; return { line: `DB_PASSWORD=${s}`, secret: s } } },
  { kind: 'assignment', make: (r) => { const s = chars(r, HEX, 32); return { line: `  "client_secret": "${s}"`, secret: s } } },
  { kind: 'url-password', make: (r) => { const s = chars(r, ALNUM, 16); return { line: `connecting to postgres://app:${s}@db.internal:5432/prod`, secret: s } } },
  { kind: 'auth-header', make: (r) => { const s = chars(r, B64, 28); return { line: `> Authorization: Basic ${s}`, secret: s } } },
  {
    kind: 'private-key',
    make: (r) => {
      const body = Array.from({ length: 6 }, () => chars(r, B64, 64)).join('\n')
      return { line: `-----BEGIN RSA PRIVATE KEY-----\n${body}\n-----END RSA PRIVATE KEY-----`, secret: body.slice(0, 64) }
    },
  },
]

export interface RedactionResult {
  /** Planted secrets, and how many no longer appear in the redacted text with the right marker. */
  planted: number
  caught: number
  /** caught / planted. */
  recall: number
  /** Per kind: planted and caught. */
  byKind: Record<string, { planted: number; caught: number }>
  /** Clean corpus lines, and how many redaction changed (false positives). */
  cleanLines: number
  touchedLines: number
  falsePositiveRate: number
  /** Up to 10 clean lines it changed, to read. */
  touchedExamples: string[]
  /** Median ms of redactSecrets on ~10 MB of corpus text, and of one indexOf('\n') scan of it. */
  msPer10MB: number
  scanMsPer10MB: number
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

/** Runs the redaction suite over `cases` (their text is both the clean set and the planting ground). */
export function runRedaction(cases: readonly TrimCase[], progress: (line: string) => void = () => {}): RedactionResult {
  const rng = createRng(0x5ec7e75)
  // False positives: every line of the untouched corpus.
  let cleanLines = 0
  let touchedLines = 0
  const touchedExamples: string[] = []
  for (const c of cases) {
    const lines = c.text.split('\n')
    cleanLines += lines.length
    const out = redactSecrets(c.text)
    if (out.count === 0) continue
    const after = out.text.split('\n')
    for (let i = 0; i < lines.length; i++) {
      if (after[i] === lines[i]) continue
      touchedLines++
      if (touchedExamples.length < 10) touchedExamples.push(`${c.name}:${i + 1}: ${lines[i]!.slice(0, 160)}`)
    }
  }
  progress(`redaction: ${touchedLines} of ${cleanLines} clean lines touched`)

  // Recall: 20 planted secrets per format and context secret kind, each in a corpus result.
  const byKind: Record<string, { planted: number; caught: number }> = {}
  const hosts = cases.filter((c) => c.kind === 'ci-log' || c.kind === 'system-log' || c.kind === 'json')
  let planted = 0
  let caught = 0
  const plant = (kind: string, line: string, secret: string): void => {
    const host = hosts.length > 0 ? rng.pick(hosts).text : 'line one\nline two\n'
    const lines = host.split('\n')
    const at = rng.int(0, lines.length)
    lines.splice(at, 0, line)
    const out = redactSecrets(lines.join('\n'))
    const ok = !out.text.includes(secret) && out.text.includes(`[REDACTED:${kind}]`)
    const k = (byKind[kind] ??= { planted: 0, caught: 0 })
    k.planted++
    planted++
    if (ok) (k.caught++, caught++)
  }
  for (const f of FORMATS) {
    for (let i = 0; i < 20; i++) {
      const secret = f.make(rng)
      plant(f.kind, rng.pick(CONTEXTS)(secret, rng), secret)
    }
  }
  for (const f of CONTEXT_SECRETS) {
    for (let i = 0; i < 20; i++) {
      const { line, secret } = f.make(rng)
      plant(f.kind, line, secret)
    }
  }
  progress(`redaction: ${caught} of ${planted} planted secrets caught`)

  // Speed on ~10 MB of real logs, against one newline scan of the same string.
  const logs = cases.filter((c) => c.kind === 'ci-log' || c.kind === 'system-log').map((c) => c.text)
  let big = ''
  for (let i = 0; big.length < 10_000_000 && logs.length > 0; i++) big += `${logs[i % logs.length]}\n`
  const runs: number[] = []
  const scans: number[] = []
  for (let r = 0; r < 5 && big.length > 0; r++) {
    let t = performance.now()
    redactSecrets(big)
    runs.push(performance.now() - t)
    t = performance.now()
    newlineScan(big)
    scans.push(performance.now() - t)
  }
  const scale = big.length > 0 ? 10_000_000 / big.length : 0
  return {
    planted,
    caught,
    recall: planted === 0 ? 0 : caught / planted,
    byKind,
    cleanLines,
    touchedLines,
    falsePositiveRate: cleanLines === 0 ? 0 : touchedLines / cleanLines,
    touchedExamples,
    msPer10MB: runs.length ? median(runs) * scale : 0,
    scanMsPer10MB: scans.length ? median(scans) * scale : 0,
  }
}

/** The suite's section of report.md. */
export function redactionMarkdown(r: RedactionResult): string {
  const pct = (x: number, d = 1): string => `${(x * 100).toFixed(d)}%`
  const rows = Object.entries(r.byKind)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `| ${k} | ${v.planted} | ${v.caught} |`)
  return [
    '## Secret redaction',
    '',
    `Fake credentials in the issuers' real formats, planted one per result into corpus logs and JSON: **${r.caught} of ${r.planted} caught (${pct(r.recall, 2)})**.`,
    `Clean corpus lines changed by redaction (false positives): **${r.touchedLines} of ${r.cleanLines.toLocaleString('en-US')} (${pct(r.falsePositiveRate, 3)})**.`,
    `Speed: ${r.msPer10MB.toFixed(1)} ms per 10 MB of logs, ${(r.msPer10MB / Math.max(r.scanMsPer10MB, 1e-6)).toFixed(1)}x one newline scan of the same text (${r.scanMsPer10MB.toFixed(1)} ms).`,
    '',
    '| kind | planted | caught |',
    '| --- | ---: | ---: |',
    ...rows,
    ...(r.touchedExamples.length > 0 ? ['', 'Clean lines it changed (first 10):', '', ...r.touchedExamples.map((l) => `- \`${l.replace(/`/g, "'")}\``)] : []),
    '',
  ].join('\n')
}
