/**
 * The open pipeline shared by every entry point: decrypt, central directory (names and limits
 * first), layout, manifest, then every entry inflated under the budget with size, CRC-32 and
 * SHA-256 checked, then integrity, checksums, signature, parts, extensions and `requires`.
 * A fatal diagnostic anywhere refuses the package; nothing here throws on bad input.
 */
import {
  CHECKSUM_PATH,
  PUBLIC_KEY_PATH,
  SIGNATURE_PATH,
  verifyChecksums,
  verifyIntegrity,
  verifyPackageSignature,
} from '@spkg/integrity'
import { decryptPackage, isEncryptedPackage } from '@spkg/integrity/encrypt'
import {
  createDiagnostic,
  type Diagnostic,
  hasFatal,
  isSpkgError,
  type JsonValue,
  LIMITS,
  type Manifest,
  parseManifestText,
  parseSessionText,
  SpkgError,
} from '@spkg/manifest'
import type { ReaderBackend } from '../zip/backend'
import { compareCodePoints } from '../zip/check-entry-name'
import { type Budget, extractEntry, extractEntryAsync } from '../zip/extract-entry'
import { readZipDirectory } from '../zip/read-zip-directory'
import type { ZipDirectory, ZipEntry } from '../zip/types'
import { decodeText, EntryStore, FileIndex, utf8 } from './entry-store'
import { archiveTooLarge, inputBytes, maxArchiveBytes, maxInputBytes } from './input'
import { detectLayout, MANIFEST_PATH } from './layout'
import { createPackage } from './package-object'
import type {
  OpenOptions,
  OpenResult,
  PackageEntry,
  PackageInput,
  PeekOptions,
  PeekResult,
  SignatureInfo,
} from './types'

const SESSION_PATH = 'session.json'

/**
 * For a sparsely loaded archive (see `peekPackageFile`): makes the bytes `[start, end)` of the
 * input present before they are read. The structure (end records, central directory, local
 * headers, data descriptors) is present before the directory is read.
 */
export type RangeFiller = (start: number, end: number) => void
/**
 * Asynchronous SHA-256 computations allowed in flight at once, and the bytes they may hold
 * together: many small files go out in one batch (each WebCrypto call costs a round trip to its
 * thread, bench/reader-browser), large ones a few at a time.
 */
const HASHES_IN_FLIGHT = 256
const HASH_BYTES_IN_FLIGHT = 16 * 1024 * 1024

interface Prepared {
  bytes: Uint8Array
  directory: ZipDirectory
  store: EntryStore
  layout: 'packaged' | 'flat'
  flatEntry?: string
  manifest?: Manifest
  maxBytes: number
  diagnostics: Diagnostic[]
  /**
   * Quick look only: confirms an entry's local header before its data is read and keeps the
   * confirmed entry in the store; undefined with the reason pushed when it disagrees.
   */
  confirm?: (entry: ZipEntry, out: Diagnostic[]) => ZipEntry | undefined
}

const fail = (diagnostics: Diagnostic[]): { ok: false; diagnostics: Diagnostic[] } => ({
  ok: false,
  diagnostics,
})

/** The files a package exposes: no directories, no system clutter. */
export function visibleFiles(directory: ZipDirectory): ZipEntry[] {
  // Indexed loops, not array callbacks or for-of, on the per-entry paths of peek and open:
  // they run cold (interpreted) on every call, where each callback or iterator step costs.
  const { entries } = directory
  const out: ZipEntry[] = []
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!
    if (!e.isDirectory && !e.ignored) out.push(e)
  }
  return out
}

/** The public description of each visible file (no directories, no system clutter). */
function packageEntries(entries: readonly ZipEntry[]): PackageEntry[] {
  // Sized for every entry up front (no regrowth), cut to the files at the end.
  const out = new Array<PackageEntry>(entries.length)
  let n = 0
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!
    if (e.isDirectory || e.ignored) continue
    out[n++] = {
      path: e.name,
      size: e.size,
      compressedSize: e.compressedSize,
      method: e.method === 0 ? 'stored' : 'deflate',
    }
  }
  out.length = n
  return out
}

