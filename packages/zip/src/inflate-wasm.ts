/**
 * The bounded inflater, CRC-32 and a strict UTF-8 check compiled to WebAssembly (wasm/inflate.ts,
 * the decoder a line-for-line AssemblyScript port of {@link inflateBounded}'s). Same contract and same answers as the
 * JavaScript inflater (tests compare them on generated, mutated and random streams); it exists
 * because a fresh page runs JavaScript in its interpreter first: inflating and checking 500 small
 * entries cold took about 28 ms in JavaScript in Chromium, and a 4 KB WebAssembly module is
 * compiled before its first call (bench/reader-browser/RESULTS.md).
 *
 * It is optional by design. Where WebAssembly is missing or refused (a page whose Content Security
 * Policy lacks `'wasm-unsafe-eval'`, a browser's lockdown mode), loading answers `false` once and
 * the reader keeps the JavaScript inflater. Entries too large for {@link WASM_MAX_BYTES} of module
 * memory are declined (the web inflater streams them or inflates them in JavaScript), so the
 * module never holds more than that.
 */

import { inflateBounded } from './inflate-bounded'
import type { BatchEntry, BatchResult, InflateFailure, InflateResult } from './inflate-types'
import { INFLATE_WASM_HEX } from './inflate-wasm-binary'

interface Exports {
  memory: WebAssembly.Memory
  init(): void
  heapBase(): number
  failCode(): number
  failOffset(): number
  inflate(input: number, inputLength: number, out: number, mask: number, cap: number): number
  crc32(at: number, length: number, previous: number): number
  utf8Valid(at: number, length: number): number
  inflateBatch(table: number, count: number, out: number): number
}

/** zlib's messages, by the module's failure codes. */
const MESSAGES = [
  'corrupt data',
  'unexpected end of file',
  'invalid stored block lengths',
  'too many length or distance symbols',
  'invalid code lengths set',
  'invalid bit length repeat',
  'invalid code -- missing end-of-block',
  'invalid literal/lengths set',
  'invalid distances set',
  'invalid block type',
  'invalid literal/length code',
  'invalid distance code',
  'invalid distance too far back',
]

/** Input plus output (or counting window) above which an entry stays in JavaScript. */
export const WASM_MAX_BYTES = 4 * 1024 * 1024
const WINDOW = 32768
const PAGE = 65536

let wasm: Exports | undefined
let loading: Promise<boolean> | undefined
let heap = new Uint8Array(0)
/** Where the caller's buffers start in module memory (after the module's static data). */
let base = 0

/**
 * The module's bytes, decoded from the embedded hex natively where the platform can (`fromHex`,
 * or Node's `Buffer`), else in a plain loop (`Uint8Array.from` with a callback per byte took 1-4
 * ms of a cold open). Hex rather than base64: 0.5 KB smaller in a gzipped bundle.
 */
export function moduleBytes(): Uint8Array<ArrayBuffer> {
  const s = INFLATE_WASM_HEX
  const U = Uint8Array as unknown as { fromHex?: (s: string) => Uint8Array<ArrayBuffer> }
  if (U.fromHex) return U.fromHex(s)
  const B = (globalThis as { Buffer?: { from(s: string, e: 'hex'): Uint8Array<ArrayBuffer> } }).Buffer
  if (B) return new Uint8Array(B.from(s, 'hex'))
  const out = new Uint8Array(s.length / 2)
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(s.slice(2 * i, 2 * i + 2), 16)
  return out
}

/** Makes an instantiated module the one every call uses. */
function install(instance: WebAssembly.Instance): true {
  const exports = instance.exports as unknown as Exports
  exports.init()
  heap = new Uint8Array(exports.memory.buffer)
  base = exports.heapBase()
  wasm = exports
  return true
}

/**
 * Loads the module once, compiled asynchronously (off the main thread in browsers, so it overlaps
 * with reading the directory and the manifest). Resolves `true` when {@link inflateWasm} can be
 * used, `false` when WebAssembly is unavailable or refused; never rejects.
 */
