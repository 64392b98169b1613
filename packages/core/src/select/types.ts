/** A tool as the index sees it: what a model would be shown. */
export interface ToolDescriptor {
  /** Unique tool name, e.g. `github_create_issue` or `browserNavigate`. */
  name: string
  /** What the tool does, as shown to the model. */
  description?: string
  /** JSON Schema of the arguments (an `object` schema with `properties`), when the tool has one. */
  parameters?: unknown
}

/**
 * Turns texts into vectors, one per text, all of the same length. Adapters pass their framework's
 * embedding model. Called in batches when the index is built and once per semantic/hybrid query.
 */
export type Embedder = (texts: string[]) => Promise<number[][] | Float32Array[]>

/** How a query is matched: BM25 only, embeddings only, or both fused with reciprocal rank fusion. */
export type SearchMode = 'keyword' | 'semantic' | 'hybrid'

/** Relative weight of each indexed field in the BM25 score (a term's frequency is multiplied by it). */
export interface FieldWeights {
  /** Tokens of the tool name, split on `_ - . :` and camelCase. Range > 0. @default 3 */
  name: number
  /** Tokens of the description. Range > 0. @default 1 */
  description: number
  /** Parameter names and parameter descriptions from the JSON Schema. Range >= 0. @default 0.5 */
  parameters: number
  /** Text from {@link ToolIndexOptions.extraText} (e.g. a long model-facing description). Range >= 0. @default 0.5 */
  extra: number
}

/** Okapi BM25 parameters. */
export interface Bm25Params {
  /** Term-frequency saturation. Range >= 0. @default 1.2 */
  k1: number
  /** Length normalisation: 0 = none, 1 = full. Range 0..1. @default 0.75 */
  b: number
}

/**
 * Tool vectors saved by {@link ToolIndex.exportVectors} and passed back as
 * {@link ToolIndexOptions.vectors}: keyed by each tool's checksum (name + description + schema),
 * so a changed tool set re-embeds only the tools that changed. Plain JSON.
 */
export interface PersistedVectors {
  /** Format version. */
  version: 1
  /** {@link ToolIndexOptions.embedderId} the vectors were made with; a different id discards them. */
  embedderId: string
  /** Vector length. */
  dims: number
  /** Tool checksum -> vector. */
  vectors: Record<string, number[]>
}

/** Options of {@link createToolIndex}. */
export interface ToolIndexOptions {
  /** Enables `semantic` and `hybrid` search. Without it those modes fall back to `keyword`. */
  embedder?: Embedder
  /**
   * Names the embedding model, so persisted vectors from another model are not reused.
   * @default 'default'
   */
  embedderId?: string
  /** Field weights, merged over {@link DEFAULT_FIELD_WEIGHTS}. */
  fieldWeights?: Partial<FieldWeights>
  /** BM25 parameters, merged over {@link DEFAULT_BM25}. */
  bm25?: Partial<Bm25Params>
  /** Previously exported vectors; tools whose checksum matches are not embedded again. */
  vectors?: PersistedVectors
  /**
   * Extra text to index for a tool as a secondary field (weight `fieldWeights.extra`), e.g. a
   * plugin's long `description_for_model`, or the API's category. Not embedded, not shown.
   * @default undefined (no extra field)
   */
  extraText?: (tool: ToolDescriptor) => string | undefined
  /** Reciprocal rank fusion constant of `hybrid` mode. Range > 0. @default 60 */
  rrfK?: number
}

/** Options of {@link ToolIndex.search}. */
export interface SearchOptions {
  /** Number of hits. Range >= 0. @default 10 */
  k?: number
  /** @default 'hybrid' with an embedder, else 'keyword' */
  mode?: SearchMode
}

/** One search result. */
export interface ToolHit {
  /** Tool name. */
  name: string
  /** Higher is better; BM25 score, cosine similarity or RRF score depending on the mode. */
  score: number
  /** 1-based rank in each leg that found the tool (hybrid mode). */
  ranks?: { keyword?: number; semantic?: number }
}

/** A searchable index over a fixed tool set. Built by {@link createToolIndex}. */
export interface ToolIndex {
  /** Number of tools. */
  readonly size: number
  /** Checksum of the whole tool set (names, descriptions, schemas, in order); computed on first read. */
  readonly checksum: string
  /** Tool names in declaration order. */
  readonly names: readonly string[]
  /** Ranked tools for a query; best first; ties broken by declaration order. */
  search(query: string, opts?: SearchOptions): Promise<ToolHit[]>
  /** BM25 search, synchronous; only tools sharing a term with the query are returned. */
  searchKeyword(query: string, k?: number): ToolHit[]
  /** The tool vectors for persistence, or `undefined` without an embedder. */
  exportVectors(): PersistedVectors | undefined
  /** Whether a tool of that name is in the index. */
  has(name: string): boolean
  /** The descriptor the index was built from. */
  get(name: string): ToolDescriptor | undefined
  /**
   * 0-based declaration position of a tool, or -1 when the index does not have it. Optional for
   * indexes made by hand; {@link createToolIndex} always has it (selectTools then sorts the few
   * chosen names instead of walking every name).
   */
  indexOf?(name: string): number
  /**
   * The mode `search` uses when none is given (`hybrid` with an embedder, else `keyword`).
   * Optional for indexes made by hand; with `keyword`, selectTools calls `searchKeyword` directly.
   */
  readonly defaultMode?: SearchMode
}