/**
 * The archive inside an encrypted package (`.spkg.enc`), or undefined with `pkg/key-required` or
 * `pkg/decrypt-failed` pushed. Out of `prepare`, so opening a plain package never compiles it.
 */
async function decrypt(
  bytes: Uint8Array,
  options: PeekOptions,
  diagnostics: Diagnostic[],
): Promise<Uint8Array | undefined> {
  try {
    return await decryptPackage(bytes, options.decryptionKey)
  } catch (e) {
    if (!isSpkgError(e)) throw e
    diagnostics.push(
      createDiagnostic(
        e.code === 'pkg/key-required' ? 'pkg/key-required' : 'pkg/decrypt-failed',
        e.code === 'pkg/key-required'
          ? 'The package is encrypted (.spkg.enc); pass its key as decryptionKey to open it.'
          : `The encrypted package cannot be decrypted: ${e.message}.`,
      ),
    )
    return undefined
  }
}

/**
 * The text of `manifest.json` (a BOM reported and kept for the JSON reader to drop), or
 * undefined with `manifest/not-json` pushed when it is not UTF-8.
 */
function manifestText(data: Uint8Array, diagnostics: Diagnostic[]): string | undefined {
  let text: string
  try {
    text = utf8.decode(data)
  } catch {
    diagnostics.push(manifestFinding.notUtf8())
    return undefined
  }
  if (text.charCodeAt(0) === 0xfeff) diagnostics.push(manifestFinding.bom())
  return text
}

/** The wording of {@link manifestText}'s findings, compiled only when one is made. */
const manifestFinding = {
  notUtf8: () =>
    createDiagnostic('manifest/not-json', 'manifest.json is not valid UTF-8, so it is not JSON.', {
      path: MANIFEST_PATH,
    }),
  bom: () =>
    createDiagnostic('pkg/text-bom', 'manifest.json starts with a UTF-8 byte-order mark; it is ignored.', {
      path: MANIFEST_PATH,
    }),
}

/** Steps every open and peek share: bytes, decryption, directory, layout, manifest. */
async function prepare(
  input: PackageInput,
  options: PeekOptions,
  backend: ReaderBackend,
  fill?: RangeFiller,
  quick = false,
): Promise<Prepared | { diagnostics: Diagnostic[] }> {
  const maxBytes = options.limits?.maxUncompressedBytes ?? LIMITS.maxUncompressedBytes
  const maxEntries = options.limits?.maxEntries ?? LIMITS.maxEntries
  const maxFile = maxArchiveBytes(maxBytes)
  const read = await inputBytes(input, maxInputBytes(maxBytes))
  const diagnostics = read.diagnostics
  let bytes = read.bytes
  if (!bytes) return { diagnostics }
  if (bytes.length > maxInputBytes(maxBytes)) {
    diagnostics.push(archiveTooLarge(bytes.length, maxInputBytes(maxBytes)))
    return { diagnostics }
  }
  if (isEncryptedPackage(bytes)) {
    bytes = await decrypt(bytes, options, diagnostics)
    if (!bytes) return { diagnostics }
  }
  if (bytes.length > maxFile) {
    diagnostics.push(archiveTooLarge(bytes.length, maxFile))
    return { diagnostics }
  }
  const dir = readZipDirectory(
    bytes,
    { maxEntries, maxUncompressedBytes: maxBytes },
    { localHeaders: quick ? 'lazy' : 'all' },
  )
  diagnostics.push(...dir.diagnostics)
  const directory = dir.directory
  if (!directory || hasFatal(diagnostics)) return { diagnostics }
  const { entries } = directory
  const files = new FileIndex(entries)
  const store = new EntryStore(bytes, files, backend)
  // A lazily checked entry is completed in place (the same object the index holds).
  const confirm = dir.checkLocal
  const layout = detectLayout(entries)
  diagnostics.push(...layout.diagnostics)
  if (!layout.layout || hasFatal(diagnostics)) return { diagnostics }
  let manifest: Manifest | undefined
  if (layout.layout === 'packaged') {
    const entry = confirm ? confirm(layout.manifest!, diagnostics) : layout.manifest!
    if (!entry) return { diagnostics }
    fill?.(entry.dataOffset, entry.dataOffset + entry.compressedSize)
    const budget = { remaining: maxBytes, limit: maxBytes }
    // A quick look inflates the manifest at once; an open takes the inflater's faster asynchronous
    // path (the manifest is often the largest deflated entry of a package of many small parts).
    const data = quick
      ? extractEntry(bytes, entry, backend, budget, diagnostics)
      : await extractEntryAsync(bytes, entry, backend, budget, diagnostics)
    if (!data) return { diagnostics }
    store.keep(entry, data)
    const text = manifestText(data, diagnostics)
    if (text === undefined) return { diagnostics }
    const parsed = parseManifestText(text)
    diagnostics.push(...parsed.diagnostics)
    if (!parsed.manifest || hasFatal(diagnostics)) return { diagnostics }
    manifest = parsed.manifest
  }
  return {
    bytes,
    directory,
    store,
    layout: layout.layout,
    flatEntry: layout.flatEntry,
    manifest,
    maxBytes,
    diagnostics,
    confirm,
  }
}

