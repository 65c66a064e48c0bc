/**
 * The part of `@noble/ed25519` the fallback uses, in a module of its own: `ed25519.ts` imports it
 * with a dynamic `import()`, and bundlers tree-shake this file's static imports (a dynamic import
 * of the package itself would keep all of it).
 */
export { getPublicKeyAsync, signAsync, verifyAsync } from '@noble/ed25519'
