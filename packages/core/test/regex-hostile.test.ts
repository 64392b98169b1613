import { spawn } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const PKG = join(dirname(fileURLToPath(import.meta.url)), '..')
/** Generous: the answer takes milliseconds; today's backtracking engine never answers (killed after 20 s, 3 of 3). */
const KILL_AFTER_MS = 20_000

/** Runs fixtures/hostile-grep.ts in a child (a hang inside one synchronous exec can only be stopped by killing it). */
function grepInChild(pattern: string, width: number, lines: number): Promise<{ answer?: { ok: boolean; text: string }; killed: boolean }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--conditions=@spillway/source', '--import', 'tsx', join(PKG, 'test/fixtures/hostile-grep.ts'), pattern, String(width), String(lines)], { cwd: PKG, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    let killed = false
    const timer = setTimeout(() => {
      killed = true
      p.kill('SIGKILL')
    }, KILL_AFTER_MS)
    p.stdout.on('data', (d) => (out += d))
    p.stderr.on('data', (d) => (err += d))
    p.on('exit', (code) => {
      clearTimeout(timer)
      if (killed) resolve({ killed })
      else if (code === 0) resolve({ answer: JSON.parse(out) as { ok: boolean; text: string }, killed })
      else reject(new Error(`hostile-grep exited ${code}: ${err}`))
    })
  })
}

describe('model-supplied regexes cannot hang the host (issue 12, item 1)', () => {
  // Both pass the shape screen (the alternation sits in an inner group, the repeat on the outer
  // one) and backtrack exponentially inside one RegExp exec on a line of 60 `a`s.
  for (const pattern of ['((a|aa))*b', '(?:(?:a|aa))*$x']) {
    it(`${pattern} on lines of 60 a's gets a real answer`, { timeout: KILL_AFTER_MS + 10_000 }, async () => {
      const { answer, killed } = await grepInChild(pattern, 60, 200)
      expect(killed, 'the grep hung and was killed').toBe(false)
      // Neither pattern can match a line of a's: a finished search says so, with every line searched.
      expect(answer).toEqual({ ok: true, text: expect.stringMatching(/: no line matches, all 200 lines searched\]$/) })
    })
  }
})
