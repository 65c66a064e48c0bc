/**
 * The `.spkg.enc` random-access reader an update of an encrypted package needs, behind a dynamic
 * `import()` of this file taken only for such an update (`update-package.ts`). A module of its
 * own, apart from the open's decryption (`open/encryption.ts`) and the progressive open's
 * plaintext source (`remote/decrypted-source.ts`): a browser bundle then keeps, for each of the
 * three, only the code its caller needs, and a player that only opens packages never bundles the
 * other two (Rolldown keeps what any `import()` of a module takes from it, even where the code of
 * that `import()` is tree-shaken). A named static import here, not a dynamic import of the whole
 * `@spkg/integrity/encrypt` namespace, which esbuild would keep in the initial chunk.
 */
export { openEncryptedPackage } from '@spkg/integrity/encrypt'
