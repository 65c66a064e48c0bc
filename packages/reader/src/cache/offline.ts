/**
 * Offline packages: {@link savePackageOffline} copies every file of an opened package into a
 * {@link PackageCache} (verifying each against `integrity`) and marks the version complete;
 * {@link openCachedPackage} opens a complete cached version with no network at all, through the
 * same reader and checks as a downloaded package.
 */
import { type Diagnostic, isSpkgError, SpkgError } from '@spkg/manifest'
import { openArchive } from '../open/open-archive'
import type { OpenOptions, OpenResult, SpkgPackage } from '../open/types'
import type { ReaderBackend } from '../zip/backend'
import { storedZip } from './stored-zip'
import type { CachedFile, PackageCache, PackageRef } from './types'

/** What {@link savePackageOffline} stored. */
export interface SavedPackage {
  ref: PackageRef
  files: CachedFile[]
  /** Bytes of the files stored (uncompressed). */
  bytes: number
}

function cacheFailed(message: string): Diagnostic {
  return { code: 'pkg/cache-failed', severity: 'fatal', message }
}

/** The package's `{ id, version }`, or a `pkg/cache-failed` error when the manifest lacks one. */
export function packageRef(manifest: { id?: unknown; version?: unknown } | undefined): PackageRef {
  const id = manifest?.id
  const version = manifest?.version
  if (typeof id !== 'string' || id === '' || typeof version !== 'string' || version === '')
    throw new SpkgError(
      'pkg/cache-failed',
      'only a package whose manifest has an `id` and a `version` can be cached',
      {
        diagnostics: [cacheFailed('only a package whose manifest has an `id` and a `version` can be cached')],
      },
    )
  return { id, version }
}

/**
 * Stores every file of an opened package in the cache (each checked against the manifest's
 * `integrity` when listed) and marks the version complete, so {@link openCachedPackage} works
 * with the network gone. Hosts of `offline: true` packages call it in the background after the
 * first part; its promise is the package's *offline ready* signal.
 *
 * @throws SpkgError `pkg/cache-failed` (no id or version, storage failure),
 *   `pkg/integrity-mismatch` (a file does not match `integrity`); the version stays incomplete
 * @example
 * const saved = await savePackageOffline(cache, result.package)
 * console.log(`${saved.files.length} files kept for offline play`)
 */
export async function savePackageOffline(
  cache: PackageCache,
  pkg: Pick<SpkgPackage, 'manifest' | 'entries' | 'readBytes'>,
  options: { signal?: AbortSignal } = {},
): Promise<SavedPackage> {
  const ref = packageRef(pkg.manifest)
  const integrity = (pkg.manifest?.integrity ?? {}) as Record<string, string>
  const files: CachedFile[] = []
  let bytes = 0
  for (const entry of pkg.entries) {
    options.signal?.throwIfAborted()
    const data = await pkg.readBytes(entry.path)
    const hash = Object.hasOwn(integrity, entry.path) ? integrity[entry.path] : undefined
    files.push(await cache.put(ref, entry.path, data, hash))
    bytes += data.length
  }
  const wanted = new Set(files.map((f) => f.path))
  for (const f of await cache.files(ref)) if (!wanted.has(f.path)) await cache.delete(ref, f.path)
  options.signal?.throwIfAborted()
  await cache.complete(ref)
  return { ref, files, bytes }
}

/** Reads a version's files, in an order the reader expects (`manifest.json` first). */
export async function readCachedFiles(
  cache: PackageCache,
  ref: PackageRef,
): Promise<Array<{ path: string; bytes: Uint8Array }>> {
  const files = await cache.files(ref)
  files.sort((a, b) => Number(b.path === 'manifest.json') - Number(a.path === 'manifest.json'))
  const out: Array<{ path: string; bytes: Uint8Array }> = []
  for (const f of files) {
    const bytes = await cache.get(ref, f.path)
    if (!bytes)
      throw new SpkgError('pkg/cache-failed', `the cached file '${f.path}' is missing or damaged`, {
        diagnostics: [cacheFailed(`the cached file '${f.path}' is missing or damaged`)],
      })
    out.push({ path: f.path, bytes })
  }
  return out
}

/**
 * Opens a complete cached version (no network): the cached files are re-archived and opened
 * with every check of a normal open. An incomplete or damaged version is `pkg/cache-failed`.
 * Never rejects on bad input (only when `options.signal` aborts).
 */
export async function openCached(
  cache: PackageCache,
  ref: PackageRef,
  options: OpenOptions,
  backend: ReaderBackend,
): Promise<OpenResult> {
  try {
    const version = (await cache.versions(ref.id)).find((v) => v.version === ref.version)
    if (!version?.complete)
      return {
        ok: false,
        diagnostics: [cacheFailed(`no complete copy of ${ref.id} ${ref.version} in the cache`)],
      }
    const zip = storedZip(await readCachedFiles(cache, ref))
    return await openArchive(zip, options, backend)
  } catch (e) {
    if (!isSpkgError(e)) throw e
    return { ok: false, diagnostics: e.diagnostics.length ? [...e.diagnostics] : [cacheFailed(e.message)] }
  }
}

/**
 * The offline hook of a package open: for a package whose manifest says `offline: true`, starts
 * {@link savePackageOffline} and returns its promise (the host's *offline ready* signal; a
 * progressive open exposes it as `pkg.offlineReady` once its entry part is in, so the remaining
 * parts download in the background); `undefined` for any other package, which is not stored.
 *
 * @example
 * const ready = keepOffline(cache, result.package)
 * ready?.then(() => showBadge('playable offline'))
 */
export function keepOffline(
  cache: PackageCache,
  pkg: Pick<SpkgPackage, 'manifest' | 'entries' | 'readBytes'>,
  options: { signal?: AbortSignal } = {},
): Promise<SavedPackage> | undefined {
  if (pkg.manifest?.offline !== true) return undefined
  return savePackageOffline(cache, pkg, options)
}
