// fetch_result modes on real tool outputs of ../shared/corpus (read in place, never copied).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createSpillway, memoryStore, type StorageAdapter } from '../src/index.js'
import { stripAnsi } from '../src/filters/ansi/index.js'
import { fsStore } from '../src/store/fs/index.js'
import { hasCorpus, labelledCiLogs } from './corpus.js'

const tmp = mkdtempSync(join(tmpdir(), 'spillway-corpus-'))
afterAll(() => rmSync(tmp, { recursive: true, force: true }))

const naiveLines = (text: string): string[] => {
  const lines = text.split('\n')
  if (text.endsWith('\n')) lines.pop()
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l))
}

const stores: Array<[string, () => StorageAdapter]> = [
  ['memoryStore', () => memoryStore()],
  ['fsStore', () => fsStore({ dir: join(tmp, String(Math.random()).slice(2)) })],
]

describe.skipIf(!hasCorpus).each(stores)('fetch_result on labelled CI logs (%s)', (_name, makeStore) => {
  const logs = hasCorpus ? labelledCiLogs().filter((l) => l.text.length > 6_000).slice(0, 12) : []

  // range and grep read the text with ANSI codes removed, as the excerpt showed it, same line
  // numbers; carriage returns stay (progress-bar frames are collapsed in the excerpt only).
  it('stat, range and grep give back the exact original text (ANSI codes removed), full the raw bytes', async () => {
    expect(logs.length).toBeGreaterThan(5)
    for (const log of logs) {
      const sw = createSpillway({ store: makeStore(), maxChars: 4_000 })
      const res = await sw.handle({ tool: 'terminal', result: log.text, sessionId: 'ci' })
      expect(res.content.length, log.name).toBeLessThanOrEqual(4_000)
      const id = res.handle!.id
      const stripped = stripAnsi(log.text) ?? log.text
      const clean = stripped
      const lines = naiveLines(clean)
      expect(naiveLines(log.text).length, log.name).toBe(lines.length) // removing codes keeps every line number
      expect((await sw.fetch({ id, mode: 'stat' }, { sessionId: 'ci' })).text, log.name).toContain(`chars: ${log.text.length}\n`)

      // Reading the whole log back 100 lines at a time rebuilds it exactly.
      const back: string[] = []
      for (let start = 1; start <= lines.length; start += 100) {
        const r = await sw.fetch({ id, mode: 'range', start, count: 100 }, { sessionId: 'ci' })
        const [head, ...body] = r.text.split('\n')
        const long = /^\[line (\d+) of \d+(?: \([a-zA-Z -]+ removed\))?, chars 1-(\d+) of its (\d+)\]$/.exec(head!)
        if (long !== null) {
          // One line longer than the answer cap: follow the offset calls the answer names.
          let line = body.slice(0, -1).join('\n')
          let next = /continue with fetch_result (\{.*\})\]$/.exec(r.text)
          while (line.length < Number(long[3]) && next !== null) {
            const more = await sw.fetch(JSON.parse(next[1]!) as never, { sessionId: 'ci' })
            const nl = more.text.indexOf('\n')
            const tail = /\n\[\d+ chars follow; continue with fetch_result (\{.*\})\]$/.exec(more.text)
            line += more.text.slice(nl + 1, tail === null ? undefined : tail.index)
            next = tail
          }
          back.push(line.slice(0, Number(long[3])))
          start = Number(long[1]) + 1 - 100
          continue
        }
        const m = /^\[lines (\d+)-(\d+) of (\d+)( \([a-zA-Z -]+ removed\))?\]$/.exec(head!)
        expect(m?.[4] !== undefined, log.name).toBe(clean !== log.text) // the echo says when anything was removed
        expect(m, `${log.name}: ${head}`).not.toBeNull()
        const shownTo = Number(m![2])
        const cut = body.at(-1)?.startsWith('[cut at the') === true
        back.push(...(cut ? body.slice(0, -1) : body))
        if (shownTo < Math.min(lines.length, start + 99)) start = shownTo + 1 - 100 // continue after a cut
      }
      expect(back, log.name).toEqual(lines)
      // full returns the stored bytes as they were, codes included.
      const big = createSpillway({ store: makeStore(), maxChars: 4_000, fullMaxChars: 100_000_000 })
      const bigId = (await big.handle({ tool: 'terminal', result: log.text, sessionId: 'ci' })).handle!.id
      const full = (await big.fetch({ id: bigId, mode: 'full' }, { sessionId: 'ci' })).text
      expect(full.slice(full.indexOf('\n') + 1) === log.text, log.name).toBe(true)

      // Every labelled failure line is found by a literal grep, at its true line number.
      for (const wanted of log.failureLines.map((l) => l.trim()).filter((l) => l.length > 8).slice(0, 3)) {
        const needle = (stripAnsi(wanted) ?? wanted).slice(0, 80)
        const g = await sw.fetch({ id, mode: 'grep', pattern: needle, literal: true }, { sessionId: 'ci' })
        expect(g.ok, log.name).toBe(true)
        const first = lines.findIndex((l) => l.includes(needle)) + 1
        expect(g.text, `${log.name}: ${needle}`).toMatch(new RegExp(`\\n${first}: `))
      }
    }
  })
})
