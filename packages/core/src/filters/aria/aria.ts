import { fitText } from '../../trim/fit.js'
import { resolveProfile } from '../../trim/profiles.js'
import { parseJsonObject } from '../../trim/json-memo.js'

/** Options of {@link trimAria}. */
export interface AriaOptions {
  /**
   * A run of more sibling items of one role than this is collapsed, 2..10000.
   * @default 12
   */
  maxSiblings: number
  /**
   * Items kept at the start of a collapsed run, 1..`maxSiblings`.
   * @default 5
   */
  keepSiblings: number
  /**
   * Share of the budget for the list of interactive elements put first when the snapshot does
   * not fit, 0..1.
   * @default 0.5
   */
  interactiveShare: number
}

/** Defaults of {@link AriaOptions}. */
export const DEFAULT_ARIA: Readonly<AriaOptions> = Object.freeze({ maxSiblings: 12, keepSiblings: 5, interactiveShare: 0.5 })

/** Roles a model acts on: listed first, with their refs. */
export const INTERACTIVE_ROLES: readonly string[] = Object.freeze([
  'link', 'button', 'textbox', 'searchbox', 'combobox', 'checkbox', 'radio', 'switch', 'slider', 'spinbutton', 'menuitem', 'tab', 'option',
])

/** The outline is fitted head-first; error words in page text are not errors, so no salient lines. */
const OUTLINE = { ...resolveProfile('web'), salient: false }

interface Node {
  indent: number
  role: string
  text: string
  children: Node[]
}

/** Indentation and role of a snapshot line (`  - link "Home" [ref=e5]:` -> 2, `link`). */
function lineShape(line: string): { indent: number; role: string } {
  let i = 0
  while (i < line.length && line.charCodeAt(i) === 32) i++
  let j = line.startsWith('- ', i) ? i + 2 : i
  const start = j
  while (j < line.length && line[j] !== ' ' && line[j] !== ':' && line[j] !== '"' && line[j] !== '[') j++
  return { indent: i, role: line.slice(start, j) }
}

/** Noise: `Layout*` roles (layout tables of some browsers) and stealth / diagnostic fields. */
function isNoise(role: string): boolean {
  const r = role.toLowerCase()
  return role.startsWith('Layout') || r.startsWith('stealth') || r.startsWith('diagnostic')
}

/** Parses snapshot lines into a tree (iteratively: any depth is safe), dropping noise and exact repeats. */
function parse(text: string): Node {
  const root: Node = { indent: -1, role: '', text: '', children: [] }
  const stack: Node[] = [root]
  let prev = ''
  for (const raw of text.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    if (line.trim() === '' || line === prev) continue
    prev = line
    const { indent, role } = lineShape(line)
    if (isNoise(role)) continue
    const node: Node = { indent, role, text: line.replaceAll(' [cursor=pointer]', ''), children: [] }
    while (stack.length > 1 && stack[stack.length - 1]!.indent >= indent) stack.pop()
    stack[stack.length - 1]!.children.push(node)
    stack.push(node)
  }
  return root
}

/** Interactive elements in a subtree by role (iterative), added to `counts`. */
function countInteractive(node: Node, counts: Map<string, number>): void {
  const todo = [node]
  while (todo.length > 0) {
    const x = todo.pop()!
    if (INTERACTIVE_ROLES.includes(x.role)) counts.set(x.role, (counts.get(x.role) ?? 0) + 1)
    for (const c of x.children) todo.push(c)
  }
}

/** `180 links, 2 buttons` */
function describeCounts(counts: Map<string, number>): string {
  return [...counts].map(([role, n]) => `${n} ${role}${n === 1 ? '' : role.endsWith('x') ? 'es' : 's'}`).join(', ')
}

/** Renders the tree, collapsing long runs of same-role siblings. Iterative. */
function render(root: Node, opts: AriaOptions): { lines: string[]; interactive: string[] } {
  const lines: string[] = []
  const interactive: string[] = []
  const todo: (Node | string)[] = [...collapse(root.children, opts)].reverse()
  while (todo.length > 0) {
    const x = todo.pop()!
    if (typeof x === 'string') {
      lines.push(x)
      continue
    }
    lines.push(x.text)
    if (INTERACTIVE_ROLES.includes(x.role) && x.text.includes('[ref=')) {
      let item = x.text.trim().replace(/^- /, '').replace(/:$/, '')
      const url = x.children[0]
      if (!item.includes('"') && url?.role === '/url') item += ` -> ${url.text.trim().slice(8)}` // an unnamed link: say where it goes
      interactive.push(item)
    }
    const kids = collapse(x.children, opts)
    for (let i = kids.length - 1; i >= 0; i--) todo.push(kids[i]!)
  }
  return { lines, interactive }
}

