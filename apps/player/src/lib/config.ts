/** Build-time settings of the player (Vite's `import.meta.env`), each optional. */

/**
 * Whether the reader may load its WebAssembly inflater. The SPEC's Content Security Policy has no
 * `'wasm-unsafe-eval'`, so by default the player never tries (no violation report): the reader's JavaScript
 * inflater and `DecompressionStream` do the work (README: what that costs). `VITE_SPKG_WASM=1` for a host whose
 * policy allows WebAssembly; `?wasm=1` in the page address asks for it at run time (measurements: under the SPEC's
 * policy the browser refuses the module and the reader falls back, with one violation report).
 */
export const USE_WASM: boolean =
  import.meta.env.VITE_SPKG_WASM === '1' ||
  (typeof location !== 'undefined' && new URLSearchParams(location.search).get('wasm') === '1')

/** Signify public keys (`ed25519:<base64>` fingerprints or `.pub` texts) whose signatures show a verified publisher. */
export const TRUSTED_KEYS: string[] = String(import.meta.env.VITE_SPKG_TRUSTED_KEYS ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean)

/** The API's address (same origin by default: `pnpm start` serves the player next to the API). */
export const API_BASE: string = String(import.meta.env.VITE_SPKG_API_BASE ?? '').replace(/\/$/, '')
