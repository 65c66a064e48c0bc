// Registers the player's service worker (src/pwa/plugin.ts, docs/offline.md). An external script, not an inline
// one: the page runs under script-src 'self'. The first time the worker takes control of the page, the catalog
// answers and covers this page loaded before it did are fetched again, through the worker, so that it keeps them:
// the catalog of a first visit is then readable offline too.
if ('serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    const container = navigator.serviceWorker
    if (!container.controller) {
      container.addEventListener(
        'controllerchange',
        () => {
          for (const entry of performance.getEntriesByType('resource')) {
            const url = new URL(entry.name)
            if (url.origin !== location.origin) continue
            if (url.pathname.startsWith('/catalog/') || url.pathname.startsWith('/files/covers/'))
              fetch(url.href, { headers: { accept: 'application/json, image/*' } }).catch(() => {})
          }
        },
        { once: true },
      )
    }
    container.register('/sw.js', { scope: '/' }).catch((err) => {
      console.warn('spkg player: the service worker could not be registered; no offline use', err)
    })
  })
}
