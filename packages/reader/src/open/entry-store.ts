/**
 * Access to the verified entries of one archive. Memory stays bounded: stored entries are read
 * from the archive bytes, small deflated entries are kept once inflated, and the rest are
 * re-inflated (under their declared size, CRC-32 checked again) on every read. Every read returns
 * a buffer the caller owns, unless it asks for a view of a stored entry.
 */
import { createDiagnostic, type Diagnostic, SpkgError } from '@spkg/manifest'
import { extractEntry, type ZipEntry } from '@spkg/zip'
import type { ReaderBackend } from '../zip/backend'

/** Deflated entries up to this size stay in memory once inflated. */
export const KEEP_ENTRY_BYTES = 64 * 1024
/** At most this many inflated bytes are kept in memory per package. */
export const KEEP_TOTAL_BYTES = 8 * 1024 * 1024

/**
 * The strict UTF-8 decoder every text read shares (a BOM is kept, for the caller to report):
 * making a decoder costs more than decoding a manifest, so it is made once, on import.
 */
export const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/** Decodes strict UTF-8, dropping a BOM; undefined (and the reason pushed) when invalid. */
export function decodeText(data: Uint8Array, path: string, out: Diagnostic[]): string | undefined {
  let text: string
  try {
    text = utf8.decode(data)
  } catch {
    out.push(createDiagnostic('pkg/invalid-text', `"${path}" is not valid UTF-8 text.`, { path }))
    return undefined
  }
  if (text.charCodeAt(0) === 0xfeff) {
    out.push(
      createDiagnostic('pkg/text-bom', `"${path}" starts with a UTF-8 byte-order mark; it is ignored.`, {
        path,
      }),
    )
    return text.slice(1)
  }
  return text
}

/**
 * Every file a package exposes (no directories, no system clutter) by name, indexed on first
 * use: a quick look that reads only `manifest.json` never builds it.
 */
export class FileIndex {
  private map: Map<string, ZipEntry> | undefined

  constructor(private readonly entries: readonly ZipEntry[]) {}

  private index(): Map<string, ZipEntry> {
    if (this.map) return this.map
    const map = new Map<string, ZipEntry>()
    for (let i = 0; i < this.entries.length; i++) {
      const e = this.entries[i]!
      if (!e.isDirectory && !e.ignored) map.set(e.name, e)
    }
    this.map = map
    return map
  }

  get(path: string): ZipEntry | undefined {
    return this.index().get(path)
  }

  has(path: string): boolean {
    return this.index().has(path)
  }
}

/** Reads files of one archive by path (see the module comment for what stays in memory). */
export class EntryStore {
  private bytes: Uint8Array | undefined
  private readonly kept = new Map<string, Uint8Array>()
  private keptBytes = 0

  constructor(
    bytes: Uint8Array,
    /** Every file the package exposes, by name (no directories, no system clutter). */
    readonly files: FileIndex,
    private readonly backend: ReaderBackend,
  ) {
    this.bytes = bytes
  }

  /** True when the store still holds the archive. */
  get open(): boolean {
    return this.bytes !== undefined
  }

  /** Remembers verified bytes when the memory policy allows it. */
  keep(entry: ZipEntry, data: Uint8Array): void {
    if (entry.method === 0) return // a view into the archive: nothing to gain
    if (data.length > KEEP_ENTRY_BYTES || this.keptBytes + data.length > KEEP_TOTAL_BYTES) return
    this.kept.set(entry.name, data)
    this.keptBytes += data.length
  }

  /**
   * The bytes kept for `path`, shared, not copied (for the open's own steps: step 5 takes the
   * manifest step 4 verified instead of inflating it again); undefined when none are kept.
   */
  verified(path: string): Uint8Array | undefined {
    return this.kept.get(path)
  }

  /**
   * The verified bytes of `path`; `view`: a stored entry's as a view into the archive, not a copy.
   * @throws SpkgError `pkg/closed` after close (whatever the path), `pkg/missing-file` for a path
   *   that is not a file of the package; the entry's `pkg/corrupt-entry` if the archive bytes
   *   changed since the open
   */
  read(path: string, view?: boolean): Uint8Array {
    if (!this.bytes)
      throw new SpkgError('pkg/closed', `The package is closed; "${path}" cannot be read after close().`)
    const entry = this.files.get(path)
    if (!entry) throw new SpkgError('pkg/missing-file', `"${path}" is not a file of this package.`)
    // Callers get their own copy: writing into it never changes what later reads return.
    const hit = this.kept.get(path)
    if (hit) return hit.slice()
    const diagnostics: Diagnostic[] = []
    const data = extractEntry(
      this.bytes,
      entry,
      this.backend,
      { remaining: entry.size, limit: entry.size },
      diagnostics,
    )
    if (!data) {
      const first = diagnostics[0]!
      throw new SpkgError(first.code, first.message, { diagnostics })
    }
    return entry.method === 0 && !view ? data.slice() : data
  }

  /** Drops the archive bytes and everything kept. */
  release(): void {
    this.bytes = undefined
    this.kept.clear()
    this.keptBytes = 0
  }
}
