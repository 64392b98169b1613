import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

// Workspace packages resolve each other's TypeScript source through the
// `@spillway/source` export condition, so the tests need no build step.
export default defineConfig({
  resolve: { conditions: ['@spillway/source'] },
  ssr: { resolve: { conditions: ['@spillway/source'] } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'bench/**/*.test.ts', 'examples/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 30_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: 1 on a 2-core CI machine, where much of
    // the suite waits on child processes (redis-server, MCP servers, sidecars). Two workers there
    // took the run from 284 s to 187 s; a third gained 10% more and added contention.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
})
