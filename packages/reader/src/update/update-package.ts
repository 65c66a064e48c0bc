/**
 * Delta updates (SPEC Versioning item 3; package-anchors §4 D6): read the new version's
 * directory and manifest by HTTP range, plan with `planDeltaUpdate` from `@spkg/integrity`,
 * copy the unchanged files from the cache (by hash: renames cost nothing), range-fetch only the
 * changed ones (each verified against its new `integrity` hash), then open the new version from
 * the cache with every check of a normal open before marking it complete. The old version is
 * untouched until then, so an interrupted update leaves it playable. A server without ranges, a
 * manifest without `integrity`, or a change over half the archive means one whole download.
 */
import { planDeltaUpdate } from '@spkg/integrity'
import { type Diagnostic, isSpkgError, LIMITS, type SpkgError } from '@spkg/manifest'
import { packageRef, readCachedFiles, savePackageOffline } from '../cache/offline'
import { storedZip } from '../cache/stored-zip'
import type { PackageCache, PackageRef } from '../cache/types'
import { peekBlob } from '../open/blob-peek'
import { isEncrypted } from '../open/encrypted-magic'
import { maxInputBytes } from '../open/input'
import { openArchive } from '../open/open-archive'
import type { OpenOptions } from '../open/types'
import type { Sleeper } from '../remote/range-source'
import type { ReaderBackend } from '../zip/backend'
import { openUpdateSource, type UpdateSource } from './update-source'

/**
 * The installed package to update: its cache, its `id` (default: the id the URL serves) and its
 * version (default: the newest complete one).
 */
export interface InstalledPackage {
  cache: PackageCache
  id?: string
  version?: string
}

/** Options of {@link updatePackage}. */
export interface UpdateOptions extends OpenOptions {
  /** The fetch to use. @default globalThis.fetch */
  fetch?: typeof fetch
  /** Time limit of one request, in milliseconds. @default 30000 */
  timeout?: number
  /** Retries of a request that failed with 0, 408, 502, 503 or 504 (after 1 s, then 2 s). @default 2 */
  retries?: number
  /** Waits between retries and for timeouts, as for `openPackageUrl`; tests inject fake time. @default setTimeout */
  sleep?: Sleeper
  /** Download the whole archive when the changed files' compressed bytes exceed this share of it. @default 0.5 */
  maxDeltaShare?: number
  /** Remove the old version once the new one is complete. @default true */
  removeOld?: boolean
}

/** How an update went. `bytesFetched` counts HTTP body bytes received; `requests` the requests made. */
export type UpdateResult =
  | {
      ok: true
      /** `delta`: changed files only; `full`: the whole archive; `current`: already installed. */
      mode: 'delta' | 'full' | 'current'
      from?: PackageRef
      to: PackageRef
      bytesFetched: number
      requests: number
      /** The remote archive's size in bytes. */
      archiveBytes: number
      /** Paths fetched from the server (every path for a full download). */
      downloaded: string[]
      /** Paths copied from the cached old version. */
      reused: string[]
      /** Old paths absent from the new version. */
      removed: string[]
      diagnostics: Diagnostic[]
    }
  | { ok: false; bytesFetched: number; requests: number; diagnostics: Diagnostic[] }

/** An error's diagnostics, or one made of its code and message. */
const diagnosticsOf = (e: SpkgError): Diagnostic[] =>
  e.diagnostics.length ? [...e.diagnostics] : [{ code: e.code, severity: 'fatal', message: e.message }]

const cacheFailed = (message: string): Diagnostic => ({
  code: 'pkg/cache-failed',
  severity: 'fatal',
  message,
})

/** A `Blob` look-alike over ranged bytes, for the reader's Blob quick look. */
function remoteBlob(
  source: { size: number; read(start: number, end: number): Promise<Uint8Array> },
  name: string,
): Blob {
  return {
    size: source.size,
    name,
    slice: (start: number, end: number) => ({
      arrayBuffer: async () => {
        const bytes = await source.read(start, end)
        return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)
      },
    }),
  } as unknown as Blob
}

async function installedVersion(installed: InstalledPackage, id: string): Promise<PackageRef | undefined> {
  const complete = (await installed.cache.versions(id)).filter((v) => v.complete)
  const found =
    installed.version === undefined ? complete.at(-1) : complete.find((v) => v.version === installed.version)
  return found && { id: found.id, version: found.version }
}

async function integrityOf(cache: PackageCache, ref: PackageRef): Promise<Record<string, string>> {
  const bytes = await cache.get(ref, 'manifest.json')
  try {
    const m = bytes && (JSON.parse(new TextDecoder().decode(bytes)) as { integrity?: unknown })
    return m?.integrity && typeof m.integrity === 'object' ? (m.integrity as Record<string, string>) : {}
  } catch {
    return {}
  }
}

/**
 * Updates an installed package from `url` (see the module comment). Never rejects on bad input
 * (only when `options.signal` aborts; the partly fetched new version is then removed).
 */