export function loadInflateWasm(): Promise<boolean> {
  loading ??= (async () => {
    try {
      if (typeof WebAssembly !== 'object') return false
      return install((await WebAssembly.instantiate(moduleBytes(), {})).instance)
    } catch {
      return false
    }
  })()
  return loading
}

/**
 * Loads the module at once, compiled synchronously (for the Node backend, whose inflater is
 * synchronous; the web backend compiles off the main thread with {@link loadInflateWasm}).
 * `true` when {@link inflateWasm} and {@link countWasm} can be used; `false` when WebAssembly is
 * unavailable, or while an asynchronous load is under way.
 */
export function loadInflateWasmSync(): boolean {
  if (wasm) return true
  if (loading) return false
  try {
    if (typeof WebAssembly !== 'object') return false
    install(new WebAssembly.Instance(new WebAssembly.Module(moduleBytes()), {}))
    loading = Promise.resolve(true)
    return true
  } catch {
    loading = Promise.resolve(false)
    return false
  }
}

/** True once {@link loadInflateWasm} has succeeded. */
export function inflateWasmReady(): boolean {
  return wasm !== undefined
}

/** Makes the module's memory at least `bytes` above {@link base} and returns a current view. */
function room(x: Exports, bytes: number): Uint8Array {
  const need = base + bytes
  if (need > heap.length) {
    x.memory.grow(Math.ceil((need - x.memory.buffer.byteLength) / PAGE))
    heap = new Uint8Array(x.memory.buffer)
  }
  return heap
}

/**
 * {@link inflateBounded}'s contract in WebAssembly; with the entry's expected `crc` it also
 * checks the CRC-32 on the output in module memory and says so with `crcChecked` (a mismatch is
 * left to the caller's check, which reports it). `undefined` when the module is not loaded or the
 * entry needs more than {@link WASM_MAX_BYTES} of module memory: the caller inflates in JavaScript.
 */
export function inflateWasm(
  input: Uint8Array,
  declared: number,
  limit: number,
  crc?: number,
): InflateResult | undefined {
  const x = wasm
  if (!x) return undefined
  const keep = Math.max(0, Math.min(declared, limit))
  const inputRoom = (input.length + 15) & ~15
  const size = inputRoom + Math.max(keep, WINDOW)
  if (size > WASM_MAX_BYTES) return undefined
  const mem = room(x, size)
  const at = base
  const out = at + inputRoom
  mem.set(input, at)
  const n = x.inflate(at, input.length, out, -1, keep)
  if (n === declared) {
    const data = mem.slice(out, out + n)
    if (crc === undefined) return { ok: true, data }
    return { ok: true, data, crcChecked: x.crc32(out, n, 0) >>> 0 === crc >>> 0 }
  }
  if (n >= 0) return { ok: false, reason: 'size', produced: n }
  if (n === CORRUPT) return corrupt(x)
  if (keep >= limit) return { ok: false, reason: 'limit', produced: limit + 1 }
  // Longer than declared, and the budget allows more: count the whole output, up to the limit.
  const total = x.inflate(at, input.length, out, WINDOW - 1, limit)
  if (total === CORRUPT) return corrupt(x)
  if (total === OVER) return { ok: false, reason: 'limit', produced: limit + 1 }
  return { ok: false, reason: 'size', produced: total }
}

const OVER = -1
const CORRUPT = -2

/**
 * The length of the stream's whole output, up to `limit`, decoded in a 32 KiB window of module
 * memory and counted, not kept: `{ ok: true, produced }`, or why not (`limit` once past it,
 * `corrupt` with the decoder's message, worded as zlib's). Nothing is allocated however much the stream inflates to, so a
 * caller can refuse a bomb, a corrupt stream or a lie about the size before it allocates the
 * output. `undefined` when the module is not loaded or `input` does not fit its memory.
 */
