/**
 * The offline cache and delta updates on the web backend, for the browser entry (`@spkg/reader`);
 * `@spkg/reader/node` exports the same names on the Node backend (node/cache-on-node.ts), plus
 * the folder driver.
 */
import type { OpenOptions, OpenResult } from '../open/types'
import {
  type InstalledPackage,
  type UpdateOptions,
  type UpdateResult,
  update,
} from '../update/update-package'
import { webBackend } from '../zip/backend'
import { openCached } from './offline'
import type { PackageCache, PackageRef } from './types'

export type { InstalledPackage, UpdateOptions, UpdateResult } from '../update/update-package'
export { createCacheStorageDriver } from './cache-storage-driver'
export { createPackageCache } from './create-package-cache'
export { createMemoryCacheDriver } from './memory-driver'
export { keepOffline, type SavedPackage, savePackageOffline } from './offline'
export type { CacheDriver, CachedFile, CachedVersion, PackageCache, PackageRef } from './types'

/**
 * Opens a complete cached version with no network, through every check of a normal open (see
 * `savePackageOffline`). A version that is absent, incomplete or damaged is `pkg/cache-failed`.
 * Never rejects on bad input (only when `options.signal` aborts).
 *
 * @example
 * const result = await openCachedPackage(cache, { id: 'the-inn', version: '1.0.0' })
 */
export function openCachedPackage(
  cache: PackageCache,
  ref: PackageRef,
  options: OpenOptions = {},
): Promise<OpenResult> {
  return openCached(cache, ref, options, webBackend)
}

/**
 * Updates an installed package from `url`, fetching only the files whose `integrity` hashes
 * changed (HTTP ranges), or the whole archive when the server ignores ranges, the manifest has no
 * `integrity` or most bytes changed. The new version is verified as a whole before it replaces
 * the old one, which stays playable if the update fails or is aborted.
 *
 * @example
 * const r = await updatePackage({ cache, id: 'the-inn' }, 'https://example.org/the-inn.spkg')
 * if (r.ok) console.log(`${r.mode}: ${r.bytesFetched} of ${r.archiveBytes} bytes fetched`)
 */
export function updatePackage(
  installed: InstalledPackage,
  url: string | URL,
  options: UpdateOptions = {},
): Promise<UpdateResult> {
  return update(installed, url, options, webBackend)
}
