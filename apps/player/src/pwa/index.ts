/**
 * The player's offline side (docs/offline.md): what the rest of the player calls. The service worker itself is
 * built by vite-plugin-pwa (src/pwa/plugin.ts) and registered by public/register-sw.js. The package cache code
 * (src/pwa/offline.ts and the reader's cache) is loaded on the first open, not with the catalog page.
 */
import type { OpenUrlOptions, SavedPackage, SpkgPackage } from '@spkg/reader'
import type { KeptPackage, OfflineOpenResult } from './offline'

export { PACKAGE_CACHE_NAME } from './constants'
export type { KeptPackage, OfflineOpenResult }

const load = () => import('./offline')

/** Opens a package URL online (and keeps it for offline play), else from the copy kept on the device. */
export async function openPackageUrlOffline(
  url: string,
  options: OpenUrlOptions = {},
): Promise<OfflineOpenResult> {
  return (await load()).openPackageUrlOffline(url, options)
}

/** Keeps an opened package for offline play under the address it came from (in the background). */
export async function keepPackageOffline(url: string, pkg: SpkgPackage): Promise<SavedPackage | undefined> {
  return (await load()).keepPackageOffline(url, pkg)
}

/** The offline copy kept for `url`, if any. */
export async function keptPackage(url: string): Promise<KeptPackage | undefined> {
  return (await load()).keptPackage(url)
}

/** Every package kept for offline play. */
export async function keptPackages(): Promise<KeptPackage[]> {
  return (await load()).keptPackages()
}
