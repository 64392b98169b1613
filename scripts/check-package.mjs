#!/usr/bin/env node
// Lints the tarball pnpm would publish for the package in the current directory: `pnpm pack`
// (which rewrites `workspace:` ranges and applies `publishConfig`, so this is the published
// manifest, not the workspace one), then publint --strict and attw's full profile (node10,
// node16 from CJS and ESM, bundler) on that same file. An entry point exported for `import` only
// (`@spillway/core/testing`: it imports vitest, which cannot be required) is checked with attw's
// esm-only profile instead. Run by each package's `check:package`.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const dir = mkdtempSync(join(tmpdir(), 'spillway-pack-'))
const run = (cmd, args) => execFileSync(cmd, args, { stdio: 'inherit' })
try {
  // `pnpm` is on PATH inside `pnpm run` (also when pnpm itself came from npx).
  execFileSync('pnpm', ['pack', '--pack-destination', dir], { stdio: ['ignore', 'ignore', 'inherit'] })
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'))
  if (!tarball) throw new Error(`pnpm pack wrote no tarball in ${dir}`)
  run('publint', ['--strict', join(dir, tarball)])
  const pkg = JSON.parse(readFileSync('package.json', 'utf8'))
  const exportsMap = pkg.publishConfig?.exports ?? pkg.exports ?? {}
  const esmOnly = Object.entries(exportsMap)
    .filter(([, target]) => typeof target === 'object' && target !== null && !('require' in target) && !('default' in target))
    .map(([entry]) => entry)
  run('attw', [join(dir, tarball), ...(esmOnly.length > 0 ? ['--exclude-entrypoints', ...esmOnly] : [])])
  if (esmOnly.length > 0) run('attw', [join(dir, tarball), '--profile', 'esm-only', '--entrypoints', ...esmOnly])
} catch (error) {
  console.error(`check:package failed in ${process.cwd()}: ${error instanceof Error ? error.message : String(error)}`)
  process.exitCode = 1
} finally {
  rmSync(dir, { recursive: true, force: true })
}
