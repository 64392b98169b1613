import type { EmbeddingsInterface } from '@langchain/core/embeddings'
import type { Embedder } from '@spillway/core'

/**
 * Uses a LangChain `Embeddings` (e.g. `new OpenAIEmbeddings()`) as spillway's {@link Embedder}:
 * tools are embedded with `embedDocuments`, so selection can run in `semantic` / `hybrid` mode.
 *
 * @example
 * ```ts
 * const index = await createToolIndex(toolDescriptors(tools), { embedder: embedderFromEmbeddings(embeddings) })
 * ```
 */
export function embedderFromEmbeddings(embeddings: Pick<EmbeddingsInterface, 'embedDocuments'>): Embedder {
  return async (texts) => (texts.length === 0 ? [] : embeddings.embedDocuments(texts))
}
