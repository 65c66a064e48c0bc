/**
 * `@spkg/reader/node`: the same reader on node:zlib and node:crypto (faster than the JavaScript
 * inflater and WebCrypto on Node), plus file-path entry points.
 */
import { closeSync, fstatSync, openSync, readSync, statSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { type Diagnostic, LIMITS, SpkgError } from '@spkg/manifest'
import { nodeBackend } from './node/backend'
import { peekBlob, peekRanges } from './open/blob-peek'
import { archiveTooLarge, fileLabel, fileReadFailed, maxInputBytes } from './open/input'
import { openArchive, peekArchive } from './open/open-archive'
import type { OpenOptions, OpenResult, PackageInput, PeekOptions, PeekResult } from './open/types'

// The names that do not depend on the backend are the browser entry's own.
export {
  type CacheDriver,
  type CachedFile,
  type CachedVersion,
  createMemoryCacheDriver,
  createPackageCache,
  createRangeSource,
  type InstalledPackage,
  isProgressivePackage,
  keepOffline,
  type OpenOptions,
  type OpenResult,
  type OpenUrlOptions,
  openPackageUrl,
  type PackageCache,
  type PackageEntry,
  type PackageInput,
  type PackageLimits,
  type PackageRef,
  type PartLoadEvent,
  type PeekOptions,
  type PeekResult,
  type ProgressivePackage,
  type RangeSource,
  type RangeSourceOptions,
  type SavedPackage,
  type SignatureInfo,
  type Sleeper,
  type SpkgPackage,
  type StorySource,
  savePackageOffline,
  type UpdateOptions,
  type UpdateResult,
} from './index'
export { createFolderCacheDriver, openCachedPackage, updatePackage } from './node/cache-on-node'

const maxFileBytes = (limits: PeekOptions['limits']) =>
  maxInputBytes(limits?.maxUncompressedBytes ?? LIMITS.maxUncompressedBytes)

/**
 * `pkg/fetch-failed` for a file system error: the file's base name and the error's code
 * (`ENOENT`), never the folders above it (see {@link fileLabel}).
 */
function readFailed(path: string, e: unknown): Diagnostic {
  const err = e as NodeJS.ErrnoException
  const name = fileLabel(path)
  return fileReadFailed(name, err.code ?? String(err.message).split(path).join(name))
}

/**
 * Files up to this size are read with one synchronous read: it blocks for well under a
 * millisecond, less than the four thread-pool round trips of the asynchronous path take.
 */
const SYNC_READ_BYTES = 1024 * 1024

/** Reads a small file synchronously; undefined when it is larger than {@link SYNC_READ_BYTES}. */
function readSmallFile(
  path: string,
  max: number,
): { bytes?: Uint8Array; diagnostics: Diagnostic[] } | undefined {
  let fd: number | undefined
  try {
    fd = openSync(path, 'r')
    const { size } = fstatSync(fd)
    if (size > SYNC_READ_BYTES) return undefined
    if (size > max) return { diagnostics: [archiveTooLarge(size, max)] }
    const bytes = new Uint8Array(size)
    let at = 0
    while (at < size) {
      const n = readSync(fd, bytes, at, size - at, at)
      if (n === 0) break
      at += n
    }
    return { bytes: at === size ? bytes : bytes.subarray(0, at), diagnostics: [] }
  } catch (e) {
    return { diagnostics: [readFailed(path, e)] }
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

async function readPackageFile(
  path: string,
  options: PeekOptions,
): Promise<{ bytes?: Uint8Array; diagnostics: Diagnostic[] }> {
  const small = readSmallFile(path, maxFileBytes(options.limits))
  if (small) return small
  let handle: Awaited<ReturnType<typeof open>> | undefined
  try {
    handle = await open(path, 'r')
    const { size } = await handle.stat()
    const max = maxFileBytes(options.limits)
    if (size > max) return { diagnostics: [archiveTooLarge(size, max)] }
    const bytes = new Uint8Array(size)
    let at = 0
    while (at < size) {
      const { bytesRead } = await handle.read(bytes, at, size - at, at)
      if (bytesRead === 0) break
      at += bytesRead
    }
    return { bytes: at === size ? bytes : bytes.subarray(0, at), diagnostics: [] }
  } catch (e) {
    return { diagnostics: [readFailed(path, e)] }
  } finally {
    await handle?.close()
  }
}

/**
 * {@link openPackage} on node:zlib and node:crypto: the same checks and results, faster.
 *
 * @example
 * import { openPackage } from '@spkg/reader/node'
 * const result = await openPackage(await readFile('story.spkg'))
 */
export function openPackage(input: PackageInput, options: OpenOptions = {}): Promise<OpenResult> {
  return openArchive(input, options, nodeBackend)
}

/** {@link peekPackage} on node:zlib. */
export function peekPackage(input: PackageInput, options: PeekOptions = {}): Promise<PeekResult> {
  if (input instanceof Blob) return peekBlob(input, options, nodeBackend)
  return peekArchive(input, options, nodeBackend)
}

/**
 * Opens a package file from disk (see {@link openPackage}). A file that cannot be read gives
 * `pkg/fetch-failed`, naming the file's base name (not its folders) and the error code; a file too big to be a package is refused before it is read.
 *
 * @example
 * const result = await openPackageFile('the-inn.spkg', { trustedKeys: [await readFile('author.pub', 'utf8')] })
 */
export async function openPackageFile(path: string, options: OpenOptions = {}): Promise<OpenResult> {
  const read = await readPackageFile(path, options)
  if (!read.bytes) return { ok: false, diagnostics: read.diagnostics }
  return openArchive(read.bytes, options, nodeBackend)
}

/**
 * Quick look at a package file (see {@link peekPackage}): only the ZIP structure (the tail with the
 * central directory), the first 64 KiB and `manifest.json` are read from disk, whatever the file's
 * size, into buffers of those sizes (never one the size of the file); `readBytes` reads an entry's
 * data when asked. What those reads cannot settle (an encrypted package, a refusal, a structure
 * away from the tail) is peeked from the whole file, read within the limits, so the diagnostics
 * are the whole peek's.
 *
 * @example
 * const peek = await peekPackageFile('the-inn.spkg')
 * if (peek.ok) console.log(peek.manifest?.title)
 */
export async function peekPackageFile(path: string, options: PeekOptions = {}): Promise<PeekResult> {
  let size: number
  try {
    size = statSync(path).size
  } catch (e) {
    return { ok: false, diagnostics: [readFailed(path, e)] }
  }
  const max = maxFileBytes(options.limits)
  if (size > max) return { ok: false, diagnostics: [archiveTooLarge(size, max)] }
  const whole = async (): Promise<PeekResult> => {
    const read = await readPackageFile(path, options)
    if (!read.bytes) return { ok: false, diagnostics: read.diagnostics }
    return peekArchive(read.bytes, options, nodeBackend)
  }
  return peekRanges(size, (start, end) => readRange(path, start, end), whole, options, nodeBackend)
}

/**
 * The file's bytes `[start, end)` (fewer at its end), in a buffer of that size: one open, positioned
 * reads and a close per range, so a `readBytes` long after the peek needs no descriptor kept open.
 *
 * @throws SpkgError `pkg/fetch-failed` (with its diagnostic) when the file cannot be read
 */
async function readRange(path: string, start: number, end: number): Promise<Uint8Array> {
  const bytes = new Uint8Array(Math.max(0, end - start))
  let handle: Awaited<ReturnType<typeof open>> | undefined
  try {
    handle = await open(path, 'r')
    let at = 0
    while (at < bytes.length) {
      const { bytesRead } = await handle.read(bytes, at, bytes.length - at, start + at)
      if (bytesRead === 0) break
      at += bytesRead
    }
    return at === bytes.length ? bytes : bytes.subarray(0, at)
  } catch (e) {
    const d = readFailed(path, e)
    throw new SpkgError(d.code, d.message, { diagnostics: [d] })
  } finally {
    await handle?.close()
  }
}
