/**
 * A {@link RangeSource} over the ZIP inside a remote `.spkg.enc` container, so that an encrypted
 * package opens progressively like a plain one: a read of plaintext `[offset, offset + length)`
 * fetches only the container chunks that cover it (the ranges of one `readMany` in one coalesced
 * request set), and each chunk is authenticated (AES-GCM, its index and the final-chunk flag,
 * `@spkg/integrity/encrypt`) before a byte of it is handed out. The container's header and final
 * chunk are checked when the source is made, so a wrong key or a truncated file fails the open.
 */
import { openEncryptedPackage } from '@spkg/integrity/encrypt'
import type { RangeSource } from './range-source'

/** Container v1 framing, used only to prefetch the chunks a read needs in one request. */
const HEADER = 36
const TAG = 16

/**
 * The plaintext view of `source`, an encrypted container.
 *
 * @throws SpkgError `pkg/key-required` without a key; `pkg/decrypt-failed` for a wrong key, a bad
 *   header or a truncated container; the source's errors (`pkg/fetch-failed`, `pkg/remote-changed`)
 * @example
 * const plain = await decryptedSource(await createRangeSource(url, { maxBytes }), key)
 * const tail = await plain.read(plain.size - 22, 22)
 */
export async function decryptedSource(
  source: RangeSource,
  key: Uint8Array | undefined,
): Promise<RangeSource> {
  /** Container ranges fetched ahead for reads in progress. */
  const held = new Set<{ start: number; data: Uint8Array }>()
  const reader = await openEncryptedPackage(
    {
      size: source.size,
      read: async (offset, length) => {
        for (const r of held)
          if (r.start <= offset && offset + length <= r.start + r.data.length)
            return r.data.subarray(offset - r.start, offset - r.start + length)
        return source.read(offset, length)
      },
    },
    key,
  )
  const stride = reader.chunkSize + TAG
  /** The container bytes holding the chunks that cover plaintext `[offset, offset + length)`. */
  const covering = (offset: number, length: number) => {
    const first = Math.floor(offset / reader.chunkSize)
    const last = Math.floor((offset + Math.max(length, 1) - 1) / reader.chunkSize)
    const start = HEADER + first * stride
    return { offset: start, length: Math.min(source.size, HEADER + (last + 1) * stride) - start }
  }
  const readMany = async (ranges: readonly { offset: number; length: number }[]) => {
    const want = ranges.filter((r) => r.length > 0).map((r) => covering(r.offset, r.length))
    const fetched = (await source.readMany(want)).map((data, i) => ({ start: want[i]!.offset, data }))
    for (const f of fetched) held.add(f)
    try {
      return await Promise.all(
        ranges.map((r) => (r.length > 0 ? reader.read(r.offset, r.length) : new Uint8Array(0))),
      )
    } finally {
      for (const f of fetched) held.delete(f)
    }
  }
  return {
    label: source.label,
    size: reader.size,
    validator: source.validator,
    ranged: true,
    get bytesFetched() {
      return source.bytesFetched
    },
    get requests() {
      return source.requests
    },
    read: async (offset, length) => (await readMany([{ offset, length }]))[0]!,
    readMany,
    async readAll(chunkBytes = 4 << 20) {
      const out = new Uint8Array(reader.size)
      const pieces: { offset: number; length: number }[] = []
      for (let o = 0; o < reader.size; o += chunkBytes)
        pieces.push({ offset: o, length: Math.min(chunkBytes, reader.size - o) })
      await Promise.all(pieces.map(async (p) => out.set((await readMany([p]))[0]!, p.offset)))
      return out
    },
  }
}
