import { defineConfig } from 'vite'
import { compileHint } from './src/build/compile-hint.ts'
import { pwaPlugins } from './src/pwa/plugin.ts'

// The workspace packages are bundled from their TypeScript sources (the `@spkg/source` export condition), as the
// rest of the repository resolves them.
export default defineConfig({
  // Web app manifest, service worker (app shell precache, catalog and covers at run time): docs/offline.md.
  // The chunk holding the reader is compiled as it downloads (src/build/compile-hint.ts).
  plugins: [pwaPlugins(), compileHint()],
  resolve: { conditions: ['@spkg/source', 'browser', 'module', 'import', 'default'] },
  build: {
    target: 'es2022',
    // One small first load; the catalog, the reader and the story engine are split by Vite where imported lazily.
    chunkSizeWarningLimit: 600,
  },
  server: {
    // `pnpm --filter @spkg/player dev` next to `pnpm start` (port 3000): the API's routes go to the API.
    proxy: {
      '/api': 'http://127.0.0.1:3000',
      '/catalog': 'http://127.0.0.1:3000',
      '/files': 'http://127.0.0.1:3000',
    },
  },
})
