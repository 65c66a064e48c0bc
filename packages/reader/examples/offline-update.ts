import { readFile } from 'node:fs/promises'
import {
  createFolderCacheDriver,
  createPackageCache,
  openCachedPackage,
  openPackage,
  savePackageOffline,
  updatePackage,
} from '@spkg/reader/node'

// Usage: offline-update.ts <cache-folder> <installed.spkg> <url-of-the-next-version>
const [folder, file, url] = process.argv.slice(2) as [string, string, string]
const cache = createPackageCache(createFolderCacheDriver(folder))

// Keep an opened package for offline play (an `offline: true` package does this in the background).
const opened = await openPackage(await readFile(file))
if (!opened.ok) throw new Error(opened.diagnostics[0]?.message)
const saved = await savePackageOffline(cache, opened.package)
console.log('saved', saved.ref.version, saved.files.length, 'files')

// Later, with no network: the same checks as any open.
const offline = await openCachedPackage(cache, saved.ref)
console.log('offline', offline.ok && offline.package.entry)

// A new version: only the files whose integrity hashes changed are fetched.
const update = await updatePackage({ cache, id: saved.ref.id }, url)
if (update.ok)
  console.log(
    update.mode,
    update.to.version,
    update.downloaded,
    `${update.bytesFetched}/${update.archiveBytes}`,
  )
