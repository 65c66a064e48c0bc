/**
 * @spkg/reader: opens `.spkg` story packages safely, in browsers and Node. Its own central-
 * directory reader checks every name, header and byte range; a bounded inflater (or the
 * platform's `DecompressionStream`) only inflates, under the package limits; WebCrypto hashes. Node gets a faster backend from `@spkg/reader/node`.
 */
import { LIMITS } from '@spkg/manifest'
import type { PackageCache } from './cache/types'
import { peekBlob } from './open/blob-peek'
import { remoteFailure } from './open/fetch-input'
import { maxInputBytes } from './open/input'
import { openArchive, peekArchive } from './open/open-archive'
import type { OpenOptions, OpenResult, PackageInput, PeekOptions, PeekResult } from './open/types'
import { openRemote } from './remote/progressive'
import { createRangeSource, type RangeSource, type Sleeper } from './remote/range-source'
import { createWebBackend, defaultWebOptions, type ReaderBackend, webBackend } from './zip/backend'

export type { StorySource } from '@spkg/manifest'
export {
  type CacheDriver,
  type CachedFile,
  type CachedVersion,
  createCacheStorageDriver,
  createMemoryCacheDriver,
  createPackageCache,
  type InstalledPackage,
  keepOffline,
  openCachedPackage,
  type PackageCache,
  type PackageRef,
  type SavedPackage,
  savePackageOffline,
  type UpdateOptions,
  type UpdateResult,
  updatePackage,
} from './cache/cache-on-web'
export type {
  OpenOptions,
  OpenResult,
  PackageEntry,
  PackageInput,
  PackageLimits,
  PeekOptions,
  PeekResult,
  SignatureInfo,
  SpkgPackage,
} from './open/types'

/** The web backend without the WebAssembly inflater, made on the first open that asks for it. */
let withoutWasm: ReaderBackend | undefined

/** The backend an open runs on: {@link webBackend}, or one that never loads WebAssembly (`wasm: false`). */
function backendFor(options: OpenOptions): ReaderBackend {
  if (options.wasm !== false) return webBackend
  withoutWasm ??= createWebBackend({ ...defaultWebOptions(), wasm: false })
  return withoutWasm
}

/**
 * Opens a package from its bytes (or a Blob/File) and verifies every entry before resolving:
 * ZIP structure, names, limits on the real inflated bytes, CRC-32, layout, manifest, integrity,
 * checksums, signature, parts, extensions and `requires`. A `fatal` diagnostic refuses it.
 * Never rejects on bad input (only when `options.signal` aborts).
 *
 * @example
 * const result = await openPackage(bytes, { hostNamespaces: ['host'] })
 * if (!result.ok) showErrors(result.diagnostics)
 * else console.log(result.package.manifest?.title, await result.package.readText(result.package.entry))
 */
export function openPackage(input: PackageInput, options: OpenOptions = {}): Promise<OpenResult> {
  return openArchive(input, options, backendFor(options))
}

/** Options of {@link openPackageUrl}. */
export interface OpenUrlOptions extends OpenOptions {
  /** The fetch to use (e.g. one with credentials or a proxy). @default globalThis.fetch */
  fetch?: typeof fetch
  /** Time limit of one request, in milliseconds. @default 30000 */
  timeout?: number
  /** Retries of a request that failed with 0, 408, 502, 503 or 504 (after 1 s, then 2 s). @default 2 */
  retries?: number
  /** How the retries and timeouts wait (tests pass fake time). @default setTimeout */
  sleep?: Sleeper
  /** Range requests in flight at once. @default 4 */
  concurrency?: number
  /** Called with each answer's byte count as it arrives. */
  onBytes?: (bytes: number) => void
  /**
   * Where a progressive `offline: true` package is kept, downloaded whole in the background after
   * the open (`ProgressivePackage.offlineReady`); see `createPackageCache`.
   */
  cache?: PackageCache
}

/**
 * Downloads a package over HTTP range requests (see {@link createRangeSource}: `206` with the
 * matching `Content-Range` required, `If-Range` on every later request, one bounded whole
 * download from a server that ignores ranges) and opens it like {@link openPackage}, with the
 * same diagnostics as the same bytes on disk. A network error or a failed status is
 * `pkg/fetch-failed`, naming the URL without its credentials, query or fragment; a package that
 * changes on the server meanwhile is `pkg/remote-changed`. Never rejects on bad input (only when
 * `options.signal` aborts).
 *
 * @example
 * const result = await openPackageUrl('https://example.org/stories/the-inn.spkg')
 */
export async function openPackageUrl(url: string | URL, options: OpenUrlOptions = {}): Promise<OpenResult> {
  options.signal?.throwIfAborted()
  const max = maxInputBytes(options.limits?.maxUncompressedBytes ?? LIMITS.maxUncompressedBytes)
  const { fetch: fetchImpl, signal, timeout, retries, sleep, concurrency, onBytes } = options
  let source: RangeSource
  try {
    source = await createRangeSource(url, {
      maxBytes: max,
      fetch: fetchImpl,
      signal,
      timeout,
      retries,
      sleep,
      concurrency,
      onBytes,
    })
  } catch (e) {
    return { ok: false, diagnostics: remoteFailure(e, signal) }
  }
  return openRemote(source, options, backendFor(options), (e) => remoteFailure(e, signal), options.cache)
}

/**
 * A quick look for a cover and a title: reads the central directory and `manifest.json` only
 * (of a Blob or File, only those bytes are read, through `Blob.slice`). Never rejects on bad input.
 *
 * @example
 * const peek = await peekPackage(file)
 * if (peek.ok && peek.manifest?.cover) showCover(await peek.readBytes(peek.manifest.cover))
 */
export function peekPackage(input: PackageInput, options: PeekOptions = {}): Promise<PeekResult> {
  if (typeof Blob !== 'undefined' && input instanceof Blob) return peekBlob(input, options, webBackend)
  return peekArchive(input, options, webBackend)
}

export {
  isProgressivePackage,
  type PartLoadEvent,
  type ProgressivePackage,
} from './remote/progressive'
export {
  createRangeSource,
  type RangeSource,
  type RangeSourceOptions,
  type Sleeper,
} from './remote/range-source'
