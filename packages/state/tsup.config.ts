import { defineConfig } from 'tsup'

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    node: 'src/node.ts',
    'drivers/memory': 'src/drivers/memory.ts',
    'drivers/local-storage': 'src/drivers/local-storage.ts',
    'drivers/indexeddb': 'src/drivers/indexeddb.ts',
    'drivers/http': 'src/drivers/http.ts',
    'drivers/fs': 'src/node/fs-driver.ts',
    testing: 'src/testing.ts',
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
