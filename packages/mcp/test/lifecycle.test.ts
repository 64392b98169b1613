// `spillway mcp` (the CLI, from source) as its own process: a host that goes away mid-call,
// malformed and oversized input, SIGTERM, and several upstreams from a config file. Every case
// checks that no process is left behind.
import { spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { alive, FIXTURE_SERVER, proxyArgs, REPO, stdioClient, tempDir, textOf, TS_NODE, waitFor } from './helpers.js'

const store = tempDir('lifecycle')
const upstream = [process.execPath, '--import', 'tsx', FIXTURE_SERVER, '--tools', '300']
const idOf = (r: object): string =>
  ((r as { content: { type: string; uri?: string }[] }).content.find((b) => b.type === 'resource_link')!.uri!).replace('spillway://result/', '')

afterAll(() => store.remove())

describe('process lifecycle and bad input (own proxy processes)', () => {
  it('a client disconnecting mid-call stops the proxy and its upstream: no orphans', async () => {
    const own = await stdioClient(proxyArgs(['--dir', store.dir, '--', ...upstream]))
    const upstreamPid = Number(textOf(await own.client.callTool({ name: 'pid', arguments: {} })))
    const proxyPid = own.transport.pid!
    void own.client.callTool({ name: 'slow', arguments: { ms: 30_000 } }).catch(() => undefined)
    await new Promise((r) => setTimeout(r, 300))
    await own.client.close() // ends the proxy's stdin, as a host that goes away does
    expect(await waitFor(() => !alive(upstreamPid) && !alive(proxyPid), 10_000)).toBe(true)
  }, 90_000)

  it('answers malformed lines and an oversized message without dying, then exits on SIGTERM with its upstream', async () => {
    const child = spawn(process.execPath, proxyArgs(['--dir', store.dir, '--quiet', '--', ...upstream]), { cwd: REPO, stdio: ['pipe', 'pipe', 'pipe'] })
    // The CLI's limit is 16 MiB (DEFAULT_MAX_MESSAGE_BYTES): the message below is 17 MiB.
    let out = ''
    child.stdout.on('data', (d: Buffer) => void (out += d.toString()))
    const send = (m: unknown): void => void child.stdin.write(`${typeof m === 'string' ? m : JSON.stringify(m)}\n`)
    const reply = (id: number): Promise<Record<string, unknown>> =>
      waitFor(() => out.split('\n').some((l) => l.includes(`"id":${id}`)), 30_000).then(() => JSON.parse(out.split('\n').find((l) => l.includes(`"id":${id}`))!) as Record<string, unknown>)
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })
    expect((await reply(1))['result']).toBeDefined()
    send({ jsonrpc: '2.0', method: 'notifications/initialized' })
    send('{"jsonrpc":"2.0","id":2,"method":') // malformed JSON
    send('not json at all')
    send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'small', arguments: { pad: 'x'.repeat(17 * 1024 * 1024) } } })
    const big = await reply(3)
    expect((big['error'] as { message: string }).message).toMatch(/refused \(the proxy's limit\)/)
    send({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'pid', arguments: {} } })
    const pidReply = await reply(4)
    const upstreamPid = Number((pidReply['result'] as { content: { text: string }[] }).content[0]!.text)
    expect(alive(upstreamPid)).toBe(true)
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)))
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
    expect(await waitFor(() => !alive(upstreamPid), 8_000)).toBe(true)
  }, 90_000)

  it('serves several upstreams from a config file, namespacing colliding tools as server__tool', async () => {
    const cfg = join(store.dir, 'mcp.json')
    const [cmd, ...args] = upstream
    writeFileSync(cfg, JSON.stringify({ mcpServers: { one: { command: cmd, args: args.slice(0, -2) }, two: { command: cmd, args: args.slice(0, -2) }, off: { command: 'nope', disabled: true } } }))
    const own = await stdioClient([...TS_NODE, join(REPO, 'packages/cli/src/bin.ts'), 'mcp', '--dir', store.dir, '--quiet', '--config', cfg])
    try {
      const names = (await own.client.listTools()).tools.map((t) => t.name)
      expect(names).toContain('one__read_log')
      expect(names).toContain('two__read_log')
      expect(names).not.toContain('read_log')
      const p1 = textOf(await own.client.callTool({ name: 'one__pid', arguments: {} }))
      const p2 = textOf(await own.client.callTool({ name: 'two__pid', arguments: {} }))
      expect(p1).not.toBe(p2)
      const r = await own.client.callTool({ name: 'two__read_log', arguments: { lines: 5_000 } })
      expect(textOf(await own.client.callTool({ name: 'fetch_result', arguments: { id: idOf(r), mode: 'stat' } }))).toMatch(/two__read_log/)
    } finally {
      await own.client.close()
    }
  }, 90_000)
})
