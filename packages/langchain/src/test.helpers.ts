// Test support (not part of the package build).
import type { FakeBuiltModel } from '@langchain/core/testing'

/** Line (1-based) of the buried needle in {@link buildLog}. */
export const NEEDLE_LINE = 2345
/** A line that is not salient (no error words), so the excerpt has no reason to keep it. */
export const NEEDLE = 'cache key for pkg-quokka resolved to ck-quokka-77'

const VERBS = ['compiled', 'linked', 'bundled', 'minified', 'hashed', 'copied', 'checked', 'emitted', 'resolved', 'cached', 'scanned']
const NOUNS = ['router', 'parser', 'schema', 'client', 'server', 'widget', 'kernel', 'ledger', 'mailer', 'billing', 'search', 'portal', 'graph']

/**
 * A deterministic build log of about `kb` KB with the needle buried in the middle and one error
 * near the end. Words vary from line to line (a pseudo-random walk) so dedup cannot collapse the
 * runs around the needle and the needle truly sits in the omitted middle.
 */
export function buildLog(kb = 300): string {
  const lines: string[] = []
  let size = 0
  for (let i = 1; size < kb * 1000; i++) {
    const line =
      i === NEEDLE_LINE ? `[worker-${i % 4}] ${NEEDLE}` : `[worker-${i % 4}] ${VERBS[(i * 7919) % 11]} ${NOUNS[(i * 104729) % 13]}/${NOUNS[(i * 31) % 13]}-${VERBS[(i * 17) % 11]}.ts in ${(i * 7) % 900} ms`
    lines.push(line)
    size += line.length + 1
  }
  lines.splice(lines.length - 20, 0, 'src/server/routes.ts(88,13): error TS2322: Type "string" is not assignable to type "number".')
  return lines.join('\n')
}

/** Records the tool names bound to the fake model on each model call (what the model is offered). */
export function recordOfferedTools(model: FakeBuiltModel): string[][] {
  const offered: string[][] = []
  const bind = model.bindTools.bind(model)
  model.bindTools = (tools) => {
    offered.push(tools.map((t) => ('name' in t ? String(t.name) : '?')))
    return bind(tools)
  }
  return offered
}