/** The entry part: the first manifest part, or the flat layout's lowest root `.sty`. */
function entryOf(p: Prepared): string | undefined {
  if (p.layout === 'flat') return p.flatEntry
  return p.manifest?.parts?.[0]?.file
}

/**
 * Quick look: central directory, layout and manifest; no other entry is inflated and no other
 * local header is read. `readBytes` checks an entry's local header (as open does) before its
 * data. Never rejects on bad input.
 */
export async function peekArchive(
  input: PackageInput,
  options: PeekOptions,
  backend: ReaderBackend,
  fill?: RangeFiller,
): Promise<PeekResult> {
  const p = await prepare(input, options, backend, fill, true)
  if (!('store' in p)) return fail(p.diagnostics)
  const { store, confirm } = p
  return {
    ok: true,
    manifest: p.manifest,
    layout: p.layout,
    type: p.manifest?.type ?? 'story',
    entry: entryOf(p),
    entries: packageEntries(p.directory.entries),
    readBytes: async (path) => {
      let e = store.files.get(path)
      if (e && confirm) {
        const out: Diagnostic[] = []
        e = confirm(e, out)
        if (!e) throw new SpkgError(out[0]!.code, out[0]!.message, { diagnostics: out })
      }
      if (e) fill?.(e.dataOffset, e.dataOffset + e.compressedSize)
      return store.read(path)
    },
    diagnostics: p.diagnostics,
  }
}

/** Reports a text file that is not UTF-8 or starts with a BOM, without keeping the decoded text. */
function checkText(data: Uint8Array, path: string, backend: ReaderBackend, out: Diagnostic[]): void {
  if (!backend.isUtf8) {
    decodeText(data, path, out)
    return
  }
  if (!backend.isUtf8(data))
    out.push(createDiagnostic('pkg/invalid-text', `"${path}" is not valid UTF-8 text.`, { path }))
  else if (data[0] === 0xef && data[1] === 0xbb && data[2] === 0xbf)
    out.push(
      createDiagnostic('pkg/text-bom', `"${path}" starts with a UTF-8 byte-order mark; it is ignored.`, {
        path,
      }),
    )
}

const isText = (path: string) => /\.(?:sty|xty|json)$/.test(path)

/** True when `path` was found not to be UTF-8 text. */
const hasInvalidText = (diagnostics: readonly Diagnostic[], path: string) =>
  diagnostics.some((d) => d.code === 'pkg/invalid-text' && d.path === path)

/**
 * Inflates and checks every entry (directories and clutter included: they count toward the
 * limits), hashing the visible files when `hash` is set. Returns the hashes, or undefined
 * after a fatal finding.
 */
