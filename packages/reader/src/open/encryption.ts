/**
 * Everything of the reader that needs `@spkg/integrity/encrypt` (the `.spkg.enc` container code),
 * behind one dynamic `import()` of this file, taken only for an encrypted package: a whole-file
 * decryption (`decryptPackage`, step 1 of an open), random access for a delta update
 * (`openEncryptedPackage`) and the plaintext range source of a progressive open
 * (`decryptedSource`). One lazy module keeps them in one chunk of a browser bundle, and named
 * static imports here (not a dynamic import of the whole namespace, which esbuild would keep in
 * the initial chunk) keep the container code out of the initial load (bench/bundle,
 * `pnpm check:packaging`).
 */
import { decryptPackage, openEncryptedPackage } from '@spkg/integrity/encrypt'

export { decryptedSource } from '../remote/decrypted-source'
export { decryptPackage, openEncryptedPackage }
