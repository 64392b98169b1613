// A deterministic stand-in corpus for machines without ../shared/corpus (and for CI): the same
// kinds and label formats, generated from a seeded PRNG. Its figures say how the methods behave
// on the generator's shapes, not on real tool output; the report says which corpus it used.
import type { ToolDescriptor } from '@spillway/core'
import { diffFiles, grepFiles, jsonShapeFacts } from '../metrics/structure.js'
import { createRng, type Rng } from './prng.js'
import type { Corpus, RetrievalSet, TrimCase } from './types.js'

const MODULES = ['core', 'api', 'auth', 'billing', 'cache', 'cli', 'db', 'events', 'gateway', 'search', 'storage', 'web']
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'kappa', 'omega', 'sigma', 'theta', 'lambda', 'zeta']

function noiseLine(r: Rng, i: number): string {
  const m = r.pick(MODULES)
  switch (r.int(0, 5)) {
    case 0: return `[INFO] Downloading https://repo.example.org/maven2/org/${m}/${m}-${r.int(1, 9)}.${r.int(0, 20)}.jar (${r.int(2, 900)} kB)`
    case 1: return `[INFO] Compiling ${r.int(2, 80)} source files to /build/${m}/target/classes`
    case 2: return `> Task :${m}:${r.pick(['compileJava', 'processResources', 'jar', 'test'])} UP-TO-DATE`
    case 3: return `  ${m}/${r.pick(WORDS)}_test.py::test_${r.pick(WORDS)}_${i} PASSED`
    case 4: return ''
    default: return `[INFO] Running org.example.${m}.${r.pick(WORDS)}Test (${r.int(1, 30)} tests, 0 failures, ${r.int(1, 999)} ms)`
  }
}

function failureBlock(r: Rng, n: number): string[] {
  const m = r.pick(MODULES)
  const cls = `org.example.${m}.${r.pick(WORDS)[0]!.toUpperCase()}${r.pick(WORDS)}Test`
  const lines = [
    `[ERROR] Tests run: ${r.int(5, 40)}, Failures: 1, Errors: 0, Skipped: 0 <<< FAILURE! - in ${cls}`,
    `[ERROR] test${r.pick(WORDS)}${n}(${cls})  Time elapsed: 0.${r.int(10, 99)} s  <<< FAILURE!`,
    `java.lang.AssertionError: expected:<${r.int(1, 99)}> but was:<${r.int(100, 199)}>`,
  ]
  for (let k = 0; k < r.int(3, 8); k++) lines.push(`\tat ${cls}.method${k}(${m}${k}.java:${r.int(10, 400)})`)
  return lines
}

function ciLog(r: Rng, n: number): TrimCase {
  const total = r.int(400, 4000)
  const at = Math.floor(total * (0.3 + r.next() * 0.4)) // buried in the middle
  const block = failureBlock(r, n)
  const lines: string[] = []
  for (let i = 0; i < total; i++) {
    if (i === at) lines.push(...block)
    lines.push(noiseLine(r, i))
  }
  lines.push('[INFO] BUILD FAILURE', `[INFO] Total time: ${r.int(20, 900)} s`)
  return { kind: 'ci-log', name: `synthetic/ci-logs/build-${n}.log`, text: lines.join('\n'), labelled: block, labelSource: 'synthetic-ci' }
}

function systemLog(r: Rng, n: number): TrimCase {
  const labelled: string[] = []
  const lines: string[] = []
  for (let i = 0; i < 2000; i++) {
    const alert = r.next() < 0.04
    const ts = 1117838570 + i * r.int(1, 9)
    const node = `R${r.int(10, 99)}-M${r.int(0, 1)}-N${r.int(0, 9)}`
    const line = alert
      ? `${r.pick(['KERNDTLB', 'KERNSTOR', 'APPSEV'])} ${ts} ${node} RAS KERNEL FATAL data TLB error interrupt ${r.int(1, 9999)}`
      : `- ${ts} ${node} RAS KERNEL INFO instruction cache parity error corrected ${r.int(1, 99)}`
    if (alert) labelled.push(line)
    lines.push(line)
  }
  return { kind: 'system-log', name: `synthetic/logs/system-${n}.log`, text: lines.join('\n'), labelled, labelSource: 'synthetic-alert' }
}

function jsonBody(r: Rng, n: number): TrimCase {
  const item = (i: number): Record<string, unknown> => ({
    id: 1000 + i, node_id: `MDQ${r.int(1e5, 9e5)}`, name: `${r.pick(WORDS)}-${r.pick(MODULES)}`, private: r.next() < 0.2,
    owner: { login: r.pick(WORDS), id: r.int(1, 1e6), type: 'User' }, description: `${r.pick(WORDS)} ${r.pick(MODULES)} service`.repeat(r.int(1, 4)),
    stargazers_count: r.int(0, 5000), topics: [r.pick(WORDS), r.pick(MODULES)], created_at: `2024-0${r.int(1, 9)}-1${r.int(0, 9)}T10:00:00Z`,
  })
  const count = r.int(30, 300)
  const items = Array.from({ length: count }, (_, i) => item(i))
  const body = n % 2 === 0 ? items : { total_count: count, incomplete_results: false, items }
  const text = JSON.stringify(body)
  return { kind: 'json', name: `synthetic/json/response-${n}.json`, text, jsonFacts: jsonShapeFacts(text) }
}

