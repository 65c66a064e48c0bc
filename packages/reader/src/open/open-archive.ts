/**
 * The open pipeline shared by every entry point, as named steps in the order the checks run.
 * `ls steps/` lists them in that order (the number is the position; each step has its own file
 * and tests, and pushes its findings to the one `diagnostics` list):
 *
 *   01-input       bytes, size bound before reading, decryption of `.spkg.enc`
 *   02-directory   central directory: names, duplicates, limits, end records, local headers
 *   03-layout      packaged (root manifest.json) or flat (root .sty), as the SPEC's table
 *   04-manifest    manifest.json inflated, strict UTF-8, parsed by @spkg/manifest
 *   05-entries     every entry inflated under one budget; size, CRC-32, UTF-8 text; SHA-256
 *   06-integrity   manifest.integrity and META-PKG/checksum.sha256 (a mismatch is fatal)
 *   07-signature   signify Ed25519 signature against trustedKeys
 *   08-parts       manifest.parts in order; the entry must be a present, UTF-8 .sty
 *   09-extensions  .xty modules in manifest.extensions order, else by code point
 *   10-requires    host-extension namespaces the embedder registered
 *   11-referenced-files  cover, assets, names map (read through its schema)
 *   12-session     session.json
 *
 * `peekPackage` (the quick look) runs steps 1 to 4 only, reading local headers lazily; `openPackage`
 * runs all twelve, then assembles the package (`package-object.ts`). A fatal diagnostic after
 * steps 1 to 6 stops the pipeline at once; steps 8 to 12 all report before a fatal one refuses
 * the package. Nothing here throws on bad input; an open rejects only when its signal aborts.
 */

import type { Diagnostic } from '@spkg/manifest'
import { hasFatal, LIMITS, SpkgError } from '@spkg/manifest'
import type { ReaderBackend } from '../zip/backend'
import { EntryStore, FileIndex } from './entry-store'
import { packageEntries, visibleFiles } from './files'
import { entryOf, type Opening, type SparseSource } from './opening'
import { createPackage } from './package-object'
import { readInput } from './steps/01-input'
import { readDirectory } from './steps/02-directory'
import { detectLayout, MANIFEST_PATH } from './steps/03-layout'
import { readManifest } from './steps/04-manifest'
import { verifyEntries } from './steps/05-entries'
import { checkIntegrity, needsHashes } from './steps/06-integrity'
import { checkSignature } from './steps/07-signature'
import { resolveParts } from './steps/08-parts'
import { loadExtensions } from './steps/09-extensions'
import { checkRequires } from './steps/10-requires'
import { checkReferencedFiles, readNamesMap } from './steps/11-referenced-files'
import { readSession, SESSION_PATH } from './steps/12-session'
import type { OpenOptions, OpenResult, PackageInput, PeekOptions, PeekResult } from './types'

export type { RangeFiller, SparseSource } from './opening'

const fail = (diagnostics: Diagnostic[]): { ok: false; diagnostics: Diagnostic[] } => ({
  ok: false,
  diagnostics,
})

/**
 * Steps 1 to 4, which every open and peek share: input, directory, layout, manifest. `quick`:
 * local headers are checked when read (the quick look), not all at once.
 */
export async function prepareOpening(
  input: PackageInput,
  options: PeekOptions,
  backend: ReaderBackend,
  quick: boolean,
  sparse?: SparseSource,
): Promise<Opening | { diagnostics: Diagnostic[] }> {
  const maxBytes = options.limits?.maxUncompressedBytes ?? LIMITS.maxUncompressedBytes
  const maxEntries = options.limits?.maxEntries ?? LIMITS.maxEntries
  const diagnostics: Diagnostic[] = []
  const bytes = await readInput(input, options, maxBytes, diagnostics)
  if (!bytes) return { diagnostics }
  const dir = readDirectory(bytes, { maxEntries, maxUncompressedBytes: maxBytes }, quick, diagnostics)
  if (!dir) return { diagnostics }
  const { directory, confirm } = dir
  const store = new EntryStore(bytes, new FileIndex(directory.entries), backend)
  const layout = detectLayout(directory.entries)
  diagnostics.push(...layout.diagnostics)
  if (!layout.layout || hasFatal(diagnostics)) return { diagnostics }
  const opening: Opening = {
    bytes,
    directory,
    store,
    layout: layout.layout,
    flatEntry: layout.flatEntry,
    maxBytes,
    diagnostics,
    confirm,
  }
  if (layout.layout === 'packaged') {
    const read = await readManifest(
      {
        bytes,
        entry: layout.manifest!,
        store,
        maxBytes,
        confirm,
        quick,
        sparse,
        bounds: options.manifestBounds,
      },
      backend,
      diagnostics,
    )
    if (!read) return { diagnostics }
    opening.manifest = read.manifest
    opening.manifestEntry = layout.manifest
    opening.integrity = read.integrity
  }
  return opening
}

