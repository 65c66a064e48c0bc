/**
 * Turns a set of files (an author's folder, or the entries of an existing package) into the
 * bytes of a `.spkg`: canonical `manifest.json` first (parts and assets completed from the files
 * when the manifest omits them, `integrity` recomputed), then every other file in raw-byte order,
 * deflated unless it is already-compressed media. The same files always give the same bytes.
 * Files with no `manifest.json` and no `story/` folder but `.sty` files at the root are packed as
 * they are, in the flat layout (no manifest, no metadata).
 */
import { randomUUID } from 'node:crypto'
import { CHECKSUM_PATH, compareUtf8, PUBLIC_KEY_PATH, SIGNATURE_PATH } from '@spkg/integrity'
import { sha256HexSync } from '@spkg/integrity/node'
import {
  checkManifestBounds,
  createDiagnostic,
  type Diagnostic,
  hasFatal,
  isPlainObject,
  type Manifest,
  parseJsonText,
  parseManifest,
  parseManifestText,
  serializeManifest,
} from '@spkg/manifest'
import { canonicalSourceText, completeManifest, rewritten } from './complete-manifest'
import { isCompressedMedia } from './media'
import { type WrittenEntry, writeZip, type ZipFile } from './write-zip'

/** Result of {@link buildPackage}. */
export interface BuiltPackage {
  /** The archive, absent when a fatal problem stopped the build. */
  bytes?: Uint8Array
  /** The canonical manifest written into the archive. */
  manifest?: Manifest
  /** Every file written, in archive order (`manifest.json` first). */
  files: Map<string, Uint8Array>
  entries: WrittenEntry[]
  diagnostics: Diagnostic[]
}

/** Options of {@link buildPackage}. */
export interface BuildPackageOptions {
  /** Changes applied to the canonical manifest before it is written (`spkg sign` sets `signed`). */
  editManifest?: (manifest: Manifest) => Manifest
  /** Extra files written as given (the `META-PKG/` files of `spkg sign`); they replace sources. */
  extraFiles?: ReadonlyMap<string, Uint8Array>
  /** Keep `signed`/`signature` as the source manifest has them (default: they are removed). */
  keepSignatureFields?: boolean
  /** Label of the source in messages (`the folder`, `the package`). */
  source?: string
  /**
   * The id a source without one gets, silently (`spkg play` of a draft: the same folder always
   * gets the same id, so its saved states resume). Default: a random UUID and `pkg/generated-id`.
   */
  idWhenAbsent?: string
  /** Deflate text (default); `false` stores every entry (`spkg play` opens the bytes at once). */
  compress?: boolean
}

const MANIFEST = 'manifest.json'
const decoder = new TextDecoder('utf-8', { fatal: true })
const encoder = new TextEncoder()

/** Reads the source manifest as a JSON value, reporting what stops it; `undefined` when absent. */
function readSourceManifest(
  bytes: Uint8Array | undefined,
  diagnostics: Diagnostic[],
): { value?: Record<string, unknown>; text?: string; failed: boolean } {
  if (bytes === undefined) return { failed: false }
  let text: string
  try {
    text = decoder.decode(bytes)
  } catch {
    diagnostics.push(
      createDiagnostic('manifest/not-json', 'manifest.json is not valid UTF-8 text', { path: MANIFEST }),
    )
    return { failed: true }
  }
  const json = parseJsonText(text)
  if (json.ok && isPlainObject(json.value)) return { value: { ...json.value }, text, failed: false }
  // Not JSON, or not an object: the manifest parser words the fatal diagnostic (only then is it run
  // here; the package builder runs it on the completed manifest).
  diagnostics.push(
    ...parseManifestText(text, { bounds: checkManifestBounds }).diagnostics.filter(
      (d) => d.severity === 'fatal' && d.code !== 'manifest/missing-id',
    ),
  )
  return { failed: true }
}

/**
 * Builds a package from `source` (archive path → bytes). Never throws on bad input: problems come
 * back as diagnostics, and a fatal one leaves `bytes` undefined.
 *
 * @example
 * const { bytes, diagnostics } = buildPackage(new Map([['story/0001-inn.sty', text]]))
 */
