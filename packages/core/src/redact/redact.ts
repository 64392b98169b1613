import { DEFAULT_SECRET_RULES, isPlaceholder, type SecretRule } from './rules.js'

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

/** Rules of one case mode compiled into one alternation: one pass over the text for all of them. */
interface Compiled {
  re: RegExp
  /** Per rule: its top-level group number in `re`, and its own groups after that. */
  branches: { rule: SecretRule; at: number }[]
}

const groupCount = (source: string): number => new RegExp(`${source}|`).exec('')!.length - 1

function compile(rules: readonly SecretRule[]): Compiled[] {
  const out: Compiled[] = []
  for (const ci of [false, true]) {
    const mine = rules.filter((r) => r.pattern.ignoreCase === ci)
    if (mine.length === 0) continue
    let at = 1
    const branches = mine.map((rule) => {
      const b = { rule, at }
      at += 1 + groupCount(rule.pattern.source)
      return b
    })
    out.push({ re: new RegExp(mine.map((r) => `(${r.pattern.source})`).join('|'), ci ? 'gi' : 'g'), branches })
  }
  return out
}

const compiledDefaults = new WeakMap<readonly SecretRule[], Compiled[]>()

/**
 * Replaces credentials in a tool result by `[REDACTED:<kind>]` before anything is stored or
 * excerpted: cloud keys, code-host and AI-provider tokens, private key blocks, JWTs, passwords in
 * URLs and `password=` / `"api_key":` style assignments (the key name stays readable). Pure,
 * deterministic, linear in the input (every rule is a literal prefix and bounded classes, skipped
 * when its prefix is absent); the number of lines never changes, so line numbers stay true.
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
  let passes = compiledDefaults.get(rules)
  if (passes === undefined) compiledDefaults.set(rules, (passes = compile(rules)))
  for (const { re, branches } of passes) {
    re.lastIndex = 0
    out = out.replace(re, (match: string, ...groups: unknown[]) => {
      const b = branches.find((x) => groups[x.at - 1] !== undefined)
      if (b === undefined) return match
      const r = b.rule
      const secret = r.group === undefined ? match : (groups[b.at - 1 + r.group] as string | undefined)
      if (secret === undefined || secret.includes('\n') || (r.group !== undefined && isPlaceholder(secret))) return match
      kinds[r.kind] = (kinds[r.kind] ?? 0) + 1
      if (r.group === undefined) return marker(r.kind)
      const cut = match.lastIndexOf(secret)
      return match.slice(0, cut) + marker(r.kind) + match.slice(cut + secret.length)
    })
  }
  const sorted: Record<string, number> = {}
  let count = 0
  for (const k of Object.keys(kinds).sort()) (sorted[k] = kinds[k]!), (count += kinds[k]!)
  return { text: count === 0 ? text : out, count, kinds: sorted }
}
