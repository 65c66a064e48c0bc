/**
 * Random access into a `.spkg.enc` container: decrypt only the chunks covering the bytes asked
 * for, so a ZIP reader can fetch the EOCD, the central directory and single entries by HTTP
 * Range and still never see unauthenticated plaintext. (`@spkg/reader` loads it, with the rest of
 * its encrypted-package code, behind one dynamic `import()`: see `decrypt-package.ts`.)
 */
import { concatBytes } from '../internal/bytes'
import {
  type ContainerHeader,
  type ContainerLayout,
  checkKey,
  chunkRange,
  decryptFailed,
  derivePayloadKey,
  HEADER_SIZE,
  layoutOf,
  openChunk,
  readHeader,
} from './container'

/** Random-access bytes: an in-memory array, a `Blob`, or HTTP Range requests. */
export interface ByteSource {
  /** Total size in bytes. */
  readonly size: number
  /** Reads `length` bytes at `offset` (never past `size`). */
  read(offset: number, length: number): Promise<Uint8Array>
}

/** Decrypted view of an encrypted package. */
export interface EncryptedPackageReader {
  /** Plaintext (ZIP) size in bytes. */
  readonly size: number
  /** Plaintext chunk size (64 KiB in v1 files). */
  readonly chunkSize: number
  /**
   * Plaintext bytes `[offset, offset + length)`, decrypting only the chunks that cover them.
   * @throws SpkgError `pkg/decrypt-failed` when a chunk fails authentication; RangeError outside the plaintext
   */
  read(offset: number, length: number): Promise<Uint8Array>
}

const CACHE_CHUNKS = 8

function toSource(input: Uint8Array | ByteSource): ByteSource {
  if (!(input instanceof Uint8Array)) return input
  return { size: input.length, read: async (o, n) => input.subarray(o, o + n) }
}

async function readExactly(source: ByteSource, offset: number, length: number): Promise<Uint8Array> {
  const bytes = await source.read(offset, length)
  if (bytes.length !== length)
    throw decryptFailed(
      `short read from the encrypted package: wanted ${length} bytes at ${offset}, got ${bytes.length}`,
    )
  return bytes
}

/**
 * Opens an encrypted package for range reads. Checks the header and key id, and authenticates
 * the final chunk at once, so truncation is reported here rather than on a later read.
 *
 * @throws SpkgError `pkg/key-required` without a key; `pkg/decrypt-failed` for a wrong key,
 *   a bad header, truncation or a tampered final chunk
 * @example
 * const pkg = await openEncryptedPackage(bytes, key)
 * const tail = await pkg.read(pkg.size - 22, 22) // the ZIP end-of-central-directory record
 */
export async function openEncryptedPackage(
  input: Uint8Array | ByteSource,
  key: Uint8Array | undefined,
): Promise<EncryptedPackageReader> {
  checkKey(key)
  const source = toSource(input)
  if (source.size < HEADER_SIZE) throw decryptFailed('not an encrypted spkg container (too short)')
  const header: ContainerHeader = await readHeader(await readExactly(source, 0, HEADER_SIZE), key)
  const layout: ContainerLayout = layoutOf(source.size, header.chunkSize)
  const payloadKey = await derivePayloadKey(key, header.salt, 'decrypt')
  const cache = new Map<number, Promise<Uint8Array>>()

  const chunk = (index: number, stored?: Uint8Array): Promise<Uint8Array> => {
    const hit = cache.get(index)
    if (hit) {
      cache.delete(index)
      cache.set(index, hit)
      return hit
    }
    const [start, end] = chunkRange(layout, index)
    const p = (async () =>
      openChunk(
        payloadKey,
        header,
        layout,
        index,
        stored ?? (await readExactly(source, start, end - start)),
      ))()
    cache.set(index, p)
    p.catch(() => cache.delete(index))
    while (cache.size > CACHE_CHUNKS) cache.delete(cache.keys().next().value!)
    return p
  }

  await chunk(layout.chunkCount - 1)

  return {
    size: layout.size,
    chunkSize: layout.chunkSize,
    async read(offset, length) {
      if (
        !Number.isInteger(offset) ||
        !Number.isInteger(length) ||
        offset < 0 ||
        length < 0 ||
        offset + length > layout.size
      )
        throw new RangeError(
          `range [${offset}, ${offset + length}) is outside the ${layout.size}-byte package`,
        )
      if (length === 0) return new Uint8Array()
      const first = Math.floor(offset / layout.chunkSize)
      const last = Math.floor((offset + length - 1) / layout.chunkSize)
      // Fetch the uncached chunks in one contiguous read, then decrypt each.
      const missing = [] as number[]
      for (let i = first; i <= last; i++) if (!cache.has(i)) missing.push(i)
      let stored: Uint8Array | undefined
      let base = 0
      if (missing.length > 1) {
        base = chunkRange(layout, missing[0]!)[0]
        stored = await readExactly(source, base, chunkRange(layout, missing.at(-1)!)[1] - base)
      }
      const parts: Uint8Array[] = []
      for (let i = first; i <= last; i++) {
        const [s, e] = chunkRange(layout, i)
        const slice = stored && missing.includes(i) ? stored.subarray(s - base, e - base) : undefined
        parts.push(await chunk(i, slice))
      }
      const joined = parts.length === 1 ? parts[0]! : concatBytes(...parts)
      const from = offset - first * layout.chunkSize
      return joined.slice(from, from + length)
    },
  }
}