/**
 * Children with each run of more than `maxSiblings` same-role items cut to its first items and a
 * count line. `text` siblings between the items (the `, ` of an inline list) belong to the run.
 */
function collapse(children: Node[], opts: AriaOptions): (Node | string)[] {
  const out: (Node | string)[] = []
  for (let i = 0; i < children.length; ) {
    const role = children[i]!.role
    let j = i + 1
    let items = 1
    while (j < children.length && (children[j]!.role === role || (role !== 'text' && children[j]!.role === 'text'))) {
      if (children[j]!.role === role) items++
      j++
    }
    while (j > i + 1 && children[j - 1]!.role !== role) j-- // a trailing separator is not part of the run
    if (items > opts.maxSiblings) {
      let k = i
      for (let seen = 0; k < j && seen < opts.keepSiblings; k++) if (children[k]!.role === role) seen++
      out.push(...children.slice(i, k))
      const rest = children.slice(k, j).filter((c) => c.role === role)
      const counts = new Map<string, number>()
      for (const c of rest) countInteractive(c, counts)
      const inside = counts.size > 0 && !(counts.size === 1 && counts.has(role)) ? ` (${describeCounts(counts)})` : ''
      out.push(`${' '.repeat(children[i]!.indent)}- ... ${rest.length} more ${role}${role.endsWith('x') ? 'es' : 's'}${inside}`)
    } else out.push(...children.slice(i, j))
    i = j
  }
  return out
}

/**
 * A browser accessibility snapshot (Playwright MCP YAML) cleaned: `Layout*` noise lines and
 * stealth / diagnostic fields dropped, repeated lines dropped, `[cursor=pointer]` removed and,
 * when that is not enough, long runs of sibling items collapsed (`- ... 180 more listitems (180 links)`).
 * When that still exceeds `budget`, the interactive elements (links, buttons, inputs) with
 * their refs come first, then the outline fitted head-first. Returns `undefined` when nothing changed.
 */
export function trimAria(text: string, budget: number, options: Partial<AriaOptions> = {}): string | undefined {
  const opts = { ...DEFAULT_ARIA, ...options }
  opts.maxSiblings = Math.min(10_000, Math.max(2, Math.floor(opts.maxSiblings)))
  opts.keepSiblings = Math.min(opts.maxSiblings, Math.max(1, Math.floor(opts.keepSiblings)))
  const tree = parse(text)
  const eol = text.endsWith('\n') ? '\n' : ''
  // Sibling runs are only collapsed when the cleaned snapshot does not fit without that.
  const whole = render(tree, { ...opts, maxSiblings: Infinity })
  const wholeText = whole.lines.join('\n') + eol
  if (wholeText.length <= budget) return wholeText === text ? undefined : wholeText
  const { lines, interactive } = render(tree, opts)
  const cleaned = lines.join('\n') + eol
  if (cleaned.length <= budget) return cleaned
  const listMax = Math.floor(budget * Math.min(1, Math.max(0, opts.interactiveShare)))
  const title = (shown: number): string => `[page snapshot: ${lines.length} lines after cleaning; ${interactive.length} interactive elements, ${shown} listed first; then the outline]`
  const list: string[] = []
  let used = title(interactive.length).length + 60
  for (const item of interactive) {
    if (used + item.length + 1 > listMax) break
    list.push(item)
    used += item.length + 1
  }
  const more = interactive.length > list.length ? [`[... ${interactive.length - list.length} more interactive elements in the outline ...]`] : []
  const head = [title(list.length), ...list, ...more, '--- outline ---'].join('\n')
  const rest = budget - head.length - 1
  if (rest < 200) return fitText(cleaned, budget, OUTLINE).text
  return `${head}\n${fitText(cleaned, rest, OUTLINE).text}`
}

/**
 * A JSON browser result with a `snapshot` string (Hermes `browser_navigate` style): stealth and
 * diagnostic fields dropped, the other fields kept, the snapshot cleaned by {@link trimAria}.
 */
export function trimAriaInJson(text: string, budget: number, options: Partial<AriaOptions> = {}): string | undefined {
  const obj = parseJsonObject(text)
  if (obj === undefined) return undefined
  const snapshot = obj['snapshot']
  if (typeof snapshot !== 'string') return undefined
  const rest: Record<string, unknown> = {}
  for (const k of Object.keys(obj)) if (k !== 'snapshot' && !isNoise(k)) rest[k] = obj[k]
  const fields = JSON.stringify(rest)
  if (fields.length > budget / 3) return undefined
  const body = trimAria(snapshot, budget - fields.length - 11, options) ?? snapshot
  const out = `${fields}\nsnapshot:\n${body}`
  return out.length <= budget || body !== snapshot ? out : undefined
}
