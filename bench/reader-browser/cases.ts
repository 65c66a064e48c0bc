/**
 * The measured work of `pnpm bench reader-browser`, the same code in Node (child.ts) and in
 * Chromium (page.ts): the whole `openPackage` pipeline on a web backend variant, or one
 * component (every deflated entry inflated, or every file hashed) on its own.
 */
import { LIMITS } from '@spkg/manifest'
import { sha256Hex, sha256HexSync } from '../../packages/integrity/src/sha256'
import { peekBlob } from '../../packages/reader/src/open/blob-peek'
import { openArchive, peekArchive } from '../../packages/reader/src/open/open-archive'
import {
  createWebBackend,
  defaultWebOptions,
  type ReaderBackend,
  type WebBackendOptions,
  webBackend,
} from '../../packages/reader/src/zip/backend'
import { boundedInflater } from '../../packages/zip/src/inflate'
import { inflateRawStream } from '../../packages/zip/src/inflate-stream'
import { inflateWasm, loadInflateWasm } from '../../packages/zip/src/inflate-wasm'
import { readZipDirectory } from '../../packages/zip/src/read-zip-directory'
import { peekBlobBefore } from './blob-peek-before'
import { fflateInflater } from './fflate-inflater'

const NEVER = Number.POSITIVE_INFINITY

/** Whole-pipeline variants: which inflater from which compressed size, which hasher below which size. */
export const VARIANTS: Record<
  string,
  | WebBackendOptions
  | 'default'
  | 'default, JS CRC-32'
  | 'default, fflate'
  | 'default, JS inflater'
  | 'default, module loaded'
  | 'inflated beforehand'
  | 'inflated and hashed beforehand'
  | 'default, stream probed'
  | 'default, one entry per call'
> = {
  'JS inflater + WebCrypto': { streamFrom: NEVER, jsHashBelow: 0, wasm: false },
  'JS inflater + JS SHA-256 <16 KiB': { streamFrom: NEVER, jsHashBelow: 16 * 1024, wasm: false },
  // The WebAssembly inflater takes every entry that fits its memory, whatever streamFrom says;
  // these variants without it are how the JavaScript path would choose.
  'WebAssembly inflater + WebCrypto (no stream)': { streamFrom: NEVER, jsHashBelow: 0 },
  // The synchronous SHA-256 for small files beside the WebAssembly inflater in Chromium.
  'WebAssembly inflater + JS SHA-256 <16 KiB': { streamFrom: 1024, jsHashBelow: 16 * 1024 },
  'DecompressionStream (all) + WebCrypto': { streamFrom: 0, jsHashBelow: 0, wasm: false },
  'DecompressionStream >=4 KiB + WebCrypto': { streamFrom: 4096, jsHashBelow: 0, wasm: false },
  'DecompressionStream >=4 KiB + JS SHA-256 <16 KiB': {
    streamFrom: 4096,
    jsHashBelow: 16 * 1024,
    wasm: false,
  },
  // The CRC-32 computed in JavaScript after inflating, not by the WebAssembly inflater in its memory.
  'default with CRC-32 in JS after the stream': 'default, JS CRC-32',
  'DecompressionStream >=1 KiB + JS SHA-256 <16 KiB': {
    streamFrom: 1024,
    jsHashBelow: 16 * 1024,
    wasm: false,
  },
  // fflate where the default backend now has its own inflater (before 2026-11-26).
  'default with fflate for small entries (before)': 'default, fflate',
  // The bounded inflater in JavaScript where the default backend now runs its WebAssembly build.
  'default with the JavaScript inflater (before)': 'default, JS inflater',
  // A probe: the WebAssembly module compiled before the clock starts (as when the page imported
  // the reader a moment before opening), to see what the compile costs the open.
  'probe: WebAssembly module compiled beforehand': 'default, module loaded',
  // A probe: every entry's inflated bytes handed over at no cost (CRC-32 counted as checked), to
  // see what the rest of the pipeline costs.
  'default with every entry inflated beforehand': 'inflated beforehand',
  'probe: inflated and hashed beforehand': 'inflated and hashed beforehand',
  'default web backend (shipped choice)': 'default',
  // The default backend without its batch path: every entry through its own call of the
  // WebAssembly module (no batch path).
  'default with one module call per entry (before)': 'default, one entry per call',
  // The default backend with its options resolved on first use, probing
  // the stream (a DecompressionStream made) even when no entry goes to it.
  'default with the stream probed on first use (before)': 'default, stream probed',
}

/** The default backend with the CRC-32 left to JavaScript (the inflater is not given the CRC). */
const jsCrcBackend: ReaderBackend = {
  ...webBackend,
  inflater: {
    inflateRaw: webBackend.inflater.inflateRaw,
    inflateRawAsync: (input, declared, limit) => webBackend.inflater.inflateRawAsync!(input, declared, limit),
  },
}