export function countWasm(
  input: Uint8Array,
  limit: number,
): { ok: true; produced: number } | InflateFailure | undefined {
  const x = wasm
  if (!x) return undefined
  const inputRoom = (input.length + 15) & ~15
  // The module counts in 32-bit integers.
  if (inputRoom + WINDOW > WASM_MAX_BYTES || limit > 0x7ffffffe) return undefined
  const mem = room(x, inputRoom + WINDOW)
  mem.set(input, base)
  const total = x.inflate(base, input.length, base + inputRoom, WINDOW - 1, limit)
  if (total === CORRUPT) return corrupt(x)
  if (total === OVER) return { ok: false, reason: 'limit', produced: limit + 1 }
  return { ok: true, produced: total }
}

/**
 * Inflates the deflated `entries` of the archive `bytes` in one call of the module: the archive
 * range `[lo, hi)` that holds their inputs is copied in once, and their outputs come out in one
 * buffer. `text(i)`: check entry i as UTF-8.
 * Stops at the first entry that does not inflate to exactly its declared size with its CRC-32
 * (the caller takes it through {@link inflateWasm}, which says why). `undefined` when the module
 * is not loaded or the run does not fit its memory.
 */
export function inflateBatchWasm(
  bytes: Uint8Array,
  entries: readonly BatchEntry[],
  lo: number,
  hi: number,
  text: (i: number) => boolean,
): BatchResult | undefined {
  const x = wasm
  if (!x) return undefined
  const n = entries.length
  let total = 0
  for (let i = 0; i < n; i++) total += entries[i]!.size
  const inputRoom = (hi - lo + 15) & ~15
  const tableRoom = n * 24
  if (inputRoom + tableRoom + total > WASM_MAX_BYTES) return undefined
  const mem = room(x, inputRoom + tableRoom + total)
  mem.set(bytes.subarray(lo, hi), base)
  const tableAt = base + inputRoom
  const outAt = tableAt + tableRoom
  // One record of 6 i32 per entry (wasm/inflate.ts, inflateBatch): the last is the UTF-8 verdict.
  const t = new Int32Array(mem.buffer, tableAt, n * 6)
  for (let i = 0; i < n; i++) {
    const e = entries[i]!
    const r = i * 6
    t[r] = base + e.dataOffset - lo
    t[r + 1] = e.compressedSize
    t[r + 2] = e.size
    t[r + 3] = e.crc32
    t[r + 4] = text(i) ? 1 : 0
  }
  const count = x.inflateBatch(tableAt, n, outAt)
  let produced = 0
  const utf8 = new Uint8Array(count)
  for (let i = 0; i < count; i++) {
    produced += entries[i]!.size
    utf8[i] = t[i * 6 + 5]!
  }
  return { count, data: mem.slice(outAt, outAt + produced), utf8 }
}

/**
 * Whether `data` is valid UTF-8 (strict, as `TextDecoder`'s fatal mode), checked in the module:
 * `undefined` when it is not loaded or `data` is larger than {@link WASM_MAX_BYTES}.
 */
export function isUtf8Wasm(data: Uint8Array): boolean | undefined {
  const x = wasm
  if (!x || data.length > WASM_MAX_BYTES) return undefined
  const mem = room(x, data.length)
  mem.set(data, base)
  return x.utf8Valid(base, data.length) === 1
}

function corrupt(x: Exports): InflateFailure {
  return { ok: false, reason: 'corrupt', produced: x.failOffset(), message: MESSAGES[x.failCode()] }
}

/**
 * The WebAssembly inflater where it is loaded and the entry fits, otherwise the JavaScript one
 * (the same answers either way).
 */
export function inflateFastest(
  input: Uint8Array,
  declared: number,
  limit: number,
  crc?: number,
): InflateResult {
  return inflateWasm(input, declared, limit, crc) ?? inflateBounded(input, declared, limit)
}
