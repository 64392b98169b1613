#!/usr/bin/env node
// Lints the tarball pnpm would publish for the package in the current directory: `pnpm pack`
// (which rewrites `workspace:` ranges and applies `publishConfig`, so this is the published
// manifest, not the workspace one), then publint --strict and attw's full profile (node10,
// node16 from CJS and ESM, bundler) on that same file. Run by each package's `check:package`.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
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
  run('attw', [join(dir, tarball)])
} catch (error) {
  console.error(`check:package failed in ${process.cwd()}: ${error instanceof Error ? error.message : String(error)}`)
  process.exitCode = 1
} finally {
  rmSync(dir, { recursive: true, force: true })
}
