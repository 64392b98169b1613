import { defineConfig } from 'tsup'

export default defineConfig({
  entry: { index: 'src/index.ts', fs: 'src/store/fs/index.ts', testing: 'src/store/testing/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  // No source maps in the tarball: they would point at ../src, which is not published (and were most of its size).
  sourcemap: false,
  target: 'es2022',
  external: ['vitest'],
})
