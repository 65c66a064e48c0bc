/**
 * The file storage interface of the API: content-addressed, immutable files under keys
 * `packages/<sha256>.spkg` and `covers/<sha256>.<ext>`. Two drivers implement it (fs.ts, s3.ts) and one
 * contract suite (test/storage-contract.test.ts) runs against both.
 */
import type { Readable } from 'node:stream'

/** What `stat` reports about a stored file. */
export interface StoredFileInfo {
  key: string
  size: number
  /** Lower-case hex SHA-256 of the bytes. */
  sha256: string
  contentType: string
}

/** One entry of {@link FileStorage.list}. */
export interface ListedFile {
  key: string
  size: number
  /** When the file was written (the sweep leaves young files alone: an upload may not have committed yet). */
  modifiedAt: Date
}

/** One byte range, both ends inclusive, as in HTTP `Range`. */
export interface ByteRange {
  start: number
  end: number
}

/** What the caller tells the storage about a file it stores (the caller has hashed it). */
export interface PutInfo {
  sha256: string
  size: number
  contentType: string
}

export interface FileStorage {
  /** `fs` or `s3`. */
  readonly driver: 'fs' | 's3'
  /**
   * Stores a local temporary file (already hashed by the caller) under `key`. Atomic (readers see the whole
   * file or nothing); idempotent when the key exists with the same sha256. The local file is left in place.
   */
  putFile(key: string, localPath: string, info: PutInfo): Promise<void>
  /** Stores bytes under `key`; same rules as `putFile`. */
  putBytes(key: string, bytes: Uint8Array, info: Omit<PutInfo, 'size'>): Promise<void>
  /** The stored file's size, hash and type; null when absent. */
  stat(key: string): Promise<StoredFileInfo | null>
  /** Whole file or one range (inclusive end), as a Node Readable; null when absent. */
  read(key: string, range?: ByteRange): Promise<Readable | null>
  /** Removes the file; no error when it is already absent. */
  delete(key: string): Promise<void>
  /** Stored files under a prefix (`packages/`, `covers/`), at most `limit` of them, any order. For the orphan sweep. */
  list(prefix: 'packages/' | 'covers/', limit: number): Promise<ListedFile[]>
  /** The public address of a key when FILES_URL (a CDN or the bucket) is configured, else null. */
  publicUrl(key: string): string | null
}

/** Errors of the storage layer carry a stable `code`. */
export class StorageError extends Error {
  constructor(
    readonly code: 'STORAGE_BAD_KEY' | 'STORAGE_HASH_MISMATCH' | 'STORAGE_BAD_RANGE' | 'STORAGE_UNAVAILABLE',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
    this.name = 'StorageError'
  }
}

/** The content type a key implies (packages: {@link PACKAGE_CONTENT_TYPE}; covers: by extension). */
export function keyContentType(key: string): string {
  assertKey(key)
  if (key.startsWith('packages/')) return PACKAGE_CONTENT_TYPE
  return COVER_TYPES[key.slice(key.lastIndexOf('.') + 1)] as string
}

/** Package key of a hash. */
export function packageKey(sha256: string): string {
  return `packages/${sha256}.spkg`
}

/** Cover key of a hash and an extension (without the dot). */
export function coverKey(sha256: string, ext: string): string {
  return `covers/${sha256}.${ext}`
}

/** Cover types the storage accepts, by extension. */
export const COVER_TYPES: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  avif: 'image/avif',
  gif: 'image/gif',
  svg: 'image/svg+xml',
}

export const PACKAGE_CONTENT_TYPE = 'application/vnd.spkg+zip'

/**
 * The policy every stored file is served with (files route): a file is data, never a document. An SVG cover opened
 * by itself (a navigation to its address) runs no script, loads nothing and is a sandboxed, unique origin; its own
 * inline styles still apply. `<img>` ignores a response's policy, so covers display as before.
 */
export const FILE_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox"

/**
 * `Content-Disposition` of a stored file, or undefined: SVG covers (the one stored type that can carry script) are
 * `attachment`, so a navigation to one downloads it instead of rendering it on the files origin. Both drivers store
 * it (S3 serves it natively, from the bucket or a CDN in front of it) and the files route sends it; `<img>` and
 * `fetch` ignore it.
 */
export function contentDispositionOf(key: string): string | undefined {
  return keyContentType(key) === COVER_TYPES.svg ? 'attachment' : undefined
}

const KEY_RE = /^(?:packages\/[0-9a-f]{64}\.spkg|covers\/[0-9a-f]{64}\.(?:png|jpg|jpeg|webp|avif|gif|svg))$/

/** True for a well-formed key (no traversal is possible in one). */
export function isValidKey(key: string): boolean {
  return KEY_RE.test(key)
}

/** Throws STORAGE_BAD_KEY unless `key` is well-formed. */
export function assertKey(key: string): void {
  if (!isValidKey(key))
    throw new StorageError('STORAGE_BAD_KEY', `Not a storage key: ${JSON.stringify(key).slice(0, 120)}`)
}

/** The hash part of a key. */
export function keyHash(key: string): string {
  assertKey(key)
  return key.slice(key.indexOf('/') + 1, key.indexOf('/') + 65)
}
