// Trims real tool outputs (../shared/corpus when present, else generated ones) and prints what
// the model would have read before and after. Run: npx -y pnpm@10 demo
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { trimResult } from '@spillway/core'

const corpus = resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared/corpus')
const maxChars = 8000

interface Sample {
  name: string
  tool: string
  text: string
}

function fromCorpus(): Sample[] {
  const pick = (dir: string, filter: (f: string) => boolean, tool: string, n: number): Sample[] => {
    const full = join(corpus, dir)
    if (!existsSync(full)) return []
    return readdirSync(full, { recursive: true, encoding: 'utf8' })
      .filter(filter)
      .sort()
      .slice(0, n)
      .map((f) => ({ name: `${dir}/${f}`, tool, text: readFileSync(join(full, f), 'utf8') }))
  }
  return [
    ...pick('ci-logs/cidiff', (f) => f.endsWith('fail.log'), 'terminal', 4),
    ...pick('ci-logs/travis-logchunks', (f) => f.endsWith('.log'), 'terminal', 3),
    ...pick('logs/loghub', (f) => f.endsWith('_2k.log'), 'read_file', 2),
    ...pick('json/github-api-octokit-rb', (f) => f.endsWith('.json') && !f.includes('index'), 'github_api', 2),
    ...pick('diffs/express', (f) => f.endsWith('.diff'), 'terminal', 2),
    ...pick('grep', (f) => f.endsWith('.txt'), 'search_files', 2),
    ...pick('aria/playwright-mcp', (f) => f.endsWith('.snapshot.yml'), 'browser_snapshot', 2),
  ]
}

function generated(): Sample[] {
  const log = Array.from({ length: 40_000 }, (_, i) =>
    i === 23_456 ? 'java.lang.IllegalStateException: connection pool exhausted' : `[INFO] step ${i}: compiled module_${i % 311} in ${(i * 7) % 1000} ms`,
  ).join('\n')
  const json = JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ id: i, name: `repo-${i}`, stars: (i * 37) % 5000, topics: ['a', 'b'] })))
  return [
    { name: 'generated/build.log', tool: 'terminal', text: log },
    { name: 'generated/repos.json', tool: 'github_api', text: json },
  ]
}

const samples = existsSync(join(corpus, 'README.md')) ? fromCorpus() : generated()
console.log(`spillway demo: trimResult at maxChars ${maxChars} on ${samples.length} ${existsSync(corpus) ? 'corpus' : 'generated'} samples\n`)
const pad = (s: string | number, n: number): string => String(s).padStart(n)
console.log(`${'sample'.padEnd(58)} ${pad('kind', 6)} ${pad('chars before', 12)} ${pad('after', 7)} ${pad('lines', 7)} ${pad('salient', 7)}  applied`)
let before = 0
let after = 0
for (const s of samples) {
  const out = trimResult(s.text, { tool: s.tool, maxChars })
  before += out.original.chars
  after += out.kept.chars
  console.log(
    `${s.name.slice(-58).padEnd(58)} ${pad(out.kind, 6)} ${pad(out.original.chars, 12)} ${pad(out.kept.chars, 7)} ${pad(out.original.lines, 7)} ${pad(out.salient.length, 7)}  ${out.applied.join(',') || '-'}`,
  )
}
console.log(`\ntotal: ${before} chars -> ${after} chars (${((1 - after / before) * 100).toFixed(1)}% less), every excerpt <= ${maxChars} chars`)
const first = samples[0]
if (first !== undefined) {
  const out = trimResult(first.text, { tool: first.tool, maxChars: 1500 })
  console.log(`\n--- what the model sees for ${first.name} at 1,500 chars ---\n${out.text}\n---`)
}