/** The default backend without the inflater's batch path: one module call per entry. */
const oneByOneBackend: ReaderBackend = {
  ...webBackend,
  inflater: { ...webBackend.inflater, inflateBatch: undefined },
}

/** The default backend's stream threshold, resolved once as the backend resolves it. */
let streamAt: number | undefined
const streamFrom = () => {
  streamAt ??= defaultWebOptions().streamFrom
  return streamAt
}

/** The default backend with fflate where it has its own inflater (the stream path unchanged). */
const fflateBackend: ReaderBackend = {
  ...webBackend,
  inflater: {
    inflateRaw: fflateInflater.inflateRaw,
    inflateRawAsync: (input, declared, limit) =>
      input.length >= streamFrom()
        ? inflateRawStream(input, declared, limit)
        : fflateInflater.inflateRaw(input, declared, limit),
  },
}

/** A backend whose inflater hands over bytes inflated before the clock starts. */
function inflatedBeforehand(bytes: Uint8Array): ReaderBackend {
  const done = new Map<number, Uint8Array>()
  for (const e of entriesOf(bytes)) {
    if (e.method !== 8) continue
    const r = boundedInflater.inflateRaw(e.input, e.size, LIMIT)
    if (!r.ok) throw new Error('the bench package does not inflate')
    done.set(e.input.byteOffset, r.data)
  }
  const handOver = (input: Uint8Array) => ({
    ok: true as const,
    data: done.get(input.byteOffset)!,
    crcChecked: true,
  })
  return { ...webBackend, inflater: { inflateRaw: handOver, inflateRawAsync: handOver } }
}

/** {@link inflatedBeforehand}, and every file's SHA-256 computed before the clock starts too. */
async function hashedBeforehand(bytes: Uint8Array): Promise<ReaderBackend> {
  const backend = inflatedBeforehand(bytes)
  // Inflated files are the very arrays handed over; stored files are views into `bytes`.
  const inflated = new Map<Uint8Array, string>()
  const stored = new Map<number, string>()
  for (const e of entriesOf(bytes)) {
    if (e.method === 8) {
      const data = (backend.inflater.inflateRaw(e.input, e.size, LIMIT) as { data: Uint8Array }).data
      inflated.set(data, await sha256Hex(data))
    } else stored.set(e.input.byteOffset, await sha256Hex(e.input))
  }
  return {
    ...backend,
    sha256Hex: (data) =>
      inflated.get(data) ?? (data.buffer === bytes.buffer ? stored.get(data.byteOffset) : '') ?? '',
  }
}

/** A probe: a case that does nothing, for the renderer CPU the harness costs every cold run. */
export const HARNESS_CASE = 'probe: nothing (harness only)'

/** Component cases: one inflater over every deflated entry, one hasher over every file. */
export const COMPONENTS = [
  'inflate: fflate',
  'inflate: bounded JavaScript',
  'inflate: bounded WebAssembly (shipped; module compiled in the timing)',
  'inflate: DecompressionStream',
  'inflate: DecompressionStream (all in flight)',
  'hash: WebCrypto (4 in flight)',
  'hash: WebCrypto (all in flight)',
  'hash: JS SHA-256',
  'peek (directory + manifest only)',
  'peek of a File (Blob.slice reads)',
  'peek of a File into a file-sized buffer (before)',
  HARNESS_CASE,
] as const

/**
 * The quick look of a File, then its cover (a library shelf): the page holds the package as a
 * Blob only, never read whole, as a File from an `<input>` is.
 */
export const FILE_CASE = 'peek of a File (Blob.slice reads)'
/** {@link FILE_CASE} as it was first written: the reads went into a buffer the size of the file. */
export const FILE_CASE_BEFORE = 'peek of a File into a file-sized buffer (before)'

/** Every case name. */
export const CASES = [...Object.keys(VARIANTS), ...COMPONENTS]

const LIMIT = LIMITS.maxUncompressedBytes

function entriesOf(bytes: Uint8Array) {
  const dir = readZipDirectory(bytes).directory
  if (!dir) throw new Error('the bench package does not read')
  return dir.entries.map((e) => ({
    method: e.method,
    size: e.size,
    input: bytes.subarray(e.dataOffset, e.dataOffset + e.compressedSize),
  }))
}

/**
 * Runs case `name` on `bytes` (already in memory) and returns its wall time; throws when it fails.
 * `blob`: the same bytes as a Blob that is already complete (a `fetch` response's in Chromium, a
 * file's in Node), for the peek of a File.
 */
