/**
 * Random access into a `.spkg.enc` container: decrypt only the chunks covering the bytes asked
 * for, so a ZIP reader can fetch the EOCD, the central directory and single entries by HTTP
 * Range and still never see unauthenticated plaintext.
 */
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
  const { openEncryptedImpl } = await import('./open-encrypted-impl')
  return openEncryptedImpl(input, key)
}
