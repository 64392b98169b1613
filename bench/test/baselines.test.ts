import { describe, expect, it } from 'vitest'
import { aiSdkToolSearch } from '../src/baselines/ai-sdk-tool-search.js'
import { createBm25, hermesBm25, parameterNames, plainBm25 } from '../src/baselines/bm25.js'
import { deepagents } from '../src/baselines/deepagents.js'
import { headOnly } from '../src/baselines/head-only.js'
import { headTail } from '../src/baselines/head-tail.js'
import { rtk } from '../src/baselines/rtk.js'
import { toolaria } from '../src/baselines/toolaria.js'
import { capToBudget, type TrimInput } from '../src/baselines/types.js'

const PAD = '.'.repeat(30)
const log = Array.from({ length: 200 }, (_, i) => (i === 100 ? 'ERROR: it broke' : `line ${i + 1}${PAD}`)).join('\n')
const at = (budget: number, kind: TrimInput['kind'] = 'ci-log'): TrimInput => ({ budget, kind, tool: 'terminal' })

describe('trimming baselines', () => {
  it('leave input under the budget alone (except RTK, which always filters)', () => {
    for (const m of [headOnly, headTail, toolaria, deepagents]) expect(m.run('short\nresult', at(100))).toBe('short\nresult')
  })
  it('all fit the budget', () => {
    for (const m of [headOnly, headTail, toolaria, deepagents, rtk]) for (const b of [50, 300, 1000]) expect(m.run(log, at(b)).length).toBeLessThanOrEqual(b)
  })
  it('head-only keeps the start and says what was cut', () => {
    const out = headOnly.run(log, at(300))
    expect(out.startsWith(`line 1${PAD}\nline 2`)).toBe(true)
    expect(out).toContain(`[Cut: tool response was ${log.length.toLocaleString('en-US')} chars`)
    expect(out).not.toContain('line 200.')
  })
  it('head+tail keeps both ends in equal parts', () => {
    const out = headTail.run(log, at(400))
    expect(out.startsWith(`line 1${PAD}\n`)).toBe(true)
    expect(out.endsWith(`line 200${PAD}`)).toBe(true)
    expect(out).toContain('chars trimmed from terminal output')
  })
  it('Toolaria keeps 40 head lines, 15 tail lines and the error anchors', () => {
    const out = toolaria.run(log, at(4000))
    expect(out).toContain(`line 40${PAD}\n--- tail ---\nline 186${PAD}`)
    expect(out).not.toContain('line 41.')
    expect(out).not.toContain('line 185.')
    expect(out).toContain('--- error lines ---\nERROR: it broke')
  })
  it('Toolaria states the JSON array length', () => {
    const json = JSON.stringify(Array.from({ length: 50 }, (_, i) => ({ id: i, pad: 'x'.repeat(40) })))
    const out = toolaria.run(json, at(2000, 'json'))
    expect(out.startsWith('[JSON excerpt — array[50]]')).toBe(true)
    expect(out).toContain('--- tail ---')
  })
  it('deepagents keeps 5 + 5 numbered lines', () => {
    const out = deepagents.run(log, at(4000))
    expect(out).toContain(`     1\tline 1${PAD}`)
    expect(out).toContain(`     5\tline 5${PAD}\n... [190 lines truncated] ...\n   196\tline 196`)
    expect(out).not.toContain('line 6.')
  })
  it('RTK dedups, strips blanks and caps at 100 lines; grep at 50 results', () => {
    const noisy = ['a', 'a', '', 'b', ...Array.from({ length: 150 }, (_, i) => `x${i}`)].join('\n')
    const out = rtk.run(noisy, at(100_000))
    expect(out.split('\n').slice(0, 3)).toEqual(['a', 'b', 'x0'])
    expect(out).toContain('x97\n... (52 more lines truncated)')
    const grep = Array.from({ length: 60 }, (_, i) => `f.js:${i}:hit`).join('\n')
    expect(rtk.run(grep, at(100_000, 'grep'))).toContain('f.js:49:hit\n... (10 more results truncated)')
    expect(rtk.run('{"output":"x\\n\\nx\\ny"}', at(100))).toBe('x\ny')
  })
  it('capToBudget never splits a surrogate pair', () => {
    expect(capToBudget('ab😀', 3)).toBe('ab')
  })
})

describe('keyword retrieval baselines', () => {
  const tools = [
    { name: 'create_issue', description: 'Create a new issue in a repository', parameters: { type: 'object', properties: { owner: {}, repo: {} } } },
    { name: 'list_issues', description: 'List issues of a repository' },
    { name: 'getWeather', description: 'Weather forecast for a city' },
  ]
  it('BM25 ranks by term rarity and drops tools sharing no term', () => {
    expect(plainBm25(tools).rank('create repository')).toEqual(['create_issue', 'list_issues'])
    expect(plainBm25(tools).rank('nothing matches')).toEqual([])
  })
  it('Hermes-style BM25 also indexes parameter names', () => {
    expect(parameterNames(tools[0]!.parameters)).toEqual(['owner', 'repo'])
    expect(hermesBm25(tools).rank('owner')).toEqual(['create_issue'])
    expect(plainBm25(tools).rank('owner')).toEqual([])
  })
  it('BM25 matches a naive scorer', () => {
    const docs = [{ name: 'a', description: 'x y y' }, { name: 'b', description: 'y z' }]
    const ranker = createBm25(docs, { k1: 1.2, b: 0.75, text: (t) => t.description ?? '' })
    // naive: idf(y) = ln(1 + (2-2+0.5)/(2+0.5)), idf(x) = ln(1 + (2-1+0.5)/(1+0.5)); avgdl 2.5
    const idfY = Math.log(1 + 0.5 / 2.5), idfX = Math.log(1 + 1.5 / 1.5)
    const s = (tf: number, dl: number, idf: number): number => (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * dl) / 2.5))
    const a = s(1, 3, idfX) + s(2, 3, idfY), b = s(1, 2, idfY)
    expect(ranker.rank('x y')).toEqual(a > b ? ['a', 'b'] : ['b', 'a'])
  })
  it('AI SDK 7 toolSearch, run by the SDK: +2 per term in the name, +1 in the description, camelCase split, ties in catalog order', async () => {
    const search = aiSdkToolSearch(tools)
    expect(await search.rank('weather now_please')).toEqual(['getWeather']) // camelCase name split into get + weather
    expect(await search.rank('issues repository')).toEqual(['list_issues', 'create_issue']) // 2+1+1 vs 1
    expect(await search.rank('repository')).toEqual(['create_issue', 'list_issues'])
    expect(await search.rank('kubernetes')).toEqual([])
  })
})
