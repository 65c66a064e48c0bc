/**
 * @spkg/reader: opens `.spkg` story packages safely, in browsers and Node. Its own central-
 * directory reader checks every name, header and byte range; a bounded inflater (or the
 * platform's `DecompressionStream`) only inflates, under the package limits; WebCrypto hashes. Node gets a faster backend from `@spkg/reader/node`.
 */
import { LIMITS } from '@spkg/manifest'
import { fetchBytes } from './open/fetch-input'
import { maxInputBytes } from './open/input'
import { openArchive, peekArchive } from './open/open-archive'
import type { OpenOptions, OpenResult, PackageInput, PeekOptions, PeekResult } from './open/types'
import { webBackend } from './zip/backend'

export { mimeTypeOf } from './open/mime'
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
export type { StorySource } from './story/story-source'
export { checkEntryName, collisionKey, compareCodePoints } from './zip/check-entry-name'
export { readZipDirectory } from './zip/read-zip-directory'
export type { ZipDirectory, ZipDirectoryResult, ZipEntry, ZipLimits } from './zip/types'

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
  return openArchive(input, options, webBackend)
}

/** Options of {@link openPackageUrl}. */
export interface OpenUrlOptions extends OpenOptions {
  /** The fetch to use (e.g. one with credentials or a proxy). @default globalThis.fetch */
  fetch?: typeof fetch
}

/**
 * Downloads a whole package (one plain GET, refused past the size bound without buffering it)
 * and opens it like {@link openPackage}. A network error or a non-2xx answer is
 * `pkg/fetch-failed`, naming the URL without its credentials, query or fragment. Never rejects
 * on bad input (only when `options.signal` aborts).
 *
 * @example
 * const result = await openPackageUrl('https://example.org/stories/the-inn.spkg')
 */
export async function openPackageUrl(url: string | URL, options: OpenUrlOptions = {}): Promise<OpenResult> {
  options.signal?.throwIfAborted()
  const max = maxInputBytes(options.limits?.maxUncompressedBytes ?? LIMITS.maxUncompressedBytes)
  const got = await fetchBytes(url, max, options.fetch ?? globalThis.fetch, options.signal)
  if (!got.bytes) return { ok: false, diagnostics: got.diagnostics }
  return openArchive(got.bytes, options, webBackend)
}

/**
 * A quick look for a cover and a title: reads the central directory and `manifest.json` only.
 * Never rejects on bad input.
 *
 * @example
 * const peek = await peekPackage(file)
 * if (peek.ok && peek.manifest?.cover) showCover(await peek.readBytes(peek.manifest.cover))
 */
export function peekPackage(input: PackageInput, options: PeekOptions = {}): Promise<PeekResult> {
  return peekArchive(input, options, webBackend)
}
