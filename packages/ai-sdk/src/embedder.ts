import type { EmbeddingModel } from 'ai'
import { embedMany } from 'ai'
import type { Embedder } from '@spillway/core'

/** Options of {@link embedderFromModel}, passed through to `embedMany`. */
export interface EmbedderFromModelOptions {
  /** Retries per batch on transient errors. @default the SDK's (2) */
  maxRetries?: number
  /** Parallel `doEmbed` calls when the model splits a batch. @default the SDK's (Infinity) */
  maxParallelCalls?: number
}

/**
 * Uses an AI SDK embedding model as spillway's {@link Embedder} (through `embedMany`), so tool
 * selection can run in `semantic` / `hybrid` mode.
 *
 * @example
 * ```ts
 * const index = await createToolIndex(await toolDescriptors(tools), {
 *   embedder: embedderFromModel(openai.embedding('text-embedding-3-small')),
 *   embedderId: 'openai/text-embedding-3-small',
 * })
 * ```
 */
export function embedderFromModel(model: EmbeddingModel, options: EmbedderFromModelOptions = {}): Embedder {
  return async (texts) => {
    if (texts.length === 0) return []
    const { embeddings } = await embedMany({ model, values: texts, ...options })
    return embeddings
  }
}
