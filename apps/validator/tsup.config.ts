import { defineConfig } from 'tsup'

export default defineConfig({
  entry: { bin: 'src/bin.ts' },
  format: ['esm'],
  dts: false,
  clean: true,
  sourcemap: true,
  target: 'node20',
  platform: 'node',
  removeNodeProtocol: false,
  banner: { js: '#!/usr/bin/env node' },
})