async function verifyEntries(
  p: Prepared,
  backend: ReaderBackend,
  hash: boolean,
  signal: AbortSignal | undefined,
): Promise<Map<string, string> | undefined> {
  const budget: Budget = { remaining: p.maxBytes, limit: p.maxBytes }
  const hashes = new Map<string, string>()
  const pending: Array<{ done: Promise<void>; size: number }> = []
  let held = 0
  const { entries } = p.directory
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!
    signal?.throwIfAborted()
    let data = extractEntryAsync(p.bytes, entry, backend, budget, p.diagnostics)
    if (data instanceof Promise) data = await data
    if (!data) return undefined
    if (entry.isDirectory || entry.ignored) continue
    p.store.keep(entry, data)
    if (isText(entry.name) && entry.name !== MANIFEST_PATH)
      checkText(data, entry.name, backend, p.diagnostics)
    if (!hash) continue
    const h = backend.sha256Hex(data)
    if (typeof h === 'string') hashes.set(entry.name, h)
    else {
      pending.push({ done: h.then((hex) => void hashes.set(entry.name, hex)), size: data.length })
      held += data.length
      while (pending.length >= HASHES_IN_FLIGHT || held > HASH_BYTES_IN_FLIGHT) {
        const first = pending.shift()!
        held -= first.size
        await first.done
      }
    }
  }
  await Promise.all(pending.map((x) => x.done))
  signal?.throwIfAborted()
  // Report in archive order whatever order the hashes finished in.
  return new Map(
    visibleFiles(p.directory).flatMap((e) => (hashes.has(e.name) ? [[e.name, hashes.get(e.name)!]] : [])),
  )
}

/**
 * Opens a package: see the module comment. Resolves `{ ok: false }` with the diagnostics when a
 * fatal one refuses it; rejects only when `options.signal` aborts.
 */
