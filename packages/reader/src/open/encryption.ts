/**
 * The reader's decryption of a whole `.spkg.enc` container (step 1 of an open), behind one dynamic
 * `import()` of this file, taken only for an encrypted package: a browser bundle keeps the
 * container code in a lazy chunk that plain packages never fetch (bench/bundle,
 * `pnpm check:packaging`). Only what an open needs: an update's random-access reader
 * (`update/encrypted-package.ts`) and a progressive open's plaintext source
 * (`remote/decrypted-source.ts`) are lazy modules of their own, so that a player that only opens
 * packages bundles neither (Rolldown keeps what any `import()` of a module takes from it, even
 * where the code of that `import()` is tree-shaken). A named static import here, not a dynamic import of the whole
 * `@spkg/integrity/encrypt` namespace, which esbuild would keep in the initial chunk.
 */
export { decryptPackage } from '@spkg/integrity/encrypt'