export async function runCase(bytes: Uint8Array, name: string, blob?: Blob): Promise<number> {
  const variant = VARIANTS[name]
  if (variant !== undefined) {
    const backend: ReaderBackend =
      variant === 'default'
        ? webBackend
        : variant === 'default, JS CRC-32'
          ? jsCrcBackend
          : variant === 'default, fflate'
            ? fflateBackend
            : variant === 'default, module loaded'
              ? await loadInflateWasm().then(() => webBackend)
              : variant === 'default, JS inflater'
                ? createWebBackend({ ...defaultWebOptions(), wasm: false })
                : variant === 'inflated beforehand'
                  ? inflatedBeforehand(bytes)
                  : variant === 'inflated and hashed beforehand'
                    ? await hashedBeforehand(bytes)
                    : variant === 'default, stream probed'
                      ? webBackend
                      : variant === 'default, one entry per call'
                        ? oneByOneBackend
                        : createWebBackend(variant)
    const t0 = performance.now()
    const r = await openArchive(
      bytes,
      {},
      variant === 'default, stream probed' ? createWebBackend(defaultWebOptions()) : backend,
    )
    const ms = performance.now() - t0
    if (!r.ok) throw new Error(`${name}: ${r.diagnostics.map((d) => d.code).join(', ')}`)
    return ms
  }
  // What the harness itself costs a cold run (the page's evaluate call, the clock): nothing else.
  if (name === HARNESS_CASE) return 0
  if (name === 'peek (directory + manifest only)') {
    const t0 = performance.now()
    const r = await peekArchive(bytes, {}, webBackend)
    const ms = performance.now() - t0
    if (!r.ok) throw new Error(`${name}: ${r.diagnostics.map((d) => d.code).join(', ')}`)
    return ms
  }
  if (name === FILE_CASE || name === FILE_CASE_BEFORE) {
    // Made before the clock starts from a Blob the browser already holds whole (a File built from
    // fresh bytes would be copied to the browser process while the clock runs).
    if (!blob) throw new Error(`${name}: no Blob`)
    const file = new File([blob], 'package.spkg')
    const t0 = performance.now()
    const r = await (name === FILE_CASE ? peekBlob : peekBlobBefore)(file, {}, webBackend)
    // A cover and a title, as a library shelf shows them.
    const cover = r.ok && r.manifest?.cover ? await r.readBytes(r.manifest.cover) : undefined
    const ms = performance.now() - t0
    if (r.ok && r.manifest?.cover && !cover?.length) throw new Error(`${name}: no cover`)
    if (!r.ok) throw new Error(`${name}: ${r.diagnostics.map((d) => d.code).join(', ')}`)
    return ms
  }
  const entries = entriesOf(bytes)
  const deflated = entries.filter((e) => e.method === 8)
  if (name === 'inflate: DecompressionStream (all in flight)') {
    const t0 = performance.now()
    const rs = await Promise.all(deflated.map((e) => inflateRawStream(e.input, e.size, LIMIT)))
    const ms = performance.now() - t0
    if (rs.some((r) => !r.ok)) throw new Error(`${name}: failed`)
    return ms
  }
  if (name === 'inflate: bounded WebAssembly (shipped; module compiled in the timing)') {
    const t0 = performance.now()
    if (!(await loadInflateWasm())) throw new Error(`${name}: no WebAssembly`)
    for (const e of deflated) {
      const r = inflateWasm(e.input, e.size, LIMIT)
      if (!r?.ok) throw new Error(`${name}: ${r ? r.reason : 'declined'}`)
    }
    return performance.now() - t0
  }
  if (
    name === 'inflate: fflate' ||
    name === 'inflate: DecompressionStream' ||
    name === 'inflate: bounded JavaScript'
  ) {
    const t0 = performance.now()
    for (const e of deflated) {
      const r =
        name === 'inflate: DecompressionStream'
          ? await inflateRawStream(e.input, e.size, LIMIT)
          : name === 'inflate: fflate'
            ? fflateInflater.inflateRaw(e.input, e.size, LIMIT)
            : boundedInflater.inflateRaw(e.input, e.size, LIMIT)
      if (!r.ok) throw new Error(`${name}: ${r.reason}`)
    }
    return performance.now() - t0
  }
  // Hashers: the files are inflated first, outside the timing.
  const files = entries.map((e) => {
    if (e.method === 0) return e.input
    const r = boundedInflater.inflateRaw(e.input, e.size, LIMIT)
    if (!r.ok) throw new Error(r.reason)
    return r.data
  })
  let check = 0
  const t0 = performance.now()
  if (name === 'hash: JS SHA-256') for (const f of files) check += sha256HexSync(f).length
  else if (name === 'hash: WebCrypto (4 in flight)') {
    const pending: Promise<void>[] = []
    for (const f of files) {
      pending.push(
        sha256Hex(f).then((h) => {
          check += h.length
        }),
      )
      if (pending.length >= 4) await pending.shift()
    }
    await Promise.all(pending)
  } else if (name === 'hash: WebCrypto (all in flight)') {
    for (const h of await Promise.all(files.map(sha256Hex))) check += h.length
  } else throw new Error(`unknown case ${name}`)
  const ms = performance.now() - t0
  if (check !== files.length * 64) throw new Error(`${name}: wrong digests`)
  return ms
}
