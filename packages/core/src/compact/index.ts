export { CACHE_PRICING, DEFAULT_COMPACTION, planCompaction, type CachePricing, type CompactionBatch, type CompactionItem, type CompactionOptions, type CompactionPlan } from './plan.js'
export { compactedContent, spilledRef, type SpilledRef } from './handle.js'
export { compactTranscript, type CompactTranscriptOptions, type TranscriptCompaction } from './transcript.js'