/**
 * Quick look: steps 1 to 4; no other entry is inflated and no other local header is read.
 * `readBytes` checks an entry's local header (as open does) before its data. Never rejects on
 * bad input. `sparse`: the input holds only what has been read so far (see {@link SparseSource}).
 */
export async function peekArchive(
  input: PackageInput,
  options: PeekOptions,
  backend: ReaderBackend,
  sparse?: SparseSource,
): Promise<PeekResult> {
  const o = await prepareOpening(input, options, backend, true, sparse)
  if (!('store' in o)) return fail(o.diagnostics)
  const { store, confirm } = o
  return {
    ok: true,
    manifest: o.manifest,
    layout: o.layout,
    type: o.manifest?.type ?? 'story',
    entry: entryOf(o),
    entries: packageEntries(o.directory.entries),
    readBytes: async (path) => {
      let e = store.files.get(path)
      if (e && confirm) {
        if (sparse?.fillHeader) await sparse.fillHeader(e)
        const out: Diagnostic[] = []
        e = confirm(e, out)
        if (!e) throw new SpkgError(out[0]!.code, out[0]!.message, { diagnostics: out })
      }
      if (e && sparse) await sparse.fill(e.dataOffset, e.dataOffset + e.compressedSize)
      return store.read(path)
    },
    diagnostics: o.diagnostics,
  }
}

/** What `assets` leaves out: the manifest, the session, META-PKG/, story parts and modules. */
const special = (path: string) =>
  path === MANIFEST_PATH ||
  path === SESSION_PATH ||
  path.startsWith('META-PKG/') ||
  /\.(?:sty|xty)$/.test(path)

/**
 * Opens a package: every step, in order (see the module comment). Resolves `{ ok: false }` with
 * the diagnostics when a fatal one refuses it; rejects only when `options.signal` aborts.
 */
export async function openArchive(
  input: PackageInput,
  options: OpenOptions,
  backend: ReaderBackend,
  deferred?: ReadonlyMap<string, string>,
): Promise<OpenResult> {
  options.signal?.throwIfAborted()
  // Every entry will be inflated: let the inflater load what it needs while the directory is read.
  backend.inflater.prepare?.()
  const o = await prepareOpening(input, options, backend, false)
  if (!('store' in o)) return fail(o.diagnostics)
  const { manifest, store, diagnostics } = o
  if (deferred) o.deferred = deferred
  const hashes = await verifyEntries(o, backend, needsHashes(o), options.signal)
  if (!hashes) return fail(diagnostics)
  // Progressive loading: a deferred file's expected hash stands in until it arrives and is checked
  // (apart from the package's `hashes`, which hold only what was computed).
  checkIntegrity(o, deferred ? new Map([...hashes, ...deferred]) : hashes)
  if (hasFatal(diagnostics)) return fail(diagnostics)
  const signature = await checkSignature(o, options.trustedKeys ?? [], options.ed25519Fallback)
  const { entry, parts } = resolveParts(o)
  const visible = visibleFiles(o.directory)
  const modules = loadExtensions(o, visible)
  checkRequires(manifest, options.hostNamespaces, diagnostics)
  checkReferencedFiles(manifest, (path) => store.files.has(path), diagnostics)
  const names = readNamesMap(manifest, store, diagnostics)
  const session = readSession(store, diagnostics)
  if (hasFatal(diagnostics)) {
    store.release()
    return fail(diagnostics)
  }
  const pkg = createPackage({
    manifest,
    layout: o.layout,
    type: manifest?.type ?? 'story',
    entry: entry!,
    parts,
    assets: visible.map((e) => e.name).filter((n) => !special(n)),
    entries: packageEntries(o.directory.entries),
    session,
    names,
    modules,
    signature,
    diagnostics,
    hashes,
    store,
  })
  return { ok: true, package: pkg, diagnostics }
}
