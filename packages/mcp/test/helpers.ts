import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js'

const here = dirname(fileURLToPath(import.meta.url))
const require = createRequire(import.meta.url)
export const REPO = resolve(here, '../../..')
/** The CLI's source entry: tests run `spillway mcp` exactly as a user would, from source. */
export const CLI_BIN = join(REPO, 'packages/cli/src/bin.ts')
export const FIXTURE_SERVER = join(here, 'fixtures/server.ts')
/** Entry points of the real servers from npm (dev dependencies). A missing one fails the test loudly. */
export const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js')
export const FILESYSTEM = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js')
/** Node flags that run workspace TypeScript from source. */
export const TS_NODE = ['--conditions=@spillway/source', '--import', 'tsx']

export function tempDir(prefix: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), `spillway-mcp-${prefix}-`))
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

/** The argv of `spillway mcp ...` run from source. */
export const proxyArgs = (mcpArgs: string[]): string[] => [...TS_NODE, CLI_BIN, 'mcp', ...mcpArgs]

/** An SDK client connected over real stdio to a spawned process. */
export async function stdioClient(args: string[], capabilities: ClientCapabilities = {}, setup?: (c: Client) => void): Promise<{ client: Client; transport: StdioClientTransport }> {
  const transport = new StdioClientTransport({ command: process.execPath, args, cwd: REPO, stderr: 'pipe' })
  const client = new Client({ name: 'spillway-test', version: '1.0.0' }, { capabilities })
  setup?.(client)
  await client.connect(transport, { timeout: 30_000 })
  return { client, transport }
}

/** Whether a process is alive. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** Polls `cond` until true or `ms` passed. */
export async function waitFor(cond: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (cond()) return true
    await new Promise((r) => setTimeout(r, 50))
  }
  return cond()
}

/** The text of the text blocks of a tool result. */
export const textOf = (r: object): string =>
  (((r as { content?: unknown }).content as { type: string; text?: string }[] | undefined) ?? []).filter((b) => b.type === 'text').map((b) => b.text).join('\n')
