/**
 * The offline package cache contract. Files are kept per package `id` and `version`
 * under their path, and stored by their SHA-256, so two versions sharing a file store it once and
 * a renamed file costs nothing in a delta update. Every read is verified: an entry whose bytes no
 * longer hash to its key is discarded, never returned. A version becomes *complete* (playable
 * offline) only when {@link PackageCache.complete} is called after every file is in, so an
 * interrupted download or update never passes for an installed version.
 */

/** A package version: the manifest's `id` and `version`. */
export interface PackageRef {
  readonly id: string
  readonly version: string
}

/** One cached file of a version. */
export interface CachedFile {
  /** The archive path (`story/0001-inn.sty`, `manifest.json`, `META-PKG/checksum.sha256`). */
  readonly path: string
  /** SHA-256 of the uncompressed bytes, 64 lowercase hex digits. */
  readonly hash: string
  /** Size in bytes. */
  readonly size: number
}

/** A cached version and whether it is complete. */
export interface CachedVersion extends PackageRef {
  /** True once every file is in and the whole package verified ({@link PackageCache.complete}). */
  readonly complete: boolean
}

/**
 * The cache a host uses (made by {@link createPackageCache} over a {@link CacheDriver}).
 * Failures of the storage are `SpkgError` `pkg/cache-failed`; a hash that does not match the
 * bytes given to `put` is `pkg/integrity-mismatch` and nothing is stored.
 */
export interface PackageCache {
  /**
   * Stores a file of a version. `hash` (hex or SRI `sha256-…`), when given, must match the
   * bytes. Storing a file makes its version incomplete until {@link complete} is called again.
   * @returns the stored file's record
   */
  put(ref: PackageRef, path: string, bytes: Uint8Array, hash?: string): Promise<CachedFile>
  /** The file's bytes, verified; undefined when absent or discarded for a hash mismatch. */
  get(ref: PackageRef, path: string): Promise<Uint8Array | undefined>
  /** Bytes with this SHA-256 (hex or SRI) held for any version of package `id`, verified. */
  getByHash(id: string, hash: string): Promise<Uint8Array | undefined>
  /** True when the version lists the file (its bytes are checked on `get`). */
  has(ref: PackageRef, path: string): Promise<boolean>
  /** Removes one file from a version (the version becomes incomplete). */
  delete(ref: PackageRef, path: string): Promise<void>
  /** The files of a version, sorted by path. */
  files(ref: PackageRef): Promise<CachedFile[]>
  /** Versions held for a package `id` (complete or not), sorted by version string. */
  versions(id: string): Promise<CachedVersion[]>
  /** Marks a version complete: every file is in (the caller has verified the whole package). */
  complete(ref: PackageRef): Promise<void>
  /** Removes a version and every stored file no other version of the package uses. */
  removeVersion(ref: PackageRef): Promise<void>
}

/**
 * What a storage backend provides: a flat map from keys to bytes. Keys are ASCII, made of
 * `[a-z0-9/]` only (hashes and hex-encoded names), at most 200 characters, so every driver can
 * use them as file names or URLs as they are. The cache does all verification itself.
 */
export interface CacheDriver {
  /** The bytes under `key`, or undefined. */
  read(key: string): Promise<Uint8Array | undefined>
  /** Stores `bytes` under `key` atomically: a reader sees the old bytes or the new, whole. */
  write(key: string, bytes: Uint8Array): Promise<void>
  /** Removes `key` (nothing when absent). */
  remove(key: string): Promise<void>
  /** Every key starting with `prefix` (which ends with `/`), in any order. */
  list(prefix: string): Promise<string[]>
}
