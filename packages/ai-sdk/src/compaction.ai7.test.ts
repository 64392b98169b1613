import { vi } from 'vitest'
import { compactionSuite } from './compaction.suite.js'

// Every 'ai' import in this file's module graph resolves to the ai 7 install (as in loop.ai7.test.ts).
vi.mock('ai', async () => await import('ai-v7'))
vi.mock('ai/test', async () => await import('ai-v7/test'))

compactionSuite('ai 7')
