import { defineConfig } from 'tsup'

export default defineConfig({
  entry: { index: 'src/index.ts', fs: 'src/store/fs/index.ts', testing: 'src/store/testing/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'es2022',
  external: ['vitest'],
})
