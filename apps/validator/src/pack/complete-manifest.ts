/**
 * What `spkg pack` completes in an author's `manifest.json`, and the canonical text of the source
 * that `spkg manifest normalize` writes: one code path, so a normalised source packs without a
 * note about its manifest.
 */
import {
  checkManifestBounds,
  createDiagnostic,
  type Diagnostic,
  derivePartName,
  type Manifest,
  parseManifest,
  serializeManifest,
} from '@spkg/manifest'

const MANIFEST = 'manifest.json'
/** The current `story_lang` and `manifest` versions (SPEC "Versioning"). */
export const CURRENT_VERSION = '1.0'

/** `pkg/pack-rewritten-field` (info) about `manifest.json`. */
export function rewritten(message: string, field?: string): Diagnostic {
  return createDiagnostic('pkg/pack-rewritten-field', message, {
    path: MANIFEST,
    ...(field ? { field } : {}),
  })
}

/** Story parts found in the files: every `.sty` under `story/`, in raw-byte order. */
export function partsFromFiles(paths: readonly string[]): { file: string; name: string }[] {
  return paths
    .filter((p) => p.startsWith('story/') && p.endsWith('.sty'))
    .map((file) => ({ file, name: derivePartName(file) }))
}

/**
 * Completes a source manifest (a JSON object, changed in place) as `spkg pack` does: `story_lang`
 * and `manifest` set to the current version, and, when `paths` (the folder's files, in raw-byte
 * order) are known, `parts` from `story/**\/*.sty` and `assets` from `assets/**` when the manifest
 * omits them. Each completion is a `pkg/pack-rewritten-field` info pushed to `diagnostics`.
 *
 * @example
 * const value = { id }
 * completeManifest(value, ['story/0001-inn.sty'], notes) // value.parts: [{ file: 'story/0001-inn.sty', name: 'Inn' }]
 */
export function completeManifest(
  value: Record<string, unknown>,
  paths: readonly string[] | undefined,
  diagnostics: Diagnostic[],
): void {
  for (const field of ['story_lang', 'manifest'] as const) {
    if (value[field] !== undefined) continue
    value[field] = CURRENT_VERSION
    diagnostics.push(
      rewritten(`"${field}" was completed with the current version '${CURRENT_VERSION}'`, `/${field}`),
    )
  }
  if (!paths) return
  if (value.parts === undefined) {
    value.parts = partsFromFiles(paths)
    diagnostics.push(
      rewritten(`"parts" was completed from the .sty files under story/ in name order`, '/parts'),
    )
  }
  if (value.assets === undefined && paths.some((p) => p.startsWith('assets/'))) {
    value.assets = paths.filter((p) => p.startsWith('assets/')).map((file) => ({ file }))
    diagnostics.push(rewritten(`"assets" was completed from the files under assets/`, '/assets'))
  }
}

/**
 * The canonical text of a source manifest, as `spkg manifest normalize` writes it: the canonical
 * manifest (`serializeManifest`), with the editor's `"$schema"` kept first when the source has
 * one. A package never carries `$schema` (`spkg pack` drops it); the author's file keeps it, since
 * editors read it. `text` is absent when the manifest cannot be parsed (a fatal problem).
 *
 * @example
 * canonicalSourceText({ $schema: 'https://…', id, parts: ['story/a.sty'] }).text
 * // '{\n  "$schema": "https://…",\n  "id": "…",\n  "parts": [ … ]\n}\n'
 */
export function canonicalSourceText(value: Record<string, unknown>): {
  text?: string
  manifest?: Manifest
  diagnostics: Diagnostic[]
} {
  const { $schema, ...rest } = value
  const parsed = parseManifest(rest, { bounds: checkManifestBounds })
  if (!parsed.manifest) return { diagnostics: parsed.diagnostics }
  const text = serializeManifest(parsed.manifest)
  if (typeof $schema !== 'string') return { text, manifest: parsed.manifest, diagnostics: parsed.diagnostics }
  const withSchema = { $schema, ...(JSON.parse(text) as Record<string, unknown>) }
  return {
    text: `${JSON.stringify(withSchema, null, 2)}\n`,
    manifest: parsed.manifest,
    diagnostics: parsed.diagnostics,
  }
}
