import { DEFAULT_SECRET_RULES, isPlaceholder, type SecretRule } from './rules.js'
import { compileLiterals, literalCursor, type LiteralSet } from '../scan/literals.js'

/** Options of {@link redactSecrets}. */
export interface RedactOptions {
  /** Rules to run. @default DEFAULT_SECRET_RULES */
  rules?: readonly SecretRule[]
  /** More rules, run after `rules` (your own token formats). @default [] */
  extraRules?: readonly SecretRule[]
}

/** What {@link redactSecrets} did. */
export interface Redaction {
  /** The text with every secret replaced by `[REDACTED:<kind>]`; same number of lines as the input. */
  text: string
  /** Secrets replaced. */
  count: number
  /** Count per kind, sorted by kind. */
  kinds: Record<string, number>
}

const BEGIN = '-----BEGIN '
const KEY_HEADER = /^-----BEGIN (?:[A-Z0-9]+ ){0,4}PRIVATE KEY(?: BLOCK)?-----/
const marker = (kind: string): string => `[REDACTED:${kind}]`

/**
 * Private key blocks, found with indexOf rather than a lazy regex (which would rescan to the end
 * for every header without a footer). The body becomes one marker line plus empty lines, so line
 * numbers after it do not move.
 */
function redactKeyBlocks(text: string, kinds: Record<string, number>): string {
  // Every header holds "PRIVATE KEY": one cheap search (a rare capital first) rules most texts out.
  if (text.indexOf('PRIVATE KEY') < 0) return text
  let at = text.indexOf(BEGIN)
  if (at < 0) return text
  let out = ''
  let from = 0
  while (at >= 0) {
    const header = KEY_HEADER.exec(text.slice(at, at + 80))
    if (header === null) {
      at = text.indexOf(BEGIN, at + BEGIN.length)
      continue
    }
    const bodyStart = at + header[0].length
    const end = text.indexOf('-----END ', bodyStart)
    // No footer: the body is the run of base64-looking lines after the header.
    let bodyEnd = end
    if (end < 0) {
      bodyEnd = bodyStart
      for (;;) {
        const nl = text.indexOf('\n', bodyEnd + 1)
        const line = text.slice(bodyEnd + 1, nl < 0 ? text.length : nl)
        if (line === '' || !/^[A-Za-z0-9+/=\s:-]+$/.test(line)) break
        bodyEnd = nl < 0 ? text.length : nl
        if (nl < 0) break
      }
    }
    const body = text.slice(bodyStart, bodyEnd)
    const newlines = body.split('\n').length - 1
    // The marker goes on the body's first line, below the header, whose line stays as it was.
    const lead = body.startsWith('\n') ? 1 : 0
    out += text.slice(from, bodyStart) + '\n'.repeat(lead) + marker('private-key') + '\n'.repeat(newlines - lead)
    kinds['private-key'] = (kinds['private-key'] ?? 0) + 1
    from = bodyEnd
    at = text.indexOf(BEGIN, bodyEnd)
  }
  return out + text.slice(from)
}

/** What one match becomes: the marker in place of the secret, or `undefined` to leave it (a placeholder, a line break). */
function replacement(r: SecretRule, match: string, secret: string | undefined, kinds: Record<string, number>): string | undefined {
  if (secret === undefined || secret.includes('\n') || (r.group !== undefined && isPlaceholder(secret))) return undefined
  kinds[r.kind] = (kinds[r.kind] ?? 0) + 1
  if (r.group === undefined) return marker(r.kind)
  const cut = match.lastIndexOf(secret)
  return match.slice(0, cut) + marker(r.kind) + match.slice(cut + secret.length)
}

/**
 * The rules of one case mode. When every rule says how its matches begin (`starts`), one finder
 * regex of those literals locates the few places a match can begin and each rule runs there only
 * (sticky). Otherwise, or where candidates are dense (a text made of `gl` would cost a sticky
 * run per two chars), the rules run as one alternation over the whole text. Both give the same
 * result: leftmost match first, the first rule in order at one position, scanning on after each
 * match. Rules whose `contains` literal is absent from the text are left out of either.
 */