export function buildPackage(
  source: ReadonlyMap<string, Uint8Array>,
  options: BuildPackageOptions = {},
): BuiltPackage {
  const diagnostics: Diagnostic[] = []
  const from = options.source ?? 'the folder'
  const files = new Map<string, Uint8Array>()
  for (const [path, bytes] of source) {
    if (path === MANIFEST) continue
    if (path === CHECKSUM_PATH || path === SIGNATURE_PATH || path === PUBLIC_KEY_PATH) {
      if (!options.extraFiles?.has(path))
        diagnostics.push(
          createDiagnostic(
            'pkg/pack-rewritten-field',
            `'${path}' from ${from} was left out: it belongs to a signature, which packing invalidates; sign the package again with 'spkg sign'`,
            { path },
          ),
        )
      continue
    }
    files.set(path, bytes)
  }
  for (const [path, bytes] of options.extraFiles ?? []) files.set(path, bytes)
  const paths = [...files.keys()].sort(compareUtf8)

  // No manifest, no story/ folder, `.sty` files at the root: the SPEC's flat layout, packed as is.
  if (
    !source.has(MANIFEST) &&
    !paths.some((p) => p.startsWith('story/')) &&
    paths.some((p) => !p.includes('/') && p.endsWith('.sty'))
  ) {
    const { bytes, entries, ordered } = zipPackageFiles(files, options.compress)
    return { bytes, files: ordered, entries, diagnostics }
  }
  const src = readSourceManifest(source.get(MANIFEST), diagnostics)
  if (src.failed) return { files, entries: [], diagnostics }
  const value: Record<string, unknown> = src.value ?? {}
  // SPEC "Versioning": tools that emit a manifest write the canonical form, versions included;
  // `spkg manifest normalize` completes the source the same way, which silences these notes.
  const completed: Diagnostic[] = []
  completeManifest(value, paths, completed)
  if (src.text !== undefined) {
    const canonical = canonicalSourceText(value)
    if (canonical.text !== undefined && canonical.text !== src.text)
      diagnostics.push(
        createDiagnostic(
          'pkg/non-canonical-manifest',
          `manifest.json in ${from} is not in canonical form; the package gets the canonical one ('spkg manifest normalize' rewrites the source)`,
          { path: MANIFEST },
        ),
      )
  }
  // A folder without manifest.json is told what was inferred, not that versions were completed.
  diagnostics.push(...completed.filter((d) => src.value || d.field === '/parts' || d.field === '/assets'))
  if (typeof value.id !== 'string' || value.id.trim() === '') {
    if (options.idWhenAbsent !== undefined) value.id = options.idWhenAbsent
    else {
      const id = randomUUID()
      diagnostics.push(
        createDiagnostic(
          'pkg/generated-id',
          `${src.value ? 'manifest.json has no usable "id"' : `${from} has no manifest.json`}; the package got the random id ${id}: add "id": "${id}" to manifest.json so every build keeps the same story id`,
          { path: MANIFEST, field: '/id' },
        ),
      )
      value.id = id
    }
  }
  delete value.$schema
  if (!options.keepSignatureFields) {
    for (const field of ['signed', 'signature'] as const) {
      if (value[field] === undefined) continue
      delete value[field]
      diagnostics.push(
        rewritten(
          `"${field}" was removed: the package is not signed until 'spkg sign' signs it`,
          `/${field}`,
        ),
      )
    }
  }
  const integrity: Record<string, string> = {}
  for (const path of paths) {
    if (path.startsWith('META-PKG/')) continue
    integrity[path] = sha256HexSync(files.get(path)!)
  }
  if (value.integrity !== undefined && JSON.stringify(value.integrity) !== JSON.stringify(integrity))
    diagnostics.push(rewritten(`"integrity" was recomputed from the files`, '/integrity'))
  delete value.integrity
  const parsed = parseManifest(value, { bounds: checkManifestBounds })
  diagnostics.push(...parsed.diagnostics.filter((d) => d.code !== 'manifest/normalized' || src.value))
  if (!parsed.manifest || hasFatal(diagnostics)) return { files, entries: [], diagnostics }
  let manifest: Manifest = { ...parsed.manifest, integrity }
  if (options.editManifest) manifest = options.editManifest(manifest)
  const manifestBytes = encoder.encode(serializeManifest(manifest))

  files.set(MANIFEST, manifestBytes)
  const { bytes, entries, ordered } = zipPackageFiles(files, options.compress)
  return { bytes, manifest, files: ordered, entries, diagnostics }
}

/**
 * Zips package files deterministically: `manifest.json` first, then every other path in raw-byte
 * order; deflate, except already-compressed media, which are stored.
 *
 * @example
 * const { bytes } = zipPackageFiles(new Map([['manifest.json', manifestBytes]]))
 */
export function zipPackageFiles(
  files: ReadonlyMap<string, Uint8Array>,
  compress = true,
): {
  bytes: Uint8Array
  entries: WrittenEntry[]
  ordered: Map<string, Uint8Array>
} {
  const ordered = new Map<string, Uint8Array>()
  const manifest = files.get(MANIFEST)
  if (manifest) ordered.set(MANIFEST, manifest)
  for (const path of [...files.keys()].sort(compareUtf8))
    if (path !== MANIFEST) ordered.set(path, files.get(path)!)
  const zipFiles: ZipFile[] = [...ordered].map(([path, data]) => ({
    path,
    data,
    method: compress && !isCompressedMedia(path) ? 8 : 0,
  }))
  const { bytes, entries } = writeZip(zipFiles)
  return { bytes, entries, ordered }
}
