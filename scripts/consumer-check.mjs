#!/usr/bin/env node
// A fresh npm consumer of the packed packages, outside the workspace: `pnpm pack` each published
// package (the tarball pnpm publishes: `workspace:` ranges rewritten, `publishConfig` applied),
// `npm install` the tarballs and the frameworks they peer on into a temp project, then run an ESM
// script, a CJS script, the `spillway` bin, and `tsc` under moduleResolution node16, bundler and
// node10, each importing every entry point. Needs the packages built (`pnpm build`) and the npm
// registry (for the peers). Run: `pnpm test:consumer` (or `node scripts/consumer-check.mjs --keep`
// to keep the temp project).
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const PACKAGES = ['core', 'ai-sdk', 'langchain', 'mcp', 'redis', 'cli']
/** Every published entry point, as a consumer writes it. */
const ENTRY_POINTS = ['@spillway/core', '@spillway/core/fs', '@spillway/core/testing', '@spillway/ai-sdk', '@spillway/langchain', '@spillway/mcp', '@spillway/redis', '@spillway/redis/testing', 'spillway']
/** Exported for `import` only: the conformance suite imports vitest, which cannot be `require`d. */
const ESM_ONLY = ['@spillway/core/testing']
/** The peers a consumer installs beside the adapters (npm would install them anyway; named so the versions are the consumer's choice). */
const PEERS = ['ai@^6', '@langchain/core@^1', 'langchain@^1', 'redis@^6', 'typescript@5.9.3', '@types/node@^20', 'vitest@^4']

const started = Date.now()
const lap = (what) => console.log(`consumer-check: ${what} (${((Date.now() - started) / 1000).toFixed(1)} s)`)
const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' })

function check() {
  // `--reuse DIR`: run the scripts and tsc again in a consumer kept by `--keep` (no pack, no install).
  const reuse = process.argv.includes('--reuse') ? process.argv[process.argv.indexOf('--reuse') + 1] : undefined
  const work = reuse ?? mkdtempSync(join(tmpdir(), 'spillway-consumer-'))
  const tarballs = join(work, 'tarballs')
  const app = join(work, 'app')
  if (reuse === undefined) {
    mkdirSync(tarballs)
    mkdirSync(app)
  }
  try {
    if (reuse === undefined) install(tarballs, app)
    for (const e of ENTRY_POINTS) {
    for (const [kind, src] of [['ESM', ESM], ['CJS', CJS], ['types', TYPES], ['CJS types', TYPES_CJS]]) {
      const cjs = kind.startsWith('CJS')
      if (cjs && ESM_ONLY.includes(e) ? src.includes(`'${e}'`) : !src.includes(`'${e}'`)) throw new Error(`the ${kind} check ${cjs && ESM_ONLY.includes(e) ? 'imports the ESM-only' : 'does not import'} ${e}`)
    }
  }
    writeFileSync(join(app, 'esm.mjs'), ESM)
    writeFileSync(join(app, 'cjs.cjs'), CJS)
    process.stdout.write(run('node', ['esm.mjs'], app))
    process.stdout.write(run('node', ['cjs.cjs'], app))
    process.stdout.write(`bin: ${run(join(app, 'node_modules/.bin/spillway'), ['--version'], app)}`)
    lap('ESM, CJS and bin ran')

    writeFileSync(join(app, 'types.mts'), TYPES)
    writeFileSync(join(app, 'types.cts'), TYPES_CJS)
    const tsconfigs = {
      node16: { module: 'node16', moduleResolution: 'node16', files: ['types.mts', 'types.cts'] },
      bundler: { module: 'esnext', moduleResolution: 'bundler', files: ['types.mts'] },
      node10: { module: 'commonjs', moduleResolution: 'node10', files: ['types.cts'] },
    }
    for (const [name, { files: tsFiles, ...opts }] of Object.entries(tsconfigs)) {
      // skipLibCheck as `tsc --init` sets it: @langchain/core's and the MCP SDK's own .d.ts do not
    // pass node16 CJS checks; ours are checked by attw (check:package) and by the use below.
    const config = { compilerOptions: { ...opts, target: 'es2022', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] }, files: tsFiles }
      writeFileSync(join(app, `tsconfig.${name}.json`), JSON.stringify(config, null, 2))
      run(join(app, 'node_modules/.bin/tsc'), ['-p', `tsconfig.${name}.json`], app)
    }
    lap(`tsc passed under ${Object.keys(tsconfigs).join(', ')} (${run(join(app, 'node_modules/.bin/tsc'), ['--version'], app).trim()}, node ${process.version}, npm ${run('npm', ['--version'], app).trim()})`)
  } catch (error) {
    const out = error && typeof error === 'object' && 'stdout' in error ? String(error.stdout) : ''
    console.error(`consumer-check FAILED in ${app}: ${error instanceof Error ? error.message : String(error)}\n${out}`)
    process.exitCode = 1
  } finally {
    if (reuse === undefined && !process.argv.includes('--keep') && process.exitCode !== 1) rmSync(work, { recursive: true, force: true })
  }
}

