/**
 * The public shapes of `@spkg/reader`: options, the loaded package and the quick look.
 */
import type { Ed25519Fallback } from '@spkg/integrity'
import type {
  Diagnostic,
  JsonValue,
  LIMITS,
  Manifest,
  ParseManifestOptions,
  StorySource,
} from '@spkg/manifest'

/** Package limits an embedder may set (numbers, any of the `LIMITS` keys of `@spkg/manifest`). */
export type PackageLimits = Partial<{ -readonly [K in keyof typeof LIMITS]: number }>

/** What {@link openPackage} and {@link peekPackage} accept. */
export type PackageInput = Uint8Array | ArrayBuffer | Blob

/** Options of {@link openPackage}. */
export interface OpenOptions {
  /**
   * Public keys the embedder trusts for this story: signify `.pub` file texts (what `spkg keygen`
   * writes), or fingerprints `ed25519:<base64>`. `META-PKG/author.pub` alone never makes a
   * package `verified`.
   * @default []
   */
  trustedKeys?: string[]
  /**
   * The Ed25519 verification for browsers whose WebCrypto has none (Chrome and Edge before 137,
   * Firefox before 129, Safari before 17): pass `nobleEd25519` of `@spkg/reader/ed25519-noble`
   * (`@noble/ed25519`, 3.1 KB gzip, a lazy chunk that only such browsers download). Opt-in, so that
   * a bundle without it carries no `@noble/ed25519`: there, such a browser opens a signed package
   * as `unverified` with `pkg/signature-unsupported` (a warning). Node and current browsers never
   * use it.
   */
  ed25519Fallback?: Ed25519Fallback
  /** Host-extension namespaces the embedder registered; a `requires` entry outside them refuses the load. @default [] */
  hostNamespaces?: string[]
  /** The 32-byte key of an encrypted package (`.spkg.enc`), supplied out of band. */
  decryptionKey?: Uint8Array
  /** Stricter (or, for tests, other) package limits; defaults are `LIMITS` of `@spkg/manifest`. */
  limits?: PackageLimits
  /** Aborts the open between entries; the promise then rejects with the signal's reason. */
  signal?: AbortSignal
  /**
   * `false`: never load the WebAssembly inflater; entries are inflated by `DecompressionStream`
   * (1 KiB compressed and more) and the JavaScript inflater, with the same results. For pages whose
   * Content Security Policy has no `'wasm-unsafe-eval'` (the SPEC's policy among them): there the
   * browser refuses the module anyway, and trying reports one `securitypolicyviolation` (and a
   * console message) per page. Ignored by `@spkg/reader/node`, which has no WebAssembly inflater.
   * @default true
   */
  wasm?: boolean
  /**
   * The per-field bounds of `manifest.json` (publishing policy): pass `checkManifestBounds` of
   * `@spkg/manifest` to report every string, list and map over its bound (`manifest/too-long`,
   * `manifest/too-many`, an error, the value left out) and the key and value counts
   * (`manifest/too-large`, fatal), as `spkg validate` and the platform do. Off by default, so a
   * browser bundle does not carry them; the size (1 MiB) and nesting (64 levels) of the manifest
   * are always checked.
   */
  manifestBounds?: ParseManifestOptions['bounds']
}

/** Options of {@link peekPackage}. */
export interface PeekOptions {
  /** The 32-byte key of an encrypted package. */
  decryptionKey?: Uint8Array
  /** Package limits. */
  limits?: PackageLimits
  /** The per-field bounds of `manifest.json`, as for {@link OpenOptions} (`checkManifestBounds`). Off by default. */
  manifestBounds?: ParseManifestOptions['bounds']
}

/** One file of a package as the central directory declares it (verified at open). */
export interface PackageEntry {
  /** Archive path. */
  path: string
  /** Uncompressed size in bytes. */
  size: number
  /** Compressed size in bytes. */
  compressedSize: number
  /** How the entry is stored. */
  method: 'stored' | 'deflate'
}

