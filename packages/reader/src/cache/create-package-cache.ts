/**
 * The verifying package cache over any {@link CacheDriver}. Three kinds of record, all written
 * whole and idempotent, so parallel puts need no lock:
 * - `f/<id>/<sha256>`: a file's bytes, shared by every version of the package that has them;
 * - `e/<id>/<version>/<path>`: a version's entry `{ path, hash, size }`;
 * - `v/<id>/<version>`: the version's `{ id, version, complete }`.
 * Names are keyed by the SHA-256 of their UTF-8 (hex), so keys are safe file names and URLs
 * whatever the id, version or path; the records carry the names themselves.
 */
import { normalizeDigest, sha256Hex, sha256HexSync } from '@spkg/integrity'
import { type DiagnosticCode, isSpkgError, SpkgError } from '@spkg/manifest'
import type { CacheDriver, CachedFile, CachedVersion, PackageCache, PackageRef } from './types'

const encoder = /* @__PURE__ */ new TextEncoder()
const decoder = /* @__PURE__ */ new TextDecoder()
const nameKey = (name: string): string => sha256HexSync(encoder.encode(name))

function cacheError(code: DiagnosticCode, message: string, cause?: unknown): SpkgError {
  return new SpkgError(code, message, {
    cause,
    diagnostics: [{ code, severity: 'fatal', message }],
  })
}

function checkRef(ref: PackageRef): void {
  if (
    !ref ||
    typeof ref.id !== 'string' ||
    ref.id === '' ||
    typeof ref.version !== 'string' ||
    ref.version === ''
  )
    throw cacheError('pkg/cache-failed', 'a cached package needs a non-empty `id` and `version`')
}

function hexOf(hash: string): string {
  const hex = typeof hash === 'string' ? normalizeDigest(hash) : undefined
  if (hex === undefined)
    throw cacheError('pkg/integrity-malformed', `'${String(hash)}' is not a SHA-256 digest`)
  return hex
}

/** Runs a driver call, turning its failure into `pkg/cache-failed`. */
async function io<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (e) {
    if (isSpkgError(e)) throw e
    throw cacheError(
      'pkg/cache-failed',
      `the package cache could not ${what}: ${(e as Error)?.message ?? e}`,
      e,
    )
  }
}

function parseJson<T>(bytes: Uint8Array | undefined): T | undefined {
  if (!bytes) return undefined
  try {
    return JSON.parse(decoder.decode(bytes)) as T
  } catch {
    return undefined
  }
}

const json = (value: unknown): Uint8Array => encoder.encode(JSON.stringify(value))

/**
 * Makes the cache a host uses over a storage driver (in memory, a folder, Cache Storage).
 *
 * @example
 * const cache = createPackageCache(createMemoryCacheDriver())
 * await cache.put({ id: 'the-inn', version: '1.0.0' }, 'story/0001-inn.sty', bytes)
 * const again = await cache.get({ id: 'the-inn', version: '1.0.0' }, 'story/0001-inn.sty')
 */