interface Pass {
  ci: boolean
  rules: readonly SecretRule[]
  anchored?: { finder: LiteralSet; sticky: RegExp[]; starts: string[][]; byFirst: Map<number, number[]> }
  /** Alternations of the active rules, by which rules are active ('1'/'0' per rule). */
  scans: Map<string, Scan>
}
interface Scan {
  re: RegExp
  /** Per rule: its top-level group number in `re`, and its own groups after that. */
  branches: { rule: SecretRule; at: number }[]
}

/** More candidates than one per this many chars (and than {@link DENSE_MIN}): scan instead. */
const DENSE_CHARS = 32
const DENSE_MIN = 4096

const groupCount = (source: string): number => new RegExp(`${source}|`).exec('')!.length - 1
const escapeLiteral = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')

/** The literals, without those another one is a prefix of (a finder needs only the shorter). */
function shortest(literals: readonly string[]): string[] {
  const sorted = [...new Set(literals)].sort()
  return sorted.filter((l, i) => !sorted.slice(0, i).some((p) => l.startsWith(p)))
}

function compilePass(rules: readonly SecretRule[], ci: boolean): Pass {
  const pass: Pass = { ci, rules, scans: new Map() }
  if (!rules.every((r) => r.starts !== undefined && r.starts.length > 0 && r.starts.every((l) => l !== ''))) return pass
  const starts = rules.map((r) => r.starts!.map((l) => (ci ? l.toLowerCase() : l)))
  const byFirst = new Map<number, number[]>()
  starts.forEach((ls, i) => {
    for (const code of new Set(ls.map((l) => l.charCodeAt(0)))) byFirst.set(code, [...(byFirst.get(code) ?? []), i])
  })
  const finder = compileLiterals(shortest(starts.flat()), { ignoreCase: ci })
  pass.anchored = { finder, sticky: rules.map((r) => new RegExp(r.pattern.source, ci ? 'iy' : 'y')), starts, byFirst }
  return pass
}

/** One pass per case mode (case-sensitive rules first, as the rules are listed). */
function compile(rules: readonly SecretRule[]): Pass[] {
  const out: Pass[] = []
  for (const ci of [false, true]) {
    const mine = rules.filter((r) => r.pattern.ignoreCase === ci)
    if (mine.length > 0) out.push(compilePass(mine, ci))
  }
  return out
}

/** Can rule `r` match in `text`: it has no `contains`, or `text` holds that literal? */
const canMatch = (text: string, r: SecretRule, ci: boolean): boolean =>
  r.contains === undefined || (ci ? new RegExp(escapeLiteral(r.contains), 'i').test(text) : text.includes(r.contains))

function runScan(text: string, pass: Pass, active: readonly boolean[], kinds: Record<string, number>): string {
  const key = active.map((a) => (a ? '1' : '0')).join('')
  let scan = pass.scans.get(key)
  if (scan === undefined) {
    const mine = pass.rules.filter((_, i) => active[i])
    let at = 1
    const branches = mine.map((rule) => {
      const b = { rule, at }
      at += 1 + groupCount(rule.pattern.source)
      return b
    })
    pass.scans.set(key, (scan = { re: new RegExp(mine.map((r) => `(${r.pattern.source})`).join('|'), pass.ci ? 'gi' : 'g'), branches }))
  }
  const { re, branches } = scan
  re.lastIndex = 0
  return text.replace(re, (match: string, ...groups: unknown[]) => {
    const b = branches.find((x) => groups[x.at - 1] !== undefined)
    if (b === undefined) return match
    const r = b.rule
    return replacement(r, match, r.group === undefined ? match : (groups[b.at - 1 + r.group] as string | undefined), kinds) ?? match
  })
}

