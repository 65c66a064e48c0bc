/**
 * The platform pieces behind the safe reader: inflater, CRC-32 and SHA-256. The main entry
 * uses its own bounded JavaScript inflater (and `DecompressionStream` for large entries in browsers) and WebCrypto (and,
 * in Node, its native synchronous SHA-256 for small files, where WebCrypto's per-call cost dominates);
 * `@spkg/reader/node` swaps in node:zlib and node:crypto.
 */
import { sha256Hex } from '@spkg/integrity'
import {
  crc32,
  createWebInflater,
  hasDeflateRawStream,
  inflateRawStream,
  isUtf8,
  isUtf8Wasm,
  type ZipBackend,
} from '@spkg/zip'

/** Platform primitives the reader needs: those of `@spkg/zip`'s extraction, and hashes. */
export interface ReaderBackend extends ZipBackend {
  /** Lowercase hex SHA-256. */
  sha256Hex(data: Uint8Array): Promise<string> | string
  /** True when `data` is valid UTF-8 (a faster check than decoding, where the platform has one). */
  isUtf8?(data: Uint8Array): boolean
}

/** Where the web backend switches between its two inflaters and its two hashers. */
export interface WebBackendOptions {
  /** Compressed size (bytes) from which `DecompressionStream` inflates; `Infinity`: never. */
  streamFrom: number
  /**
   * Files smaller than this (bytes) are hashed synchronously, larger by WebCrypto. The synchronous
   * hash is Node's native one (`process.getBuiltinModule('crypto')`); where there is none (a
   * browser) every file goes to WebCrypto.
   */
  jsHashBelow: number
  /**
   * Inflate the entries that do not go to the stream with the WebAssembly build of the bounded
   * inflater where it loads (default `true`); `false`: in JavaScript.
   */
  wasm?: boolean
}

/**
 * The thresholds measured by `pnpm bench reader-browser` (bench/reader-browser/RESULTS.md).
 * The WebAssembly inflater, where it loads, takes every entry that fits its memory (it beat the stream
 * on every bench package). Without it, in a browser `DecompressionStream` is native zlib and pays off
 * against the JavaScript inflater from about 1 KiB compressed; it also takes the entries too large
 * for the module. Node's stream is built on JavaScript web streams and lost at every size, so
 * there it is never used.
 * WebCrypto is cheap per call in Chromium but not in Node, where small files hash faster synchronously.
 */
export function defaultWebOptions(
  platform: { node: boolean; stream: boolean } = { node: isNode(), stream: hasDeflateRawStream() },
): WebBackendOptions {
  if (platform.node) return { streamFrom: Number.POSITIVE_INFINITY, jsHashBelow: 16 * 1024 }
  return { streamFrom: platform.stream ? 1024 : Number.POSITIVE_INFINITY, jsHashBelow: 0 }
}

/** {@link defaultWebOptions}' `jsHashBelow`, which needs no stream probed. */
const defaultJsHashBelow = () => (isNode() ? 16 * 1024 : 0)

function isNode(): boolean {
  const p = (globalThis as { process?: { versions?: { node?: unknown } } }).process
  return typeof p?.versions?.node === 'string'
}

/**
 * A web backend with the given thresholds, or with {@link defaultWebOptions}: the stream is
 * probed (a `DecompressionStream` made) only when an entry could go to it, which an open whose
 * WebAssembly inflater loads never asks, and the rest resolved on first use.
 */
export function createWebBackend(options?: WebBackendOptions): ReaderBackend {
  let streamFrom = options?.streamFrom
  let jsHashBelow = options?.jsHashBelow
  const wasm = options?.wasm
  return {
    inflater: createWebInflater({
      get streamFrom() {
        streamFrom ??= defaultWebOptions().streamFrom
        return streamFrom
      },
      wasm,
      stream: inflateRawStream,
    }),
    crc32,
    sha256Hex: (data) => {
      jsHashBelow ??= defaultJsHashBelow()
      if (data.length < jsHashBelow) {
        syncSha256Hex ??= nodeSha256Hex() ?? null
        if (syncSha256Hex) return syncSha256Hex(data)
      }
      return sha256Hex(data)
    },
    // In the WebAssembly module once it is loaded (the JavaScript check's first runs are slow).
    isUtf8: (data) => (wasm !== false ? isUtf8Wasm(data) : undefined) ?? isUtf8(data),
  }
}

/** Node's synchronous SHA-256, once looked up; `null` where there is none. */
let syncSha256Hex: ((data: Uint8Array) => string) | null | undefined

interface NodeCrypto {
  createHash(algorithm: 'sha256'): { update(data: Uint8Array): { digest(encoding: 'hex'): string } }
}

/**
 * Node's native SHA-256, reached through `process.getBuiltinModule` (Node 20.16+) rather than an
 * import, so that browser bundles carry neither `node:crypto` nor a JavaScript SHA-256 (2 KB
 * minified, which a browser never ran: WebCrypto is cheap per call there). Faster than the
 * JavaScript SHA-256 it replaces at every size (warm, 2-core machine at load 13: 1.3 against
 * 4.6 µs for 200 bytes, 6 against 31 µs for 2 KB, 30 against 227 µs for 15 KB).
 */
function nodeSha256Hex(): ((data: Uint8Array) => string) | undefined {
  const p = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process
  // The bare name: a browser bundle that names a `node:` module fails the packaging check.
  const crypto = p?.getBuiltinModule?.('crypto') as NodeCrypto | undefined
  if (typeof crypto?.createHash !== 'function') return undefined
  return (data) => crypto.createHash('sha256').update(data).digest('hex')
}

/**
 * The isomorphic backend: the bounded JavaScript inflater or DecompressionStream, a slicing-by-8 CRC-32, WebCrypto or
 * Node's synchronous SHA-256, and a UTF-8 check that reads ASCII text without decoding it.
 */
export const webBackend: ReaderBackend = createWebBackend()
