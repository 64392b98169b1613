/** Event lists (kanban cards, activity logs): the last events of each `Events` section. */

/** Options of {@link trimEvents}. */
export interface EventsOptions {
  /**
   * Events kept per section (the last ones), 1..10000.
   * @default 10
   */
  keep: number
}

/** Defaults of {@link EventsOptions}. */
export const DEFAULT_EVENTS: Readonly<EventsOptions> = Object.freeze({ keep: 10 })

/** The first char of a line that is not a blank or a heading's mark (`#`, `*`, `=`). */
const FIRST_WORD = /[^\s#*=]/

/** Whether char `c` may start a header's word (`events`, `event ...`, `activity`, `history`, `recent events`), in either case. */
function mayStartHeaderWord(c: number): boolean {
  const lower = c | 32
  return lower === 101 || lower === 97 || lower === 104 || lower === 114
}

/** `Events (80):`, `## Events`, `events:`, `Event log`, `Activity (12)`: the header of an event section. */
export function isEventsHeader(line: string): boolean {
  // (every header's word starts with one of these after its marks and blanks: most lines stop
  // here, before the copies below)
  if (!mayStartHeaderWord(line.charCodeAt(line.search(FIRST_WORD)))) return false
  let s = line.trim()
  while (s.startsWith('#') || s.startsWith('*') || s.startsWith('=')) s = s.slice(1).trimStart()
  s = s.toLowerCase()
  if (s.endsWith(':')) s = s.slice(0, -1).trimEnd()
  const paren = s.indexOf('(')
  if (paren > 0 && s.endsWith(')')) s = s.slice(0, paren).trimEnd()
  return s === 'events' || s === 'event log' || s === 'event history' || s === 'activity' || s === 'recent events' || s === 'history'
}

/**
 * Whether some line of `text` is an events header, read without splitting the text: a line whose
 * first char is a plain ASCII char (not a blank or a heading's mark) is decided by that char, as
 * {@link isEventsHeader} decides it first; any other line is passed to it whole.
 */
function hasEventsHeader(text: string): boolean {
  for (let start = 0; start <= text.length; ) {
    let end = text.indexOf('\n', start)
    if (end === -1) end = text.length
    const c = text.charCodeAt(start)
    const plain = c < 128 && c !== 32 && c !== 9 && c !== 10 && c !== 11 && c !== 12 && c !== 13 && c !== 35 && c !== 42 && c !== 61
    if (plain) {
      if (mayStartHeaderWord(c) && isEventsHeader(text.slice(start, end))) return true
    } else if (start < end && isEventsHeader(text.slice(start, end))) return true
    start = end + 1
  }
  return false
}

/** A line that opens another section: a `#` heading, or a flush-left `Title:` / `Title (N):` line. */
function isSectionHeader(line: string): boolean {
  if (line.startsWith('#')) return true
  if (line.length === 0 || line.startsWith(' ') || line.startsWith('\t') || line.startsWith('-') || line.startsWith('*')) return false
  const t = line.trimEnd()
  return t.endsWith(':') && t.length < 80 && !t.slice(0, -1).includes(': ')
}

/**
 * In every event section (see {@link isEventsHeader}), only the last `keep` events stay, after a
 * line with the count of older ones; headers and every other section are kept as they are.
 * Returns `undefined` when no section has more than `keep` events.
 */
export function trimEvents(text: string, options: Partial<EventsOptions> = {}): string | undefined {
  const keep = Math.min(10_000, Math.max(1, Math.floor(options.keep ?? DEFAULT_EVENTS.keep)))
  if (!hasEventsHeader(text)) return undefined
  const lines = text.split('\n')
  const out: string[] = []
  let changed = false
  for (let i = 0; i < lines.length; ) {
    const line = lines[i]!
    out.push(line)
    i++
    if (!isEventsHeader(line)) continue
    // the section: up to the next header, or a blank line followed by a flush-left line
    let j = i
    while (j < lines.length && !isSectionHeader(lines[j]!) && !isEventsHeader(lines[j]!)) {
      if (lines[j]!.trim() === '' && j + 1 < lines.length && lines[j + 1]!.length > 0 && !/^[\s\-*]/.test(lines[j + 1]!)) break
      j++
    }
    let end = j
    while (end > i && lines[end - 1]!.trim() === '') end-- // trailing blank lines stay after the section
    const events = lines.slice(i, end).filter((l) => l.trim() !== '')
    if (events.length > keep) {
      const indent = /^\s*/.exec(events[0]!)![0]
      out.push(`${indent}[... ${events.length - keep} older events omitted ...]`, ...events.slice(events.length - keep))
      changed = true
    } else out.push(...lines.slice(i, end))
    out.push(...lines.slice(end, j))
    i = j
  }
  return changed ? out.join('\n') : undefined
}
