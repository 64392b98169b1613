/**
 * The project's own frame of a stack trace. A trace printed under a failure is mostly frames of
 * the test framework, the runtime and the libraries (`vendor/bundle/.../gems/`, `node_modules/`,
 * `site-packages/`, `node:internal`); the line a reader looks for is the first frame in the
 * project's code (the test file and line that failed), which error trackers call the first
 * "in-app" frame. It rarely carries a failure keyword, so the scan does not find it: this adds it
 * as a candidate.
 *
 * Cost: after each salient line, at most {@link TRACE_GAP} lines to find a trace and at most
 * {@link MAX_TRACE} frames of it, each read over a bounded prefix; a trace is walked once.
 */
import { isDigit } from './chars.js'
import { lineAt, nextStart, type Line } from './lines.js'
import type { SalientLine } from './salient.js'
import { afterLinePrefix } from './shapes.js'

/** Lines after a salient line within which its trace must start. */
export const TRACE_GAP = 3
/** Frames of one trace read at most. */
export const MAX_TRACE = 60
/** Chars of a frame line read at most. */
const FRAME_PROBE = 300

/** Parts of a path that mark code the project depends on, not its own. */
const DEPENDENCY_MARKS = [
  'vendor/', 'gems/', 'node_modules/', 'site-packages/', 'dist-packages/', '/.rustup/', '/.cargo/registry/',
  'node:internal', '/rubygems/', '/lib/ruby/', '/lib/python', '/usr/lib/', '/usr/local/lib/', '/.nvm/', '/jdk/',
  '/Library/Developer/', '/.m2/', '/.gradle/', '\\Microsoft.NET\\', '/dotnet/', '<frozen ', '/go/pkg/mod/', '/usr/local/go/',
]


/**
 * The location path of a frame line `[start, end)`, or `undefined` when the line is not a frame:
 * indented or starting with `at ` (after a CI timestamp), holding `path:<digits>` whose path has a
 * `/` or `\`. Reads at most {@link FRAME_PROBE} chars.
 */
export function framePath(text: string, start: number, end: number): string | undefined {
  const from = afterLinePrefix(text, start, end)
  const stop = Math.min(end, from + FRAME_PROBE)
  const c = text.charCodeAt(from)
  // indented, or `at ` (read by char code: this runs once per salient line and its neighbours)
  if (!(c === 32 || c === 9 || (c === 97 && text.charCodeAt(from + 1) === 116 && text.charCodeAt(from + 2) === 32))) return undefined
  for (let i = from; i < stop; i++) {
    if (text.charCodeAt(i) !== 58 || !isDigit(text.charCodeAt(i + 1))) continue
    // the token before the `:<digits>`: back to a blank, `(` or `"`; a path has a `/` or `\`
    let b = i
    let slash = false
    for (let d = text.charCodeAt(b - 1); b > from && d !== 32 && d !== 9 && d !== 40 && d !== 34; d = text.charCodeAt(--b - 1)) slash ||= d === 47 || d === 92
    if (!slash) continue
    // A URL's host and port (`'socks4://example.com:1234'` in a code frame's source line) is an
    // address, not a frame; a URL with a path before the `:<line>` is a frame (a browser's
    // `http://localhost:9876/base/src/a.js:12:5`, an ES module's `file:///src/a.mjs:12:5`).
    const token = text.slice(b, i)
    const scheme = token.indexOf('://')
    if (scheme !== -1 && token.indexOf('/', scheme + 3) === -1) continue
    return token
  }
  return undefined
}

/** True when the frame path is in a dependency, a runtime or the toolchain (see {@link DEPENDENCY_MARKS}). */
export function isDependencyPath(path: string): boolean {
  return DEPENDENCY_MARKS.some((m) => path.includes(m))
}

/**
 * The first project frame (see the module note) of each trace that starts within
 * {@link TRACE_GAP} lines after a salient line of score >= 2, as candidates with that line's
 * score, each inside `[from, to)` (the caller skips lines already salient). A location line under a diagnostic
 * (`  --> src/a.rs:12:5`) reads as a one-frame trace and is added the same way.
 */
export function appFrames(text: string, salient: readonly SalientLine[], from: number, to: number): SalientLine[] {
  const out: SalientLine[] = []
  let walked = -1 // offset up to which traces were walked
  for (const s of salient) {
    if (s.score < 2 || s.start < walked) continue
    let at = nextStart(text, s.start)
    let frame: Line | undefined
    for (let k = 1; k <= TRACE_GAP && at < to; k++) {
      const l = lineAt(text, s.line + k, at)
      if (framePath(text, l.start, l.end) !== undefined) {
        frame = l
        break
      }
      at = nextStart(text, at)
    }
    if (frame === undefined) continue
    let found = false
    for (let k = 0; k < MAX_TRACE && frame.end < to; k++) {
      const path = framePath(text, frame.start, frame.end)
      if (path === undefined) break
      if (!found && !isDependencyPath(path)) {
        found = true
        if (frame.start >= from) out.push({ line: frame.n, start: frame.start, end: frame.end, score: s.score, frame: true })
      }
      frame = lineAt(text, frame.n + 1, nextStart(text, frame.start))
    }
    walked = frame.start
  }
  return out
}
