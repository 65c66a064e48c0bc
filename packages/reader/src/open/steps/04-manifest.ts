/**
 * Step 4, the manifest (packaged layout): `manifest.json`'s local header confirmed, the entry
 * inflated under the budget, decoded as strict UTF-8 and parsed by `@spkg/manifest` (its
 * findings pass through). Over 1 MiB (`MANIFEST_MAX_BYTES`, by its declared size, before
 * it is inflated: the inflater keeps no more than that), not UTF-8, not JSON, not an object or
 * no `id` refuses the package.
 */
import {
  createDiagnostic,
  type Diagnostic,
  hasFatal,
  MANIFEST_MAX_BYTES,
  type Manifest,
  type ParseManifestOptions,
  parseManifestText,
} from '@spkg/manifest'
import { extractEntry, extractEntryAsync, type ZipEntry } from '@spkg/zip'
import type { ReaderBackend } from '../../zip/backend'
import { type EntryStore, utf8 } from '../entry-store'
import type { Opening, SparseSource } from '../opening'
import { MANIFEST_PATH } from './03-layout'

/** What {@link readManifest} needs of the archive read so far. */
export interface ManifestInput {
  bytes: Uint8Array
  /** The `manifest.json` entry the layout found. */
  entry: ZipEntry
  store: EntryStore
  maxBytes: number
  confirm: Opening['confirm']
  /** A quick look inflates the manifest at once; an open takes the inflater's faster asynchronous path. */
  quick: boolean
  sparse?: SparseSource
  /** The per-field bounds (`checkManifestBounds`), when the caller asked for them. */
  bounds?: ParseManifestOptions['bounds']
}

/**
 * The canonical manifest and the `integrity` it declares, or undefined after a fatal finding
 * (pushed to `diagnostics`).
 */
export async function readManifest(
  m: ManifestInput,
  backend: ReaderBackend,
  diagnostics: Diagnostic[],
): Promise<{ manifest: Manifest; integrity?: unknown } | undefined> {
  if (m.sparse?.fillHeader) await m.sparse.fillHeader(m.entry)
  const entry = m.confirm ? m.confirm(m.entry, diagnostics) : m.entry
  if (!entry) return undefined
  if (entry.size > MANIFEST_MAX_BYTES) {
    diagnostics.push(manifestFinding.tooLarge(entry.size))
    return undefined
  }
  if (m.sparse) await m.sparse.fill(entry.dataOffset, entry.dataOffset + entry.compressedSize)
  const budget = { remaining: m.maxBytes, limit: m.maxBytes }
  // The manifest is often the largest deflated entry of a package of many small parts: an open
  // takes the asynchronous path (WebAssembly or the stream), a quick look the synchronous one.
  const data = m.quick
    ? extractEntry(m.bytes, entry, backend, budget, diagnostics)
    : await extractEntryAsync(m.bytes, entry, backend, budget, diagnostics)
  if (!data) return undefined
  m.store.keep(entry, data)
  const text = manifestText(data, diagnostics)
  if (text === undefined) return undefined
  // `m` is the parse's options too: its `bounds` (no `path`: the archive's manifest.json).
  const parsed = parseManifestText(text, m)
  diagnostics.push(...parsed.diagnostics)
  if (!parsed.manifest || hasFatal(diagnostics)) return undefined
  return {
    manifest: parsed.manifest,
    integrity: declaredIntegrity(text, parsed.manifest, parsed.diagnostics),
  }
}

/**
 * The `integrity` the author wrote. The manifest parser keeps only what it can read (it drops a
 * value that is not a SHA-256, and a map that is not an object, with a finding at `/integrity`),
 * but a package that asks for verification must not load a file unverified: when the parser
 * reported anything there, step 6 gets the value as written, which `verifyIntegrity` refuses:
 * `pkg/integrity-mismatch` (fatal) for a listed value that cannot be read, `pkg/integrity-malformed`
 * (fatal) for a map that is not an object.
 */
function declaredIntegrity(text: string, manifest: Manifest, found: readonly Diagnostic[]): unknown {
  if (!found.some((d) => d.field === '/integrity' || d.field?.startsWith('/integrity/')))
    return manifest.integrity
  try {
    return (JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text) as { integrity?: unknown })
      .integrity
  } catch {
    return manifest.integrity
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
  tooLarge: (size: number) =>
    createDiagnostic(
      'manifest/too-large',
      `manifest.json is ${size} bytes, over ${MANIFEST_MAX_BYTES} bytes (1 MiB), the limit of a manifest; it is not read.`,
      { path: MANIFEST_PATH },
    ),
  notUtf8: () =>
    createDiagnostic('manifest/not-json', 'manifest.json is not valid UTF-8, so it is not JSON.', {
      path: MANIFEST_PATH,
    }),
  bom: () =>
    createDiagnostic('pkg/text-bom', 'manifest.json starts with a UTF-8 byte-order mark; it is ignored.', {
      path: MANIFEST_PATH,
    }),
}
