import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { trimResult } from '../../pipeline/trim-result.js'
import { MAX_EPILOGUE_LINES, mergeEpilogue } from './epilogue.js'

const ts = (i: number) => `2023-04-10T02:45:${String(i % 60).padStart(2, '0')}.2136466Z `

/** A GitHub Actions job log: `body` lines of a failing step, the runner's error, then its post-steps. */
function jobLog(body: string[], post = true): string {
  const lines = body.map((l, i) => ts(i) + l)
  lines.push(`${ts(0)}##[error]Process completed with exit code 1.`)
  if (post) {
    lines.push(`${ts(1)}Post job cleanup.`, `${ts(1)}[command]/usr/bin/git version`, `${ts(1)}git version 2.40.0`)
    lines.push(`${ts(2)}Post job cleanup.`, `${ts(2)}[command]/usr/bin/git config --local --unset-all http.https://github.com/.extraheader`, `${ts(2)}Cleaning up orphan processes`)
  }
  return lines.join('\n') + '\n'
}

describe('mergeEpilogue', () => {
  it('merges the post-steps after the last ##[error] into one counted line, numbered from their first line', () => {
    const text = jobLog(['[INFO] Running FooTest', '[ERROR] Tests run: 3, Failures: 1'])
    const out = mergeEpilogue(text)!
    const lines = out.text.split('\n')
    expect(lines.slice(0, 3)).toEqual(text.split('\n').slice(0, 3))
    expect(lines[3]).toBe(`${ts(1)}Post job cleanup. [+5 lines: the CI job's post-steps]`)
    expect(out.text.endsWith('\n')).toBe(true)
    expect(out.lineStarts).toEqual([1, 2, 3, 4])
  })

  it('leaves logs without post-steps, with too few, or with an error after them alone', () => {
    expect(mergeEpilogue(jobLog(['a', 'b'], false))).toBeUndefined()
    expect(mergeEpilogue('Post job cleanup.\nCleaning up orphan processes\n')).toBeUndefined()
    // a post step that failed is part of the story: the epilogue starts after its error
    const failedPost = `${jobLog(['a'])}${ts(3)}##[error]The cache could not be saved\n${ts(3)}done\n`
    expect(mergeEpilogue(failedPost)).toBeUndefined()
    // not at a line's start (after the timestamp): not the runner's line
    expect(mergeEpilogue(`a\nsay Post job cleanup.\nb\nc\nd\n`)).toBeUndefined()
  })

  it('keeps a CRLF log CRLF and handles a last line without a newline', () => {
    const text = jobLog(['x']).trimEnd().replace(/\n/g, '\r\n')
    const out = mergeEpilogue(text)!
    expect(out.text.endsWith("post-steps]")).toBe(true)
    expect(out.text.split('\r\n')).toHaveLength(3)
  })

  it('reads at most MAX_EPILOGUE_LINES lines back from the end', () => {
    const long = `${ts(0)}Post job cleanup.\n${Array.from({ length: MAX_EPILOGUE_LINES + 5 }, (_, i) => `${ts(i)}[command]/usr/bin/git step ${i}`).join('\n')}\n`
    expect(mergeEpilogue(long)).toBeUndefined()
  })

  it('line map: ascending from 1, one entry per output line, lines before the epilogue unchanged (property)', () => {
    const line = fc.oneof(fc.constantFrom('Post job cleanup.', '##[error]boom', 'Cleaning up orphan processes', ''), fc.string({ maxLength: 20 }))
    fc.assert(
      fc.property(fc.array(line, { maxLength: 40 }), fc.boolean(), fc.boolean(), (body, stamped, trailing) => {
        const text = body.map((l, i) => (stamped ? ts(i) : '') + l).join('\n') + (trailing ? '\n' : '')
        const out = mergeEpilogue(text)
        if (out === undefined) return
        const inLines = text.split('\n')
        const outLines = out.text.split('\n')
        expect(out.lineStarts.length).toBe(outLines.length - (out.text.endsWith('\n') ? 1 : 0))
        out.lineStarts.forEach((n, i) => expect(n).toBe(i + 1))
        const last = out.lineStarts.length - 1
        expect(outLines.slice(0, last)).toEqual(inLines.slice(0, last))
        // the merged line counts exactly the lines it stands for
        const stood = inLines.length - (text.endsWith('\n') ? 1 : 0) - last
        expect(outLines[last]).toContain(`[+${stood - 1} lines: the CI job's post-steps]`)
      }),
      { numRuns: 300 },
    )
  })
})

describe('ci-epilogue in trimResult', () => {
  it('the tail shows the failing step, not the runner\'s cleanup; the post-steps are omitted with their numbers', () => {
    const body = Array.from({ length: 400 }, (_, i) => `[INFO] Compiling module ${i} of 400 ... ok`)
    body.push('[ERROR] Tests run: 124, Failures: 0, Errors: 30, Skipped: 0', '[INFO] BUILD FAILURE')
    const post = Array.from({ length: 40 }, (_, i) => `[command]/usr/bin/git config --local --unset-all http.https://github.com/.extraheader ${i}`)
    const text = jobLog(body).trimEnd() + '\n' + post.map((l) => ts(9) + l).join('\n') + '\n'
    const out = trimResult(text, { tool: 'terminal', maxChars: 2000 })
    expect(out.applied).toContain('ci-epilogue')
    expect(out.text.length).toBeLessThanOrEqual(2000)
    expect(out.text).toContain('BUILD FAILURE')
    expect(out.text).toContain("Post job cleanup. [+45 lines: the CI job's post-steps]")
    expect(out.text).not.toContain('Cleaning up orphan processes')
    // every post-step line after the first is reported omitted, at its own line number
    const total = text.split('\n').length - 1
    const postFrom = total - 45 // the summary line's own number
    expect(out.omitted[out.omitted.length - 1]).toEqual({ start: postFrom + 1, end: total, chars: text.split('\n').slice(postFrom, total).join('\n').length + 1 })
  })
})

describe('ci-epilogue omitted ranges (property)', () => {
  it('whenever the summary line is shown, every post-step line after it is in omitted; ranges ascend and never overlap', () => {
    fc.assert(
      fc.property(fc.integer({ min: 5, max: 600 }), fc.integer({ min: 3, max: 80 }), fc.integer({ min: 400, max: 6000 }), fc.constantFrom('terminal', 'bash', undefined), (n, post, maxChars, tool) => {
        const body = Array.from({ length: n }, (_, i) => (i % 97 === 13 ? `[ERROR] test_${i} failed: expected 1 got 2` : `[INFO] step ${i} ok`))
        const steps = Array.from({ length: post }, (_, i) => `${ts(i)}[command]/usr/bin/git config step ${i}`)
        const text = `${jobLog(body)}${steps.join('\n')}\n`
        const out = trimResult(text, tool === undefined ? { maxChars } : { maxChars, tool })
        expect(out.text.length).toBeLessThanOrEqual(maxChars)
        let prev = 0
        for (const r of out.omitted) {
          expect(r.start).toBeGreaterThan(prev)
          expect(r.end).toBeGreaterThanOrEqual(r.start)
          prev = r.end
        }
        const total = text.split('\n').length - 1
        const summary = total - (post + 6) + 1
        if (out.text.includes("lines: the CI job's post-steps]")) {
          for (let line = summary + 1; line <= total; line++) expect(out.omitted.some((r) => r.start <= line && r.end >= line)).toBe(true)
        }
      }),
      { numRuns: 150 },
    )
  })
})
