/**
 * The build side of the installable, offline player (vite.config.ts adds these plugins; see docs/offline.md):
 *
 * - vite-plugin-pwa (Workbox `generateSW`) writes `sw.js`, its Workbox runtime and `manifest.webmanifest`; the
 *   worker is registered by public/register-sw.js, an external script (no inline script: the page runs under
 *   `script-src 'self'`), which also fetches again, through the worker, the catalog answers and covers the page
 *   loaded before the worker took control (the first visit), so that they are kept for offline use.
 * - The worker precaches the app shell (the page, its hashed bundles, styles, icons and manifest) and answers every
 *   navigation with the cached page (the player routes with `#/...` only), except the API's own addresses.
 * - At run time it keeps the last catalog answers (`/catalog/*`, network first, so online readers always get
 *   fresh data) and story covers (`/files/covers/*`, immutable). Package bytes are NOT cached by the worker: they
 *   come as HTTP ranges, and the reader keeps them itself (src/pwa/offline.ts over Cache Storage).
 * - A small plugin adds the theme colour, the icon links and that script to index.html.
 */
import type { Plugin, PluginOption } from 'vite'
import { VitePWA } from 'vite-plugin-pwa'

/** The player's theme colour (the accent of styles.css). */
export const THEME_COLOR = '#1a4f8b'
const BACKGROUND_COLOR = '#fdfcf9'

/** Names of the Cache Storage caches the service worker fills at run time. */
export const RUNTIME_CACHES = { catalog: 'spkg-catalog', covers: 'spkg-covers' } as const

function headLinks(): Plugin {
  return {
    name: 'spkg-player-head-links',
    transformIndexHtml: () => [
      { tag: 'meta', attrs: { name: 'theme-color', content: THEME_COLOR }, injectTo: 'head' },
      { tag: 'link', attrs: { rel: 'icon', href: '/icon.svg', type: 'image/svg+xml' }, injectTo: 'head' },
      { tag: 'link', attrs: { rel: 'apple-touch-icon', href: '/apple-touch-icon.png' }, injectTo: 'head' },
      { tag: 'script', attrs: { src: '/register-sw.js', defer: true }, injectTo: 'head' },
    ],
  }
}

/** The PWA plugins of the player's Vite build. */
export function pwaPlugins(): PluginOption[] {
  return [
    headLinks(),
    VitePWA({
      strategies: 'generateSW',
      registerType: 'autoUpdate',
      // Registered by public/register-sw.js (external, so CSP-safe; it also warms the catalog cache).
      injectRegister: false,
      filename: 'sw.js',
      manifestFilename: 'manifest.webmanifest',
      includeAssets: ['icon.svg', 'apple-touch-icon.png'],
      manifest: {
        id: '/',
        name: 'spkg player',
        short_name: 'spkg',
        description: 'Read interactive branching stories packaged as .spkg, online or offline.',
        lang: 'en',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        theme_color: THEME_COLOR,
        background_color: BACKGROUND_COLOR,
        icons: [
          { src: '/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
          { src: '/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{html,js,css,svg,png,webmanifest,woff2,wasm}'],
        cleanupOutdatedCaches: true,
        clientsClaim: true,
        skipWaiting: true,
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api\//, /^\/catalog\//, /^\/files\//],
        runtimeCaching: [
          {
            urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/catalog/'),
            method: 'GET',
            handler: 'NetworkFirst',
            options: {
              cacheName: RUNTIME_CACHES.catalog,
              networkTimeoutSeconds: 5,
              expiration: { maxEntries: 200 },
              cacheableResponse: { statuses: [200] },
            },
          },
          {
            urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/files/covers/'),
            method: 'GET',
            handler: 'CacheFirst',
            options: {
              cacheName: RUNTIME_CACHES.covers,
              expiration: { maxEntries: 300 },
              cacheableResponse: { statuses: [200] },
            },
          },
        ],
      },
    }),
  ]
}
