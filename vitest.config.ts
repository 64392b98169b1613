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
  },
})