/** Every position where a finder literal begins, in increasing order; `undefined` when they are dense. */
function candidates(text: string, finder: LiteralSet): number[] | undefined {
  const limit = Math.max(DENSE_MIN, text.length / DENSE_CHARS)
  const found: number[] = []
  const cursor = literalCursor(text, finder)
  // `p + 1`: also a literal beginning inside another's hit
  for (let p = cursor.next(0); p !== -1; p = cursor.next(p + 1)) if (found.push(p) > limit) return undefined
  return found
}

/** Does one of `starts` begin at `at` (ignoring case when `ci`; `starts` are then lower case)? */
function startsAt(text: string, at: number, starts: readonly string[], ci: boolean): boolean {
  for (const l of starts) if (ci ? text.slice(at, at + l.length).toLowerCase() === l : text.startsWith(l, at)) return true
  return false
}

function runPass(text: string, pass: Pass, kinds: Record<string, number>): string {
  const a = pass.anchored
  const at = a === undefined ? undefined : candidates(text, a.finder)
  if (a === undefined || at === undefined) {
    const all = pass.rules.map((r) => canMatch(text, r, pass.ci))
    return all.includes(true) ? runScan(text, pass, all, kinds) : text
  }
  // `contains` is looked up only for a rule some candidate reaches (a text with none pays nothing).
  const active: (boolean | undefined)[] = []
  let out = ''
  let from = 0 // text before this is in `out`
  let next = 0 // a match ended here: positions before it are consumed
  for (const p of at) {
    if (p < next) continue
    const first = text.charCodeAt(p)
    for (const i of a.byFirst.get(pass.ci ? String.fromCharCode(first).toLowerCase().charCodeAt(0) : first) ?? []) {
      if (!startsAt(text, p, a.starts[i]!, pass.ci) || !(active[i] ??= canMatch(text, pass.rules[i]!, pass.ci))) continue
      const sticky = a.sticky[i]!
      sticky.lastIndex = p
      const m = sticky.exec(text)
      if (m === null) continue
      const rule = pass.rules[i]!
      next = p + m[0].length
      const rep = replacement(rule, m[0], rule.group === undefined ? m[0] : m[rule.group], kinds)
      if (rep !== undefined) {
        out += text.slice(from, p) + rep
        from = next
      }
      break
    }
  }
  return from === 0 ? text : out + text.slice(from)
}

const compiledRules = new WeakMap<readonly SecretRule[], Pass[]>()


/**
 * Replaces credentials in a tool result by `[REDACTED:<kind>]` before anything is stored or
 * excerpted: cloud keys, code-host and AI-provider tokens, private key blocks, JWTs, passwords in
 * URLs and `password=` / `"api_key":` style assignments (the key name stays readable). Pure,
 * deterministic, linear in the input (every rule is a literal prefix and bounded classes). One
 * regex of the rules' `starts` literals finds where a secret can begin, and the rules run only
 * there, so a text without candidates costs two scans (case-sensitive and not); a text without
 * "PRIVATE KEY" skips the key-block search. No copy is made when nothing is replaced. The number
 * of lines never changes, so line numbers stay true.
 *
 * @example
 * redactSecrets('export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE').text
 * // 'export AWS_ACCESS_KEY_ID=[REDACTED:aws-access-key]'
 */
export function redactSecrets(text: string, options: RedactOptions = {}): Redaction {
  const kinds: Record<string, number> = {}
  let out = redactKeyBlocks(text, kinds)
  const base = options.rules ?? DEFAULT_SECRET_RULES
  const rules = options.extraRules?.length ? [...base, ...options.extraRules] : base
  let passes = compiledRules.get(rules)
  if (passes === undefined) compiledRules.set(rules, (passes = compile(rules)))
  for (const pass of passes) out = runPass(out, pass, kinds)
  const sorted: Record<string, number> = {}
  let count = 0
  for (const k of Object.keys(kinds).sort()) (sorted[k] = kinds[k]!), (count += kinds[k]!)
  return { text: count === 0 ? text : out, count, kinds: sorted }
}
