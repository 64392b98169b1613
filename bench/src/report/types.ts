import type { RetrievalRow } from '../suites/retrieval.js'
import type { SpeedRow } from '../suites/speed.js'
import type { StoreResult } from '../suites/store.js'
import type { CompactionResult } from '../suites/compaction.js'
import type { RedactionResult } from '../suites/redaction.js'
import type { BlobFormatRow } from '../suites/blob-format.js'
import type { TrimmingResult } from '../suites/trimming.js'
import type { HeldoutResult } from '../suites/heldout.js'
import type { PrefixResult } from '../suites/prefixes.js'
import type { RetrimResult } from '../suites/retrim.js'

/** Everything one bench run measured: what `report.json` holds. */
export interface Report {
  /** One line: the figures a reader should see first. */
  headline: string
  generatedAt: string
  mode: 'full' | 'quick'
  argv: string[]
  corpus: {
    source: 'dir' | 'synthetic'
    dir?: string
    notes: string[]
    cases: Record<string, number>
    retrievalSets: Array<{ name: string; tools: number; queries: number }>
  }
  tokenizer: string
  versions: Record<string, string>
  machine: { platform: string; arch: string; cpuModel: string; cpus: number; memoryGiB: number }
  methods: {
    trimming: Array<{ id: string; label: string; source: string; budgetNative: boolean }>
    retrieval: ReadonlyArray<{ id: string; label: string; source: string }>
  }
  trimming: TrimmingResult | null
  /** Labelled lines kept on bench/heldout/ (logs never used to write or fit rules); absent in reports written before it existed. */
  heldout?: HeldoutResult | null
  /** Labelled lines kept on bench/devextra/ (a second development set); absent in reports written before it existed. */
  devextra?: HeldoutResult | null
  /** Labelled lines kept on the development logs behind another CI system's line prefix; absent in reports written before it existed. */
  prefixes?: PrefixResult | null
  /** spillway's excerpts trimmed again (the refit). Absent in older reports. */
  retrim?: RetrimResult | null
  speed: SpeedRow[] | null
  /** The store suite (put / cold reads per store, concurrent puts, Redis clients); absent in reports written before it existed. */
  store?: StoreResult | null
  /** Secret redaction: recall on planted fakes, false positives on the clean corpus. */
  redaction?: RedactionResult | null
  /** The blob format: handle() vs SHA-256, cold stat/range/grep bytes and times, codecs; each from a fresh process. */
  format?: BlobFormatRow[] | null
  /** A 60-turn session under three policies for old tool results, with a priced prompt cache. */
  compaction?: CompactionResult[] | null
  retrieval: RetrievalRow[] | null
  memory: { peakRssMiBAfterTrimming: number | null; peakRssMiBEnd: number }
  /** Wall-clock seconds per suite and in total. */
  durations: Record<string, number>
  /** Suites that failed or were skipped, with why. */
  problems: string[]
}
