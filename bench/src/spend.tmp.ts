import { trimResult } from '@spillway/core'
import { scanLines } from '../../packages/core/src/trim/salient.js'
import { weighSalient } from '../../packages/core/src/trim/weigh.js'
import { loadHeldout, DEFAULT_DEVEXTRA_DIR } from './corpus/heldout.js'
import { stripAnsi } from './metrics/retention.js'
const names = process.argv.slice(2)
const budget = Number(process.env.B ?? 8000)
const cases = loadHeldout(DEFAULT_DEVEXTRA_DIR).filter(c => names.some(n => c.name.includes(n)))
for (const c of cases) {
  const out = trimResult(c.text, { tool: 'terminal', maxChars: budget }).text
  const lines = c.text.split('\n')
  const sc = scanLines(c.text, true, 1e6)
  const w = weighSalient(c.text, sc.salient)
  const byLine = new Map(w.map(s => [s.line, s.score]))
  const wanted = new Set((c.labelled ?? []).map(l => stripAnsi(l).trim()).filter(l => l))
  const spend = new Map<string, number>()
  const add = (k: string, n: number) => spend.set(k, (spend.get(k) ?? 0) + n)
  const detail: string[] = []
  for (const o of out.split('\n')) {
    const m = /^(\d+): (.*)$/.exec(o)
    if (!m) { add(o.startsWith('[...') ? 'marker' : 'other', o.length + 1); detail.push(`   ${o.slice(0, 150)}`); continue }
    const n = Number(m[1]); const t = stripAnsi(m[2]!).trim()
    const lab = wanted.has(t) || [...wanted].some(x => x.length > 200 && t.startsWith(x.slice(0, 200)))
    const s = byLine.get(n)
    const k = lab ? 'LABEL' : s !== undefined ? `sal${s}` : 'ctx'
    add(k, o.length + 1)
    detail.push(`${k.padEnd(5)} ${o.slice(0, 150)}`)
  }
  const shown = new Set(out.split('\n').map(l => stripAnsi(l).replace(/^\d+: /, '').trim()))
  const missed = [...wanted].filter(l => !shown.has(l))
  console.log(`\n## ${c.name} lines=${lines.length} labels=${wanted.size} missed=${missed.length} salient=${w.length}`, JSON.stringify([...spend]))
  if (process.env.V) { console.log(detail.join('\n')); console.log('-- missed:'); for (const m of missed.slice(0, 40)) { const i = lines.findIndex(l => stripAnsi(l).trim() === m); console.log(`  [${i + 1}] s=${byLine.get(i + 1) ?? '-'} ${m.slice(0, 140)}`) } }
}
