/**
 * The `.spkg.enc` magic test, the reader's own copy of `isEncryptedPackage` from
 * `@spkg/integrity/encrypt`. Importing that subpath statically would put the container code in a
 * browser player's initial load: in the built `dist/` of `@spkg/integrity` the magic shares one
 * chunk with the container, and a bundler keeps a whole shared chunk. Every use of
 * `@spkg/integrity/encrypt` goes through a dynamic `import()` of `encryption.ts` instead, taken
 * only for encrypted input. `encrypted-magic.test.ts` keeps this copy equal to the original.
 */

/** "SPKGENC\0" */
const MAGIC = [0x53, 0x50, 0x4b, 0x47, 0x45, 0x4e, 0x43, 0x00] as const

/**
 * True when `bytes` starts with the `.spkg.enc` magic (only the first 8 bytes are read).
 *
 * @example
 * if (isEncrypted(head)) ({ decryptPackage } = await import('./encryption'))
 */
export function isEncrypted(bytes: Uint8Array): boolean {
  return bytes.length >= MAGIC.length && MAGIC.every((b, i) => bytes[i] === b)
}
