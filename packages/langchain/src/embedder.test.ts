import { describe, expect, it } from 'vitest'
import { SyntheticEmbeddings } from '@langchain/core/utils/testing'
import { createToolIndex } from '@spillway/core'
import { embedderFromEmbeddings } from './index.js'

describe('embedderFromEmbeddings', () => {
  it('embeds through the LangChain Embeddings and feeds a semantic index', async () => {
    const embeddings = new SyntheticEmbeddings({ vectorSize: 8 })
    const embedder = embedderFromEmbeddings(embeddings)
    const vectors = await embedder(['a', 'b'])
    expect(vectors).toEqual(await embeddings.embedDocuments(['a', 'b']))
    expect(await embedder([])).toEqual([])
    const index = await createToolIndex([{ name: 'a_tool', description: 'alpha' }], { embedder })
    expect(index.exportVectors()?.dims).toBe(vectors[0]!.length)
  })
})
