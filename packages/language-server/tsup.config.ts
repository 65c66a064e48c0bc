import { defineConfig } from 'tsup'

export default defineConfig({
  // `bin`: the command; `node`: the library entry, with its types.
  // `check-worker`: the worker thread of whole-folder checks (background-check.ts loads it).
  entry: { bin: 'src/node/bin.ts', node: 'src/node.ts', 'check-worker': 'src/node/check-worker.ts' },
  format: ['esm'],
  dts: { entry: { node: 'src/node.ts' } },
  clean: true,
  sourcemap: true,
  target: 'node20',
  platform: 'node',
  removeNodeProtocol: false,
  banner: { js: '#!/usr/bin/env node' },
})
