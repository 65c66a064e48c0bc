/**
 * What an author wants to know before publishing, beyond what a reader refuses: assets listed but
 * missing, files referenced by nothing, no cover, already-compressed media stored with deflate,
 * a manifest not in canonical form. Pure functions over a plain view of the package, so they do not
 * depend on how the package was opened.
 */
import { CHECKSUM_PATH, PUBLIC_KEY_PATH, SIGNATURE_PATH } from '@spkg/integrity'
import { createDiagnostic, type Diagnostic, type Manifest, serializeManifest } from '@spkg/manifest'
import { isCompressedMedia } from '../pack/media'

/** The parts of a package the author checks read. */
export interface AuthorCheckInput {
  layout: 'packaged' | 'flat'
  /** The canonical manifest (packaged layout). */
  manifest?: Manifest
  /** The exact text of `manifest.json` in the archive, to compare with its canonical form. */
  manifestText?: string
  /** Every entry of the archive with its compression method (0 stored, 8 deflate). */
  entries: readonly { path: string; method: number }[]
  /** The entry part of a flat archive. */
  entry?: string
  /** Text (or UTF-8 bytes) of the story parts and modules, searched for references to media. */
  texts?: ReadonlyMap<string, string | Uint8Array>
}

const SYSTEM = /(^|\/)(__MACOSX\/|\._[^/]*$|\.DS_Store$)/

/** Every path the manifest or the package conventions give a role. */
function referencedPaths(input: AuthorCheckInput): Set<string> {
  const refs = new Set<string>([
    'manifest.json',
    'session.json',
    CHECKSUM_PATH,
    SIGNATURE_PATH,
    PUBLIC_KEY_PATH,
  ])
  const m = input.manifest
  if (input.entry) refs.add(input.entry)
  // Without a manifest list (a flat archive has no manifest at all), every `.xty` is a module the
  // reader discovers and `{use}` reads.
  if (m?.extensions) for (const e of m.extensions) refs.add(e)
  else for (const e of input.entries) if (e.path.endsWith('.xty')) refs.add(e.path)
  if (!m) return refs
  for (const p of m.parts ?? []) refs.add(p.file)
  for (const a of m.assets ?? []) refs.add(a.file)
  if (m.cover) refs.add(m.cover)
  if (m.build?.names_map) refs.add(m.build.names_map)
  return refs
}

/**
 * Runs the author checks. Codes: `pkg/missing-file` (error: a listed asset or the cover is not
 * in the archive), `pkg/unreferenced-file` (info), `pkg/no-cover` (warning, packaged stories),
 * `pkg/deflated-media` (warning), `pkg/non-canonical-manifest` (info).
 *
 * @example
 * authorChecks({ layout: 'packaged', manifest, entries }) // [{ code: 'pkg/no-cover', ... }]
 */
export function authorChecks(input: AuthorCheckInput): Diagnostic[] {
  const out: Diagnostic[] = []
  const present = new Set(input.entries.map((e) => e.path))
  const m = input.manifest
  if (input.layout === 'packaged' && m) {
    for (const [i, a] of (m.assets ?? []).entries()) {
      if (!present.has(a.file))
        out.push(
          createDiagnostic(
            'pkg/missing-file',
            `asset '${a.file}' is listed in the manifest but not in the archive`,
            {
              path: a.file,
              field: `/assets/${i}/file`,
            },
          ),
        )
    }
    if (m.cover === undefined) {
      if (m.type !== 'instruction')
        out.push(
          createDiagnostic(
            'pkg/no-cover',
            'the manifest names no "cover" image (conventionally assets/cover.webp); catalogs will show a placeholder',
            { path: 'manifest.json', field: '/cover' },
          ),
        )
    } else if (!present.has(m.cover)) {
      out.push(
        createDiagnostic('pkg/missing-file', `cover '${m.cover}' is not in the archive`, {
          path: m.cover,
          field: '/cover',
        }),
      )
    }
    if (input.manifestText !== undefined && serializeManifest(m) !== input.manifestText)
      out.push(
        createDiagnostic(
          'pkg/non-canonical-manifest',
          "manifest.json is not in canonical form (field order, looser forms or formatting); 'spkg pack' writes it canonically",
          { path: 'manifest.json' },
        ),
      )
  }
  const refs = referencedPaths(input)
  // UTF-8 bytes contain a path's bytes exactly when the text contains the path
  const texts = [...(input.texts?.values() ?? [])].map((t) =>
    typeof t === 'string' ? t : Buffer.from(t.buffer, t.byteOffset, t.byteLength),
  )
  for (const e of input.entries) {
    if (e.path.endsWith('/') || refs.has(e.path) || SYSTEM.test(e.path)) continue
    if (texts.some((t) => t.includes(e.path))) continue
    out.push(
      createDiagnostic(
        'pkg/unreferenced-file',
        input.layout === 'flat' && e.path.endsWith('.sty')
          ? `'${e.path}' is never loaded: a flat archive plays only its entry '${input.entry ?? '?'}'`
          : `'${e.path}' is referenced by nothing (not a part, asset, cover, extension or story text); remove it or list it`,
        { path: e.path },
      ),
    )
  }
  for (const e of input.entries) {
    if (e.method === 8 && isCompressedMedia(e.path))
      out.push(
        createDiagnostic(
          'pkg/deflated-media',
          `'${e.path}' is already compressed but stored with deflate; store it (method 0) to save CPU at load ('spkg pack' does)`,
          { path: e.path },
        ),
      )
  }
  return out
}

/**
 * Appends `extra` to `base`, skipping any with the same code, path and field as one in `base`
 * (the same finding made twice). Findings within `extra` are all kept: two manifest errors with
 * one code on different fields are two problems.
 */
export function mergeDiagnostics(base: readonly Diagnostic[], extra: readonly Diagnostic[]): Diagnostic[] {
  const key = (d: Diagnostic) => `${d.code}\0${d.path ?? ''}\0${d.field ?? ''}`
  const seen = new Set(base.map(key))
  return [...base, ...extra.filter((d) => !seen.has(key(d)))]
}
