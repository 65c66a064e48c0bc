/** The offline cache and delta updates on the Node backend (node:zlib, node:crypto). */
import { openCached } from '../cache/offline'
import type { PackageCache, PackageRef } from '../cache/types'
import type { OpenOptions, OpenResult } from '../open/types'
import {
  type InstalledPackage,
  type UpdateOptions,
  type UpdateResult,
  update,
} from '../update/update-package'
import { nodeBackend } from './backend'

export { createFolderCacheDriver } from './cache-folder-driver'

/** {@link openCachedPackage} of `@spkg/reader` on node:zlib and node:crypto. */
export function openCachedPackage(
  cache: PackageCache,
  ref: PackageRef,
  options: OpenOptions = {},
): Promise<OpenResult> {
  return openCached(cache, ref, options, nodeBackend)
}

/** {@link updatePackage} of `@spkg/reader` on node:zlib and node:crypto. */
export function updatePackage(
  installed: InstalledPackage,
  url: string | URL,
  options: UpdateOptions = {},
): Promise<UpdateResult> {
  return update(installed, url, options, nodeBackend)
}
