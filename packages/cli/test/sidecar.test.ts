import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from '../src/index.js'
import { exited, pipeIO, replies, spawnCli } from './io.js'

const dir = mkdtempSync(join(tmpdir(), 'spillway-sidecar-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function terminalResult(marker: string): string {
  const lines: string[] = []
  for (let i = 1; i <= 6000; i++) lines.push(i === 3100 ? `FAILED test_${marker} - AssertionError: 3 != 4` : `[${i}] building target ${i % 31} ok`)
  return JSON.stringify({ output: lines.join('\n'), exit_code: 1, error: null })
}

describe('sidecar over real child-process stdio', () => {
  it('answers a malformed line with bad_json, an unknown op with unknown_op, and keeps going', async () => {
    const child = spawnCli(['sidecar', '--dir', dir])
    const r = replies(child)
    child.stdin.write('{not json\n')
    expect(await r.next()).toMatchObject({ id: null, ok: false, error: { code: 'bad_json' } })
    child.stdin.write('[1,2]\n')
    expect(await r.next()).toMatchObject({ id: null, ok: false, error: { code: 'bad_request' } })
    child.stdin.write('{"id":"a","op":"teleport"}\n')
    const unknown = await r.next()
    expect(unknown).toMatchObject({ id: 'a', ok: false, error: { code: 'unknown_op' } })
    expect(unknown.error.message).toContain('handle')
    child.stdin.write('{"id":7,"op":"handle","sessionId":"s"}\n')
    expect(await r.next()).toMatchObject({ id: 7, ok: false, error: { code: 'bad_request' } })
    child.stdin.write('{"id":9,"op":"fetch","sessionId":"s","blobId":"0123456789ab","mode":"grep","context":"lots"}\n')
    expect(await r.next()).toMatchObject({ id: 9, ok: false, error: { code: 'bad_request', message: 'fetch "context" must be an integer' } })
    child.stdin.write('\n{"id":8,"op":"ping"}\n')
    expect(await r.next()).toMatchObject({ id: 8, ok: true, result: { pong: true } })
    child.stdin.end()
    expect(await exited(child)).toBe(0)
  })

  it('round-trips handle and fetch, scoped by session, and exits 0 when stdin closes', async () => {
    const child = spawnCli(['sidecar', '--dir', dir, '--max-chars', '4000'])
    const r = replies(child)
    const result = terminalResult('roundtrip')
    child.stdin.write(`${JSON.stringify({ id: 1, op: 'handle', sessionId: 's1', tool: 'terminal', result })}\n`)
    const handled = await r.next()
    expect(handled.ok).toBe(true)
    expect(handled.result.changed).toBe(true)
    expect(handled.result.content.length).toBeLessThanOrEqual(4000)
    const blobId: string = handled.result.handle.id
    expect(handled.result.content).toContain(blobId)

    child.stdin.write(`${JSON.stringify({ id: 2, op: 'fetch', sessionId: 's1', blobId, mode: 'grep', pattern: 'test_roundtrip' })}\n`)
    child.stdin.write(`${JSON.stringify({ id: 3, op: 'fetch', sessionId: 'other', blobId, mode: 'grep', pattern: 'test_roundtrip' })}\n`)
    child.stdin.write(`${JSON.stringify({ id: 4, op: 'fetch_result', sessionId: 's1', args: { id: blobId, mode: 'stat' } })}\n`)
    const got = new Map<number, any>()
    for (let i = 0; i < 3; i++) {
      const m = await r.next()
      got.set(m.id, m)
    }
    expect(got.get(2).result.ok).toBe(true)
    expect(got.get(2).result.text).toContain('AssertionError: 3 != 4')
    expect(got.get(3).result.ok).toBe(false)
    expect(got.get(3).result.text).not.toContain('AssertionError')
    expect(got.get(4).result.text).toContain(`chars: ${result.length}`)

    child.stdin.write('{"id":5,"op":"stats","sessionId":"s1"}\n')
    expect(await r.next()).toMatchObject({ id: 5, ok: true, result: { blobs: 1 } })
    child.stdin.end()
    expect(await exited(child)).toBe(0)
  })

  it('exits 0 after shutdown even while stdin stays open', async () => {
    const child = spawnCli(['sidecar', '--dir', dir])
    const r = replies(child)
    child.stdin.write('{"id":1,"op":"shutdown"}\n')
    expect(await r.next()).toEqual({ id: 1, ok: true, result: { bye: true } })
    expect(await exited(child)).toBe(0)
  })
})

describe('sidecar line cap (too_large)', () => {
  it('answers a line over the cap with too_large, keeps serving the other requests, and lives on', async () => {
    const { io, stdin, stdout } = pipeIO({ SPILLWAY_SIDECAR_MAX_LINE_BYTES: '4096' })
    const done = runCli(['sidecar', '--dir', dir], io)
    const small = terminalResult('small').slice(0, 1500) // fits the cap
    stdin.write(`${JSON.stringify({ id: 1, op: 'ping' })}\n`)
    stdin.write(`${JSON.stringify({ id: 2, op: 'handle', sessionId: 'cap', tool: 'terminal', result: terminalResult('big') })}\n`) // ~190 KB
    // An oversized line arriving in pieces, with a pending request before and after it.
    const huge = JSON.stringify({ id: 'h', op: 'trim', result: 'x'.repeat(20_000) })
    stdin.write(huge.slice(0, 3000))
    stdin.write(huge.slice(3000, 9000))
    stdin.write(`${huge.slice(9000)}\n`)
    stdin.write(`${JSON.stringify({ op: 'trim', result: 'y'.repeat(5000), id: 'late-id' })}\n`) // id not first: cannot be told
    stdin.write(`${JSON.stringify({ id: 3, op: 'trim', result: small, maxChars: 500 })}\r\n`)
    stdin.end(`${JSON.stringify({ id: 4, op: 'ping' })}`) // last line without a line break
    expect(await done).toBe(0)
    const lines = stdout.text().trim().split('\n').map((l) => JSON.parse(l))
    const byId = new Map(lines.map((l) => [l.id, l]))
    expect(lines).toHaveLength(6)
    expect(byId.get(1)).toMatchObject({ ok: true, result: { pong: true } })
    expect(byId.get(2)).toMatchObject({ ok: false, error: { code: 'too_large' } })
    expect(byId.get(2).error.message).toMatch(/^line 2 is over the 4096-byte limit of one request line and was discarded; send a smaller result/)
    expect(byId.get('h')).toMatchObject({ ok: false, error: { code: 'too_large', message: expect.stringMatching(/^line 3 is over/) } })
    expect(byId.get(null)).toMatchObject({ ok: false, error: { code: 'too_large', message: expect.stringMatching(/^line 4 is over/) } })
    expect(byId.get(3)).toMatchObject({ ok: true, result: { changed: true } })
    expect(byId.get(4)).toMatchObject({ ok: true, result: { pong: true } })
  })

  it('a child process with a lowered cap survives an oversized line and answers the next one', async () => {
    const child = spawnCli(['sidecar', '--dir', dir], { SPILLWAY_SIDECAR_MAX_LINE_BYTES: '65536' })
    const r = replies(child)
    child.stdin.write(`${JSON.stringify({ id: 1, op: 'trim', result: 'z'.repeat(1_000_000) })}\n`)
    expect(await r.next()).toMatchObject({ id: 1, ok: false, error: { code: 'too_large' } })
    child.stdin.write('{"id":2,"op":"ping"}\n')
    expect(await r.next()).toMatchObject({ id: 2, ok: true, result: { pong: true } })
    child.stdin.end()
    expect(await exited(child)).toBe(0)
  })

  it('refuses a cap that is not a positive integer', async () => {
    const { io, stderr } = pipeIO({ SPILLWAY_SIDECAR_MAX_LINE_BYTES: 'lots' })
    expect(await runCli(['sidecar', '--dir', dir], io)).toBe(2)
    expect(stderr.text()).toContain('SPILLWAY_SIDECAR_MAX_LINE_BYTES must be an integer >= 1, got "lots"')
  })
})

describe('sidecar in process', () => {
  it('answers every pending request before it returns on stdin close', async () => {
    const { io, stdin, stdout } = pipeIO()
    const done = runCli(['sidecar', '--dir', dir], io)
    for (let i = 0; i < 5; i++) stdin.write(`${JSON.stringify({ id: i, op: 'handle', sessionId: `p${i}`, tool: 'terminal', result: terminalResult(`p${i}`) })}\n`)
    stdin.end()
    expect(await done).toBe(0)
    const lines = stdout.text().trim().split('\n').map((l) => JSON.parse(l))
    expect(lines.map((l) => l.id).sort()).toEqual([0, 1, 2, 3, 4])
    expect(lines.every((l) => l.ok && l.result.changed && typeof l.result.handle.id === 'string')).toBe(true)
  })

  it('reports a small result as unchanged without echoing it', async () => {
    const { io, stdin, stdout } = pipeIO()
    const done = runCli(['sidecar', '--dir', dir], io)
    stdin.end('{"id":1,"op":"handle","sessionId":"s","tool":"terminal","result":"ok"}\n{"id":2,"op":"describe"}\n')
    expect(await done).toBe(0)
    const [a, b] = stdout.text().trim().split('\n').map((l) => JSON.parse(l)).sort((x, y) => x.id - y.id)
    expect(a.result).toEqual({ changed: false })
    expect(b.result.fetchTool.name).toBe('fetch_result')
    expect(b.result.fetchTool.parameters.type).toBe('object')
  })
})
