/**
 * The player's offline side (docs/offline.md): what the rest of the player calls. The service worker itself is
 * built by vite-plugin-pwa (src/pwa/plugin.ts) and registered by the generated `registerSW.js`.
 */
export {
  type KeptPackage,
  keepPackageOffline,
  keptPackage,
  keptPackages,
  type OfflineOpenResult,
  offlinePackageCache,
  openPackageUrlOffline,
  PACKAGE_CACHE_NAME,
} from './offline'