export async function openArchive(
  input: PackageInput,
  options: OpenOptions,
  backend: ReaderBackend,
): Promise<OpenResult> {
  options.signal?.throwIfAborted()
  // Every entry will be inflated: let the inflater load what it needs while the directory is read.
  backend.inflater.prepare?.()
  const p = await prepare(input, options, backend)
  if (!('store' in p)) return fail(p.diagnostics)
  const { manifest, store, diagnostics } = p
  const visible = visibleFiles(p.directory)
  const has = (path: string) => store.files.has(path)
  const hasChecksum = has(CHECKSUM_PATH)
  const hashes = await verifyEntries(
    p,
    backend,
    manifest?.integrity !== undefined || hasChecksum,
    options.signal,
  )
  if (!hashes) return fail(diagnostics)

  // Integrity and checksums: a mismatch is fatal, so both run before anything is assembled.
  if (manifest?.integrity)
    diagnostics.push(...verifyIntegrity(hashes, manifest.integrity, { layout: p.layout }))
  if (hasChecksum) diagnostics.push(...verifyChecksums(hashes, store.read(CHECKSUM_PATH)))
  if (hasFatal(diagnostics)) return fail(diagnostics)
  let signature: SignatureInfo = { status: 'unsigned' }
  if (manifest?.signed === true || has(SIGNATURE_PATH)) {
    const files = new Map<string, Uint8Array>()
    for (const path of [CHECKSUM_PATH, SIGNATURE_PATH, PUBLIC_KEY_PATH])
      if (has(path)) files.set(path, store.read(path))
    const r = await verifyPackageSignature({
      files,
      manifest: { signed: manifest?.signed, signature: manifest?.signature },
      trustedKeys: options.trustedKeys ?? [],
    })
    diagnostics.push(...r.diagnostics)
    signature =
      r.status === 'verified'
        ? { status: 'verified', fingerprint: r.fingerprint }
        : r.status === 'unsigned'
          ? { status: 'unsigned' }
          : { status: 'unverified', ...(r.fingerprint ? { fingerprint: r.fingerprint } : {}) }
  }

  // Parts: manifest order; the entry must exist and be a story file.
  const entry = entryOf(p)
  const parts: string[] = []
  if (p.layout === 'flat') parts.push(entry!)
  else {
    const listed = manifest?.parts ?? []
    listed.forEach((part, i) => {
      if (i === 0) return
      if (has(part.file)) parts.push(part.file)
      else
        diagnostics.push(
          createDiagnostic(
            'pkg/missing-part',
            `Part "${part.file}" is listed in manifest.parts but missing from the archive.`,
            {
              path: part.file,
              field: `/parts/${i}/file`,
            },
          ),
        )
    })
    if (entry === undefined)
      diagnostics.push(
        createDiagnostic('pkg/no-entry', 'manifest.json lists no parts, so the package has no entry story.', {
          path: MANIFEST_PATH,
          field: '/parts',
        }),
      )
    else if (!entry.endsWith('.sty'))
      diagnostics.push(
        createDiagnostic(
          'pkg/no-entry',
          `The first part "${entry}" is not a .sty story file, so it cannot be the entry.`,
          {
            path: entry,
            field: '/parts/0/file',
          },
        ),
      )
    else if (!has(entry))
      diagnostics.push(
        createDiagnostic(
          'pkg/no-entry',
          `The entry part "${entry}" (first of manifest.parts) is missing from the archive.`,
          {
            path: entry,
            field: '/parts/0/file',
          },
        ),
      )
    else parts.unshift(entry)
  }
  // An entry story that is not UTF-8 text cannot be played: there is no usable entry.
  if (entry?.endsWith('.sty') && has(entry) && hasInvalidText(diagnostics, entry))
    diagnostics.push(
      createDiagnostic(
        'pkg/no-entry',
        `The entry part "${entry}" is not valid UTF-8 text, so it cannot be played.`,
        {
          path: entry,
          ...(p.layout === 'packaged' ? { field: '/parts/0/file' } : {}),
        },
      ),
    )

  // Extensions: the manifest's order, or every module by code point.
  const modules: Array<{ path: string; source: string }> = []
  const modulePaths =
    manifest?.extensions ??
    visible
      .map((e) => e.name)
      .filter((n) => n.endsWith('.xty'))
      .sort(compareCodePoints)
  modulePaths.forEach((path, i) => {
    if (!has(path)) {
      diagnostics.push(
        createDiagnostic(
          'pkg/missing-extension',
          `Extension "${path}" is listed in manifest.extensions but missing from the archive.`,
          {
            path,
            field: `/extensions/${i}`,
          },
        ),
      )
      return
    }
    const source = decodeText(store.read(path), path, [])
    if (source !== undefined) modules.push({ path, source })
  })

  // Host namespaces the story needs.
  const registered = new Set(options.hostNamespaces ?? [])
  for (const ns of manifest?.requires ?? [])
    if (!registered.has(ns))
      diagnostics.push(
        createDiagnostic(
          'pkg/unsupported-requires',
          `The story requires the host-extension namespace "${ns}", which this host has not registered.`,
          { path: MANIFEST_PATH, field: '/requires' },
        ),
      )

  // Referenced files.
  const missingFile = (path: string, field: string, what: string) => {
    if (!has(path))
      diagnostics.push(
        createDiagnostic('pkg/missing-file', `${what} "${path}" is missing from the archive.`, {
          path,
          field,
        }),
      )
  }
  if (manifest?.cover) missingFile(manifest.cover, '/cover', 'The cover')
  for (const [i, a] of (manifest?.assets ?? []).entries()) missingFile(a.file, `/assets/${i}/file`, 'Asset')
  if (manifest?.build?.names_map) missingFile(manifest.build.names_map, '/build/names_map', 'The names map')

  let session: Record<string, JsonValue> | undefined
  if (has(SESSION_PATH)) {
    const text = decodeText(store.read(SESSION_PATH), SESSION_PATH, [])
    if (text !== undefined) {
      const r = parseSessionText(text)
      diagnostics.push(...r.diagnostics)
      session = r.session
    }
  }
  if (hasFatal(diagnostics)) {
    store.release()
    return fail(diagnostics)
  }

  const special = (path: string) =>
    path === MANIFEST_PATH ||
    path === SESSION_PATH ||
    path.startsWith('META-PKG/') ||
    /\.(?:sty|xty)$/.test(path)
  const pkg = createPackage({
    manifest,
    layout: p.layout,
    type: manifest?.type ?? 'story',
    entry: entry!,
    parts,
    assets: visible.map((e) => e.name).filter((n) => !special(n)),
    entries: packageEntries(p.directory.entries),
    session,
    modules,
    signature,
    diagnostics,
    store,
  })
  return { ok: true, package: pkg, diagnostics }
}
