/**
 * The part of `@noble/ed25519` the opt-in fallback verifies with, in a module of its own:
 * `nobleEd25519` (`../ed25519-noble.ts`) imports it with a dynamic `import()`, and bundlers
 * tree-shake this file's static imports (a dynamic import of the package itself would keep all of
 * it). Signing is in `ed25519-noble-sign.ts`, so that a verifying host never bundles it.
 */
export { verifyAsync } from '@noble/ed25519'
