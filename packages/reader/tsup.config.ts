import { defineConfig } from 'tsup'

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    node: 'src/node.ts',
  },
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'es2022',
  platform: 'neutral',
  external: [/^node:/],
  // keep `node:fs`, not `fs`: browser bundlers then know these are Node built-ins, not packages to polyfill
  removeNodeProtocol: false,
})