export function createPackageCache(driver: CacheDriver): PackageCache {
  const versionKey = (ref: PackageRef) => `v/${nameKey(ref.id)}/${nameKey(ref.version)}`
  const entryPrefix = (ref: PackageRef) => `e/${nameKey(ref.id)}/${nameKey(ref.version)}/`
  const entryKey = (ref: PackageRef, path: string) => `${entryPrefix(ref)}${nameKey(path)}`
  const fileKey = (id: string, hex: string) => `f/${nameKey(id)}/${hex}`
  /**
   * Stored files this cache object has written or verified: `put` does not read and hash them
   * again (a delta update's reused files were verified by `getByHash` a moment before). Reads
   * always verify, so a file damaged since is still never returned.
   */
  const known = new Set<string>()

  const readEntry = async (key: string): Promise<CachedFile | undefined> => {
    const e = parseJson<CachedFile>(await io('read an entry', () => driver.read(key)))
    return e && typeof e.path === 'string' && normalizeDigest(String(e.hash)) === e.hash ? e : undefined
  }

  /** The verified bytes of a stored file; a mismatching one is removed. */
  const readFile = async (id: string, hex: string): Promise<Uint8Array | undefined> => {
    const key = fileKey(id, hex)
    const bytes = await io('read a file', () => driver.read(key))
    if (!bytes) return undefined
    if ((await sha256Hex(bytes)) === hex) {
      known.add(key)
      return bytes
    }
    known.delete(key)
    await io('discard a damaged file', () => driver.remove(key))
    return undefined
  }

  const setVersion = (ref: PackageRef, complete: boolean) =>
    io('write a version', () =>
      driver.write(versionKey(ref), json({ id: ref.id, version: ref.version, complete })),
    )

  const files = async (ref: PackageRef): Promise<CachedFile[]> => {
    checkRef(ref)
    const keys = await io('list a version', () => driver.list(entryPrefix(ref)))
    const out: CachedFile[] = []
    for (const key of keys) {
      const e = await readEntry(key)
      if (e) out.push({ path: e.path, hash: e.hash, size: e.size })
    }
    return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
  }

  const versions = async (id: string): Promise<CachedVersion[]> => {
    if (typeof id !== 'string' || id === '')
      throw cacheError('pkg/cache-failed', 'a package `id` is required')
    const keys = await io('list versions', () => driver.list(`v/${nameKey(id)}/`))
    const out: CachedVersion[] = []
    for (const key of keys) {
      const v = parseJson<CachedVersion>(await io('read a version', () => driver.read(key)))
      if (v && v.id === id && typeof v.version === 'string')
        out.push({ id, version: v.version, complete: v.complete === true })
    }
    return out.sort((a, b) => (a.version < b.version ? -1 : a.version > b.version ? 1 : 0))
  }

  return {
    async put(ref, path, bytes, hash) {
      checkRef(ref)
      if (typeof path !== 'string' || path === '')
        throw cacheError('pkg/cache-failed', 'a cached file needs a path')
      if (!(bytes instanceof Uint8Array))
        throw cacheError('pkg/cache-failed', `'${path}': bytes must be a Uint8Array`)
      const actual = await sha256Hex(bytes)
      if (hash !== undefined && hexOf(hash) !== actual)
        throw cacheError(
          'pkg/integrity-mismatch',
          `'${path}' does not match its SHA-256 ${hash}; it was not cached`,
        )
      const key = fileKey(ref.id, actual)
      if (!known.has(key)) {
        const held = await io('read a file', () => driver.read(key))
        if (!held || (await sha256Hex(held)) !== actual)
          await io('write a file', () => driver.write(key, bytes))
        known.add(key)
      }
      await setVersion(ref, false)
      const record: CachedFile = { path, hash: actual, size: bytes.length }
      await io('write an entry', () => driver.write(entryKey(ref, path), json(record)))
      return record
    },
    async get(ref, path) {
      checkRef(ref)
      const e = await readEntry(entryKey(ref, path))
      if (!e || e.path !== path) return undefined
      return readFile(ref.id, e.hash)
    },
    async getByHash(id, hash) {
      if (typeof id !== 'string' || id === '')
        throw cacheError('pkg/cache-failed', 'a package `id` is required')
      return readFile(id, hexOf(hash))
    },
    async has(ref, path) {
      checkRef(ref)
      const e = await readEntry(entryKey(ref, path))
      return e?.path === path
    },
    async delete(ref, path) {
      checkRef(ref)
      await io('remove an entry', () => driver.remove(entryKey(ref, path)))
      if (await io('read a version', () => driver.read(versionKey(ref)))) await setVersion(ref, false)
    },
    files,
    versions,
    async complete(ref) {
      checkRef(ref)
      await setVersion(ref, true)
    },
    async removeVersion(ref) {
      checkRef(ref)
      // The version record goes first: a crash part-way leaves files, never a complete version.
      await io('remove a version', () => driver.remove(versionKey(ref)))
      for (const key of await io('list a version', () => driver.list(entryPrefix(ref))))
        await io('remove an entry', () => driver.remove(key))
      const used = new Set<string>()
      for (const v of await versions(ref.id)) for (const f of await files(v)) used.add(f.hash)
      const prefix = `f/${nameKey(ref.id)}/`
      for (const key of await io('list files', () => driver.list(prefix)))
        if (!used.has(key.slice(prefix.length))) {
          known.delete(key)
          await io('remove a file', () => driver.remove(key))
        }
    },
  }
}