export async function update(
  installed: InstalledPackage,
  url: string | URL,
  options: UpdateOptions,
  backend: ReaderBackend,
): Promise<UpdateResult> {
  const { cache } = installed
  let source: UpdateSource | undefined
  const totals = () => ({ bytesFetched: source?.stats.bytes ?? 0, requests: source?.stats.requests ?? 0 })
  const fail = (diagnostics: Diagnostic[]): UpdateResult => ({ ok: false, ...totals(), diagnostics })
  let target: PackageRef | undefined
  let from: PackageRef | undefined
  const finish = async (to: PackageRef) => {
    await cache.complete(to)
    if (from && from.version !== to.version && options.removeOld !== false) await cache.removeVersion(from)
  }

  /** The whole archive (fetched in 4 MiB ranges, or held from the first answer), opened and kept. */
  const whole = async (remote: UpdateSource): Promise<UpdateResult> => {
    const got = { bytes: await remote.whole() }
    const opened = await openArchive(got.bytes, options, backend)
    if (!opened.ok) return fail(opened.diagnostics)
    const to = packageRef(opened.package.manifest)
    if (installed.id !== undefined && to.id !== installed.id)
      return fail([cacheFailed(`the URL serves package '${to.id}', not '${installed.id}'`)])
    from ??= await installedVersion(installed, to.id)
    if (from?.version === to.version) return current(to, got.bytes.length, opened.diagnostics)
    target = to
    const oldPaths = from ? (await cache.files(from)).map((f) => f.path) : []
    const saved = await savePackageOffline(cache, opened.package, options)
    opened.package.close()
    await finish(to)
    const now = new Set(saved.files.map((f) => f.path))
    return {
      ok: true,
      mode: 'full',
      from,
      to,
      ...totals(),
      archiveBytes: got.bytes.length,
      downloaded: saved.files.map((f) => f.path),
      reused: [],
      removed: oldPaths.filter((p) => !now.has(p)),
      diagnostics: opened.diagnostics,
    }
  }

  const current = (to: PackageRef, archiveBytes: number, diagnostics: Diagnostic[]): UpdateResult => ({
    ok: true,
    mode: 'current',
    from,
    to,
    ...totals(),
    archiveBytes,
    downloaded: [],
    reused: [],
    removed: [],
    diagnostics,
  })

  try {
    if (installed.id !== undefined) from = await installedVersion(installed, installed.id)
    const max = maxInputBytes(options.limits?.maxUncompressedBytes ?? LIMITS.maxUncompressedBytes)
    const { fetch: fetchImpl, signal, timeout, retries, sleep } = options
    source = await openUpdateSource(url, { maxBytes: max, fetch: fetchImpl, signal, timeout, retries, sleep })
    if (!source.ranged) return await whole(source)
    // An encrypted container: only the chunks covering what the quick look and the changed files
    // need are fetched, each authenticated before its plaintext is used.
    let plain: { size: number; read(start: number, end: number): Promise<Uint8Array> } = source
    if (isEncrypted(await source.head())) {
      const ranged = source
      // Loaded on the first encrypted update, as the reader loads decryption (bench/bundle).
      const { openEncryptedPackage } = await import('./encrypted-package')
      const decrypted = await openEncryptedPackage(
        { size: ranged.size, read: (offset, length) => ranged.read(offset, offset + length) },
        options.decryptionKey,
      )
      plain = { size: decrypted.size, read: (start, end) => decrypted.read(start, end - start) }
    }
    const peek = await peekBlob(
      remoteBlob(plain, String(url)),
      { ...options, decryptionKey: undefined },
      backend,
    )
    if (!peek.ok) {
      if (source.failure?.code === 'pkg/remote-changed') return fail(diagnosticsOf(source.failure))
      return await whole(source)
    }
    const to = packageRef(peek.manifest)
    if (installed.id !== undefined && to.id !== installed.id)
      return fail([cacheFailed(`the URL serves package '${to.id}', not '${installed.id}'`)])
    from ??= await installedVersion(installed, to.id)
    if (from?.version === to.version) return current(to, source.size, peek.diagnostics)
    const oldIntegrity = from ? await integrityOf(cache, from) : {}
    const plan = planDeltaUpdate(oldIntegrity, peek.manifest ?? {})
    if (plan.diagnostics.some((d) => d.severity === 'fatal')) return fail(plan.diagnostics)
    const sizes = new Map(peek.entries.map((e) => [e.path, e.compressedSize]))
    const integrity = (peek.manifest?.integrity ?? {}) as Record<string, string>
    const inPlan = new Set([...plan.download, ...plan.reuse.map((r) => r.path)])
    const outside = peek.entries.map((e) => e.path).filter((p) => !inPlan.has(p))
    const planned = [...plan.download, ...outside].reduce((n, p) => n + (sizes.get(p) ?? 0), 0)
    if (!from || plan.fullDownload || planned > plain.size * (options.maxDeltaShare ?? 0.5))
      return await whole(source)

    target = to
    const downloaded: string[] = []
    const reused: string[] = []
    const fetchOne = async (path: string, hash?: string) => {
      options.signal?.throwIfAborted()
      await cache.put(to, path, await peek.readBytes(path), hash)
      downloaded.push(path)
    }
    for (const path of outside) await fetchOne(path)
    for (const { path } of plan.reuse) {
      options.signal?.throwIfAborted()
      const bytes = await cache.getByHash(to.id, integrity[path]!)
      if (bytes) {
        await cache.put(to, path, bytes, integrity[path])
        reused.push(path)
      } else await fetchOne(path, integrity[path])
    }
    for (const path of plan.download) await fetchOne(path, integrity[path])
    // The new version must verify as a whole before it counts as installed.
    const opened = await openArchive(storedZip(await readCachedFiles(cache, to)), options, backend)
    if (!opened.ok) {
      await cache.removeVersion(to)
      return fail(opened.diagnostics)
    }
    opened.package.close()
    await finish(to)
    return {
      ok: true,
      mode: 'delta',
      from,
      to,
      ...totals(),
      archiveBytes: source.size,
      downloaded,
      reused,
      removed: plan.remove,
      diagnostics: [...peek.diagnostics, ...plan.diagnostics],
    }
  } catch (e) {
    if (target && target.version !== from?.version) await cache.removeVersion(target).catch(() => {})
    options.signal?.throwIfAborted()
    if (!isSpkgError(e)) throw e
    const failure = source?.failure?.code === 'pkg/remote-changed' ? source.failure : e
    return fail(diagnosticsOf(failure))
  }
}
