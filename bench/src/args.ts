import { isAbsolute, resolve } from 'node:path'

/** Parsed command line. */
export interface BenchArgs {
  /** Corpus folder given with `--corpus`. */
  corpus?: string
  /** Output folder (`--out`), absolute. */
  out: string
  quick: boolean
  /** Force the generated corpus (`--synthetic`). */
  synthetic: boolean
  /** Suites to run (`--only trimming,speed,retrieval`); all by default. */
  only: Set<'trimming' | 'speed' | 'retrieval' | 'store' | 'mcp'>
  help: boolean
}

/** Usage text. */
export const USAGE = `pnpm bench [--corpus DIR] [--out DIR] [--quick] [--synthetic] [--only trimming,speed,retrieval,store,mcp]
  --corpus DIR   corpus folder (layout of ../shared/corpus); default ../shared/corpus when present
  --out DIR      output folder (default bench/results/)
  --quick        fewer cases, queries, sizes and repetitions (< 1 min)
  --synthetic    use the generated, seeded corpus even when a real one is present
  --only LIST    run only these suites`

/**
 * Parses argv (without node and script). Relative paths resolve against `cwd` (pnpm's INIT_CWD,
 * the folder the user ran `pnpm bench` in). Throws on an unknown flag.
 */
export function parseArgs(argv: readonly string[], cwd: string, defaultOut: string): BenchArgs {
  const args: BenchArgs = { out: defaultOut, quick: false, synthetic: false, only: new Set(['trimming', 'speed', 'retrieval', 'store', 'mcp']), help: false }
  const abs = (p: string): string => (isAbsolute(p) ? p : resolve(cwd, p))
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!
    const value = (): string => {
      const v = argv[++i]
      if (v === undefined || v.startsWith('--')) throw new Error(`${a} needs a value`)
      return v
    }
    if (a === '--') continue // pnpm may pass the separator through
    else if (a === '--quick') args.quick = true
    else if (a === '--synthetic') args.synthetic = true
    else if (a === '--help' || a === '-h') args.help = true
    else if (a === '--corpus') args.corpus = abs(value())
    else if (a === '--out') args.out = abs(value())
    else if (a === '--only') {
      const list = value().split(',').map((s) => s.trim())
      for (const s of list) if (s !== 'trimming' && s !== 'speed' && s !== 'retrieval' && s !== 'store' && s !== 'mcp') throw new Error(`--only: unknown suite "${s}"`)
      args.only = new Set(list as Array<'trimming' | 'speed' | 'retrieval' | 'store' | 'mcp'>)
    } else throw new Error(`unknown argument "${a}"\n${USAGE}`)
  }
  return args
}
