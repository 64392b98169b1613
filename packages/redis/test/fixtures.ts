import { spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

/** The repo root (where `tsx` and the `@spillway/source` condition resolve). */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url))

/** A deterministic tool result of about `kb` KiB, different for every (worker, i). */
export function resultText(worker: number, i: number, kb = 24): string {
  const lines: string[] = []
  let size = 0
  for (let n = 0; size < kb * 1024; n++) {
    const l = `${n % 97 === 13 ? 'ERROR' : 'INFO'} worker ${worker} result ${i} line ${n}: ${((worker * 7919 + i * 104729 + n * 31) % 1_000_003).toString(36).repeat(3)}`
    lines.push(l)
    size += l.length + 1
  }
  return lines.join('\n')
}

/** Starts `test/<script>` in a fresh Node process (TypeScript through tsx) with `args` as JSON. */
export function startWorker(script: string, args: unknown): { child: ChildProcess; lines: AsyncIterable<string>; exit: Promise<number | null> } {
  const child = spawn(process.execPath, ['--conditions=@spillway/source', '--import', 'tsx', fileURLToPath(new URL(script, import.meta.url)), JSON.stringify(args)], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] })
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return { child, lines: createInterface({ input: child.stdout! }), exit }
}