/** Outcome of the publisher check. */
export interface SignatureInfo {
  /**
   * `verified`: a trusted key signed the checksum file. `unverified`: signed (or declared signed)
   * but by an untrusted key, or the signature does not verify. `unsigned`: no signature.
   */
  status: 'verified' | 'unverified' | 'unsigned'
  /** Fingerprint (`ed25519:<base64>`) of the key whose signature verified. */
  fingerprint?: string
}

/** A package that opened: every entry was verified before this object existed. */
export interface SpkgPackage {
  /** The canonical manifest; undefined for a flat archive. */
  manifest?: Manifest
  /** `packaged` (root manifest.json) or `flat` (root `.sty` files, no metadata). */
  layout: 'packaged' | 'flat'
  /** The manifest `type` (`story` by default; always `story` for flat archives). */
  type: 'story' | 'instruction'
  /** Archive path of the entry part. */
  entry: string
  /** Part paths in play order (the manifest order; flat: the entry alone). Missing parts are left out. */
  parts: string[]
  /** Media and other files: every file that is not the manifest, session, a part, a module or under META-PKG/. */
  assets: string[]
  /** Every file the package exposes (directories and ignored system clutter left out). */
  entries: PackageEntry[]
  /** True when `path` is a file of the package. */
  has(path: string): boolean
  /** The verified bytes of a file (re-inflated and CRC-checked when not kept in memory). */
  readBytes(path: string): Promise<Uint8Array>
  /**
   * The verified bytes of a file without a copy where it can: a stored entry's are a view into the
   * archive the reader was given (the same `buffer`; do not write into it), a deflated entry's are
   * what {@link readBytes} gives. Rejects as `readBytes` does (`pkg/missing-file`, `pkg/closed`).
   * A progressive package's part not fetched yet is refused, not waited for: `readBytes` waits.
   */
  entryView(path: string): Promise<Uint8Array>
  /**
   * Lowercase hex SHA-256 by path of the files the open hashed to verify `manifest.integrity` or
   * `META-PKG/checksum.sha256`: every file then, none when the package has neither (nor the
   * parts a progressive open has not fetched yet).
   */
  hashes: ReadonlyMap<string, string>
  /** The file decoded as strict UTF-8 (a leading byte-order mark is dropped). */
  readText(path: string): Promise<string>
  /** `session.json` values, when the archive has a valid one. */
  session?: Record<string, JsonValue>
  /** Extension modules (`.xty`) in load order: `manifest.extensions`, else by code point. */
  modules: Array<{ path: string; source: string }>
  /** Who signed the package. */
  signature: SignatureInfo
  /**
   * A `blob:` URL with the file's MIME type in a browser or worker (created on first use,
   * revoked by {@link SpkgPackage.close}); `undefined` in Node (use {@link readBytes}) and for
   * paths the package lacks.
   */
  mediaUrl(path: string): string | undefined
  /** The package as the story engine consumes it. */
  storySource(): StorySource
  /** Every finding of the open (none fatal). */
  diagnostics: Diagnostic[]
  /** Revokes the blob URLs and releases the archive bytes; reads afterwards reject. */
  close(): void
}

/** What {@link openPackage} resolves to: the package, or why it was refused. Never rejects on bad input. */
export type OpenResult =
  | { ok: true; package: SpkgPackage; diagnostics: Diagnostic[] }
  | { ok: false; diagnostics: Diagnostic[] }

/** The quick look of {@link peekPackage}: central directory and manifest only, no entry inflated but the manifest. */
export type PeekResult =
  | {
      ok: true
      /** The canonical manifest (packaged layout). */
      manifest?: Manifest
      layout: 'packaged' | 'flat'
      type: 'story' | 'instruction'
      /** The entry part path, when the archive has one. */
      entry?: string
      /** Every file of the archive as declared (not yet verified). */
      entries: PackageEntry[]
      /** Reads one file (e.g. the cover), inflated under the limits and CRC-checked. */
      readBytes(path: string): Promise<Uint8Array>
      diagnostics: Diagnostic[]
    }
  | { ok: false; diagnostics: Diagnostic[] }
