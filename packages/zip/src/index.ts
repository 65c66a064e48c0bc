/**
 * `@spkg/zip`: a safe ZIP reader (central directory, entry names, local headers and offsets
 * checked before any entry is read) and bounded inflaters (JavaScript, WebAssembly and the
 * platform's `DecompressionStream`) that never write past a limit. No dependency.
 */
export type { ArchiveWindow } from './archive-window'
export { archiveRange, archiveWindow, setArchiveWindow, windowHolds } from './archive-window'
export type { ZipBackend } from './backend'
export { u16, u32, u64 } from './bytes'
export type { CentralRecords } from './central-records'
export { readCentralRecords } from './central-records'
export { checkEntryName, compareCodePoints, isSystemClutter } from './check-entry-name'
export { crc32 } from './crc32'
export type { ZipCode, ZipDiagnostic, ZipFindings, ZipSeverity } from './diagnostic'
export { hasFatal, ZIP_SEVERITIES, zipDiagnostic } from './diagnostic'
export { COMMON_SAFE_PATH, CONTROL_CHARACTER, collisionKey } from './entry-names'
export type { Budget } from './extract-entry'
export { extractEntry, extractEntryAsync } from './extract-entry'
export type { EndRecord } from './find-end-record'
export { findEndRecord } from './find-end-record'
export type { WebInflaterOptions } from './inflate'
export { boundedInflater, createWebInflater } from './inflate'
export { inflateBounded } from './inflate-bounded'
export { hasDeflateRawStream, inflateRawStream } from './inflate-stream'
export type { BatchEntry, BatchResult, InflateFailure, InflateResult, Inflater } from './inflate-types'
export {
  countWasm,
  inflateBatchWasm,
  inflateWasm,
  inflateWasmReady,
  isUtf8Wasm,
  loadInflateWasm,
  loadInflateWasmSync,
  WASM_MAX_BYTES,
} from './inflate-wasm'
export type { ReadDirectoryOptions } from './read-zip-directory'
export { readZipDirectory } from './read-zip-directory'
export { readZipLayout } from './read-zip-layout'
export type { ZipDirectory, ZipDirectoryResult, ZipEntry, ZipLimits } from './types'
export { ZIP_LIMITS } from './types'
export { isAscii, isUtf8 } from './utf8'
export * from './write-zip'
