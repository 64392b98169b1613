// An offline MCP session through the spillway proxy:
//   SDK Client -> @spillway/mcp proxy (in this process) -> server-everything (spawned over stdio).
// The same calls are made once directly and once through the proxy; sizes are printed side by side.
// Run: pnpm --filter @spillway/example-mcp start
import { createRequire } from 'node:module'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { estimateTokens, memoryStore } from '@spillway/core'
import { createMcpProxy } from '@spillway/mcp'

const everything = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js')
const upstream = { name: 'everything', command: process.execPath, args: [everything] }

// A build log the size a real tool returns (60,000 lines, one failure in the middle), sent
// through server-everything's `echo` tool so that the server really returns it.
const log = Array.from({ length: 60_000 }, (_, i) =>
  i === 41_999 ? `[42000] ERROR: test_checkout_total failed: expected 42.00, got 41.99` : `[${i + 1}] ok: compiled module ${i % 311} in ${(i * 7) % 97} ms`,
).join('\n')

const textOf = (r: object): string =>
  (((r as { content?: unknown }).content as { type: string; text?: string }[] | undefined) ?? []).filter((b) => b.type === 'text').map((b) => b.text).join('\n')

async function direct(): Promise<string> {
  const client = new Client({ name: 'example-direct', version: '1.0.0' })
  await client.connect(new StdioClientTransport({ ...upstream, stderr: 'ignore' }))
  try {
    return textOf(await client.callTool({ name: 'echo', arguments: { message: log } }))
  } finally {
    await client.close()
  }
}

async function proxied(): Promise<void> {
  const proxy = createMcpProxy({ upstreams: [upstream], store: memoryStore(), spillway: { maxChars: 8_000 }, upstreamStderr: 'ignore' })
  const [hostSide, proxySide] = InMemoryTransport.createLinkedPair()
  await proxy.connect(proxySide)
  const client = new Client({ name: 'example-host', version: '1.0.0' })
  await client.connect(hostSide)
  try {
    const tools = (await client.listTools()).tools.map((t) => t.name)
    console.log(`tools through the proxy: ${tools.length} (${tools.slice(0, 4).join(', ')}, ..., ${tools.at(-1)})`)
    const r = await client.callTool({ name: 'echo', arguments: { message: log } })
    const seen = textOf(r)
    const link = (r.content as { type: string; uri?: string; size?: number }[]).find((b) => b.type === 'resource_link')
    console.log(`through spillway: ${seen.length.toLocaleString('en')} chars, ~${estimateTokens(seen).toLocaleString('en')} tokens`)
    console.log(`\n--- what the model sees (last lines) ---\n${seen.split('\n').slice(-7).join('\n')}\n`)
    if (link?.uri === undefined) throw new Error('expected a resource_link to the spilled result')
    const id = link.uri.replace('spillway://result/', '')
    const grep = await client.callTool({ name: 'fetch_result', arguments: { id, mode: 'grep', pattern: 'ERROR', context: 1 } })
    console.log(`fetch_result grep ERROR:\n${textOf(grep)}\n`)
    const whole = await client.readResource({ uri: link.uri })
    const text = (whole.contents[0] as { text: string }).text
    console.log(`resources/read ${link.uri}: ${text.length.toLocaleString('en')} chars (${link.size?.toLocaleString('en')} bytes), identical to the echoed result: ${text === `Echo: ${log}`}`)
    const small = await client.callTool({ name: 'get-sum', arguments: { a: 40, b: 2 } })
    console.log(`a small result passes unchanged: ${JSON.stringify(small.content)}`)
  } finally {
    await client.close()
    await proxy.close()
  }
}

const before = await direct()
console.log(`direct from the server: ${before.length.toLocaleString('en')} chars, ~${estimateTokens(before).toLocaleString('en')} tokens`)
await proxied()
