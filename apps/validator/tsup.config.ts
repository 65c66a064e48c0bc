import { defineConfig } from 'tsup'

export default defineConfig({
  // `bin`: the command; `validate`: the library entry (`@spkg/validator/validate`), with its types.
  entry: { bin: 'src/bin.ts', validate: 'src/library.ts' },
  format: ['esm'],
  dts: { entry: { validate: 'src/library.ts' } },
  clean: true,
  sourcemap: true,
  target: 'node20',
  platform: 'node',
  removeNodeProtocol: false,
  banner: { js: '#!/usr/bin/env node' },
})
