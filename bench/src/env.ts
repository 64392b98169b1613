import { existsSync, readFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { join } from 'node:path'

const version = (pkgJson: string): string | undefined => {
  try {
    const v = existsSync(pkgJson) ? (JSON.parse(readFileSync(pkgJson, "utf8")) as { version?: unknown }).version : undefined
    return typeof v === "string" ? v : undefined
  } catch {
    return undefined
  }
}

/** Versions of node and of the packages the figures depend on. */
export function versions(repoRoot: string, benchDir: string): Record<string, string> {
  const out: Record<string, string> = { node: process.version, v8: process.versions.v8 }
  const add = (name: string, path: string): void => {
    const v = version(path)
    if (v !== undefined) out[name] = v
  }
  add('@spillway/core', join(repoRoot, 'packages/core/package.json'))
  add('@spillway/bench', join(benchDir, 'package.json'))
  add('gpt-tokenizer', join(benchDir, 'node_modules/gpt-tokenizer/package.json'))
  add('ai (v7, toolSearch scoring re-implemented)', join(repoRoot, 'packages/ai-sdk/node_modules/ai-v7/package.json'))
  add('typescript', join(repoRoot, 'node_modules/typescript/package.json'))
  return out
}

/** The machine the run used. */
export function machine(): { platform: string; arch: string; cpuModel: string; cpus: number; memoryGiB: number } {
  const list = cpus()
  return { platform: process.platform, arch: process.arch, cpuModel: list[0]?.model.trim() ?? 'unknown', cpus: list.length, memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10 }
}

/** Peak resident set size of this process so far, MiB. */
export const peakRssMiB = (): number => process.resourceUsage().maxRSS / 1024
