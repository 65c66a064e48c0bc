/**
 * `@spkg/integrity/encrypt`: the `.spkg.enc` whole-archive container (HKDF-SHA-256 and
 * AES-256-GCM in independent 64 KiB chunks), decryptable with WebCrypto in browsers and Node.
 */
export { decryptPackage, isEncryptedPackage } from './encrypt/decrypt-package'
export type { EncryptOptions } from './encrypt/encrypt-package'
export { encryptPackage, generateEncryptionKey } from './encrypt/encrypt-package'
export type { ByteSource, EncryptedPackageReader } from './encrypt/open-encrypted-package'
export { openEncryptedPackage } from './encrypt/open-encrypted-package'
export { parseEncryptionKey } from './encrypt/parse-encryption-key'