/** Packs every published package and installs the tarballs and the peers with npm into `app`. */
function install(tarballs, app) {
  for (const p of PACKAGES) run('pnpm', ['pack', '--pack-destination', tarballs], join(root, 'packages', p))
  const files = readdirSync(tarballs).filter((f) => f.endsWith('.tgz')).map((f) => join(tarballs, f))
  if (files.length !== PACKAGES.length) throw new Error(`expected ${PACKAGES.length} tarballs, got ${files.length}`)
  const sizes = files.map((f) => `${f.split('/').pop()} ${(statSync(f).size / 1024).toFixed(0)} kB`)
  lap(`packed ${files.length} tarballs: ${sizes.join(', ')}`)
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'spillway-consumer', private: true, type: 'module' }, null, 2))
  run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...files, ...PEERS], app)
  lap('npm install (tarballs + peers)')
}

/** Runs the loop a user would: trim + spill into a real store, fetch back; every entry point loads. */
function script(load) {
  return `${load}
const assert = (ok, what) => { if (!ok) { console.error('consumer: ' + what); process.exit(1) } }
const log = Array.from({ length: 20000 }, (_, i) => i === 12345 ? 'FATAL: disk full on /var' : 'INFO step ' + i).join('\\n')
const main = async () => {
  const spillway = core.createSpillway({ store: core.memoryStore(), maxChars: 2000 })
  const out = await spillway.handle({ tool: 'terminal', result: log, sessionId: 's1' })
  assert(out.content.length <= 2000 && out.handle, 'a 20,000-line log is trimmed to 2000 chars and spilled')
  const hit = await spillway.fetch({ id: out.handle.id, mode: 'grep', pattern: 'FATAL' }, { sessionId: 's1' })
  assert(hit.ok && hit.text.includes('disk full'), 'fetch_result greps the spilled log')
  const dir = require_('node:fs').mkdtempSync(require_('node:path').join(require_('node:os').tmpdir(), 'spillway-consumer-store-'))
  const disk = core.createSpillway({ store: fs.fsStore({ dir }), maxChars: 2000 })
  const d = await disk.handle({ tool: 'terminal', result: log, sessionId: 's1' })
  assert((await disk.fetch({ id: d.handle.id, mode: 'grep', pattern: 'FATAL' }, { sessionId: 's1' })).text.includes('disk full'), 'fsStore round trip')
  assert((await disk.fetch({ id: d.handle.id, mode: 'grep', pattern: 'FATAL' }, { sessionId: 's2' })).ok === false, 'another session cannot read the blob')
  for (const [name, mod] of Object.entries({ testing, aiSdk, langchain, mcp, redis, redisTesting, cli })) assert(Object.keys(mod).length > 0, name + ' has exports')
  assert(typeof aiSdk.spillTools === 'function' && typeof langchain.spillwayMiddleware === 'function' && typeof mcp.createMcpProxy === 'function' && typeof redis.redisStore === 'function' && typeof cli.runCli === 'function', 'adapter entry points')
  console.log('${load.startsWith('import') ? 'ESM' : 'CJS'} consumer: ok (' + out.content.length + ' chars shown of ' + log.length + ', cli ' + cli.VERSION + ')')
}
main().catch((e) => { console.error(e); process.exit(1) })
`
}

const ESM = script(`import * as core from '@spillway/core'
import * as fs from '@spillway/core/fs'
import * as testing from '@spillway/core/testing'
import * as aiSdk from '@spillway/ai-sdk'
import * as langchain from '@spillway/langchain'
import * as mcp from '@spillway/mcp'
import * as redis from '@spillway/redis'
import * as redisTesting from '@spillway/redis/testing'
import * as cli from 'spillway'
import { createRequire } from 'node:module'
const require_ = createRequire(import.meta.url)`)

const CJS = script(`const core = require('@spillway/core')
const fs = require('@spillway/core/fs')
const testing = { note: '@spillway/core/testing is ESM-only (it imports vitest)' }
const aiSdk = require('@spillway/ai-sdk')
const langchain = require('@spillway/langchain')
const mcp = require('@spillway/mcp')
const redis = require('@spillway/redis')
const redisTesting = require('@spillway/redis/testing')
const cli = require('spillway')
const require_ = require`)

/** Type-level use of every entry point (compiled, never run). */
const TYPES = `import { createSpillway, memoryStore, trimResult, type Spillway, type TrimOutcome } from '@spillway/core'
import { fsStore } from '@spillway/core/fs'
import { testStorageAdapter } from '@spillway/core/testing'
import { spillTools } from '@spillway/ai-sdk'
import { spillwayMiddleware } from '@spillway/langchain'
import { createMcpProxy } from '@spillway/mcp'
import { redisStore } from '@spillway/redis'
import { startRedisServer } from '@spillway/redis/testing'
import { runCli, VERSION } from 'spillway'
const s: Spillway = createSpillway({ store: memoryStore(), maxChars: 2000 })
const o: TrimOutcome = trimResult('x', { maxChars: 10 })
const fns: Array<(...args: never[]) => unknown> = [fsStore, testStorageAdapter, spillTools, spillwayMiddleware, createMcpProxy, redisStore, startRedisServer, runCli]
const v: string = VERSION
void [s, o, fns, v]
export {}
`
/** The same for a CommonJS file (node16 `.cts`, node10): without the ESM-only entry point. */
const TYPES_CJS = TYPES.replace("import { testStorageAdapter } from '@spillway/core/testing'\n", 'const testStorageAdapter = (): void => {}\n').replace('export {}', '// CommonJS side')

check()