function diff(r: Rng, n: number): TrimCase {
  const out = [`commit ${r.int(1e8, 9e8).toString(16)}${r.int(1e8, 9e8).toString(16)}`, 'Author: Dev <dev@example.org>', 'Date:   Mon Jan 6 10:00:00 2025 +0000', '', `    refactor ${r.pick(MODULES)}`, '']
  for (let f = 0; f < r.int(5, 40); f++) {
    const path = `src/${r.pick(MODULES)}/${r.pick(WORDS)}-${f}.js`
    out.push(`diff --git a/${path} b/${path}`, `index ${r.int(1e5, 9e5)}..${r.int(1e5, 9e5)} 100644`, `--- a/${path}`, `+++ b/${path}`)
    for (let h = 0; h < r.int(1, 4); h++) {
      out.push(`@@ -${r.int(1, 400)},7 +${r.int(1, 400)},8 @@ function ${r.pick(WORDS)}() {`)
      for (let l = 0; l < r.int(4, 30); l++) out.push(`${r.pick([' ', ' ', '+', '-'])}  const ${r.pick(WORDS)} = ${r.pick(MODULES)}.${r.pick(WORDS)}(${l})`)
    }
  }
  const text = out.join('\n')
  return { kind: 'diff', name: `synthetic/diffs/commit-${n}.diff`, text, files: diffFiles(text) }
}

function grep(r: Rng, n: number): TrimCase {
  const out: string[] = []
  for (let f = 0; f < r.int(10, 120); f++) {
    const path = `pkg/${r.pick(MODULES)}/${r.pick(WORDS)}_${f}.go`
    for (let m = 0; m < r.int(1, 25); m++) out.push(`${path}:${r.int(1, 900)}:\tif err != nil { return ${r.pick(WORDS)}Err(${m}) }`)
  }
  const text = out.join('\n')
  return { kind: 'grep', name: `synthetic/grep/search-${n}.txt`, text, files: grepFiles(text) }
}

function aria(r: Rng, n: number): TrimCase {
  const out = ['- generic [ref=e1]:', '  - banner [ref=e2]:', `    - heading "${r.pick(WORDS)} news" [level=1] [ref=e3]`]
  let ref = 4
  for (let s = 0; s < r.int(5, 20); s++) {
    out.push(`  - navigation "${r.pick(MODULES)}" [ref=e${ref++}]:`, `    - list [ref=e${ref++}]:`)
    for (let l = 0; l < r.int(10, 80); l++) out.push(`      - listitem [ref=e${ref++}]:`, `        - link "${r.pick(WORDS)} ${r.pick(MODULES)} ${l}" [ref=e${ref++}]:`, `          - /url: /${r.pick(MODULES)}/${l}`)
  }
  return { kind: 'aria', name: `synthetic/aria/page-${n}.snapshot.yml`, text: out.join('\n') }
}

const VERBS = [['create', 'make', 'add'], ['delete', 'remove', 'drop'], ['list', 'show', 'enumerate'], ['update', 'modify', 'change'], ['search', 'find', 'look up'], ['get', 'fetch', 'retrieve']]
const NOUNS = [['issue', 'ticket'], ['repository', 'repo'], ['invoice', 'bill'], ['calendar event', 'meeting'], ['file', 'document'], ['user', 'account'], ['message', 'note'], ['weather forecast', 'forecast'], ['stock price', 'share price'], ['flight', 'plane ticket']]

function retrievalSet(r: Rng): RetrievalSet {
  const tools: ToolDescriptor[] = []
  const queries: RetrievalSet['queries'] = []
  for (const [verb, ...verbSyn] of VERBS) {
    for (const [noun, ...nounSyn] of NOUNS) {
      const name = `${verb}_${noun!.replace(/ /g, '_')}`
      tools.push({ name, description: `${verb![0]!.toUpperCase()}${verb!.slice(1)} a ${noun} in the workspace.`, parameters: { type: 'object', properties: { [`${noun!.split(' ')[0]}_id`]: { type: 'string' } } } })
      for (let q = 0; q < 3; q++) {
        const v = q === 0 ? verb! : r.pick(verbSyn)
        const o = q < 2 ? noun! : r.pick(nounSyn)
        queries.push({ query: `Can you ${v} the ${o} for ${r.pick(WORDS)} please?`, relevant: [name] })
      }
    }
  }
  return { name: 'synthetic', tools, extra: {}, queries }
}

/** The synthetic corpus for a seed (same seed, byte-identical corpus). */
export function syntheticCorpus(seed = 42): Corpus {
  const r = createRng(seed)
  const cases: TrimCase[] = []
  for (let i = 0; i < 12; i++) cases.push(ciLog(r, i))
  for (let i = 0; i < 3; i++) cases.push(systemLog(r, i))
  for (let i = 0; i < 6; i++) cases.push(jsonBody(r, i))
  for (let i = 0; i < 6; i++) cases.push(diff(r, i))
  for (let i = 0; i < 6; i++) cases.push(grep(r, i))
  for (let i = 0; i < 4; i++) cases.push(aria(r, i))
  return { source: 'synthetic', cases, retrieval: [retrievalSet(r)], notes: [`synthetic corpus (seed ${seed}): generated shapes, not real tool output`] }
}
