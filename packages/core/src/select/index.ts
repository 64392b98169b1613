export type {
  Bm25Params,
  Embedder,
  FieldWeights,
  PersistedVectors,
  SearchMode,
  SearchOptions,
  ToolDescriptor,
  ToolHit,
  ToolIndex,
  ToolIndexOptions,
} from './types.js'
export { createToolIndex, DEFAULT_SEARCH_K } from './tool-index.js'
export { selectTools, type SelectToolsOptions } from './select-tools.js'
export { buildBm25, DEFAULT_BM25, idf, type Bm25Index, type DocScore, type WeightedTerms } from './bm25.js'
export { reciprocalRankFusion, DEFAULT_RRF_K, type Fused } from './rrf.js'
export { DEFAULT_FIELD_WEIGHTS, parameterText, toolTerms, embeddingText } from './fields.js'
export { STOP_WORDS, splitWords, tokenize } from './tokenize.js'
export { stem } from './stem.js'
export { hash64, stableJson, toolChecksum, toolSetChecksum } from './checksum.js'
export { DEFAULT_EMBED_BATCH } from './vectors.js'
