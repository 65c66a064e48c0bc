/**
 * Valid story packages built by code: packaged (manifest.json, story/, assets/, extensions/,
 * session.json) or flat (.sty and media at the root).
 */
import { createHash } from 'node:crypto'
import { type BuildArchiveOptions, buildArchive, type Content, type EntrySpec } from './build-archive'

/** What {@link buildPackage} puts in the archive. */
export interface PackageSpec {
  /** `packaged` (default) writes manifest.json; `flat` writes every file at the root and no manifest. */
  layout?: 'packaged' | 'flat'
  /** Manifest object (merged over `{ id, parts }` defaults); a string is written verbatim. */
  manifest?: Record<string, unknown> | string
  /** Story parts by archive path, in play order (the first is the entry). */
  parts?: Record<string, Content>
  /** Media by archive path. */
  assets?: Record<string, Content>
  /** Extension modules by archive path. */
  extensions?: Record<string, Content>
  /** session.json value (an object is JSON-encoded). */
  session?: Record<string, unknown> | string
  /** Any further files by archive path. */
  files?: Record<string, Content>
  /** Add `manifest.integrity` with the SHA-256 of every other file (packaged only). */
  integrity?: boolean
  /** Per-entry overrides by name (method, flags, data descriptor...). */
  entry?: Record<string, Partial<EntrySpec>>
}

/** The default manifest id of {@link buildPackage}. */
export const TEST_STORY_ID = '6f1c2a9e-0b7d-4c1e-9a53-2d8e4f6b7a10'

const enc = new TextEncoder()
const bytesOf = (c: Content) => (typeof c === 'string' ? enc.encode(c) : c)

/** The files of a package spec as a name → bytes map, in archive order. */
export function packageFiles(spec: PackageSpec = {}): Map<string, Uint8Array> {
  const layout = spec.layout ?? 'packaged'
  const parts = spec.parts ?? { [layout === 'flat' ? 'start.sty' : 'story/0001-start.sty']: 'Hello.\n' }
  const files = new Map<string, Uint8Array>()
  const add = (rec: Record<string, Content> | undefined) => {
    for (const [k, v] of Object.entries(rec ?? {})) files.set(k, bytesOf(v))
  }
  add(parts)
  add(spec.assets)
  add(spec.extensions)
  if (spec.session !== undefined)
    files.set(
      'session.json',
      enc.encode(typeof spec.session === 'string' ? spec.session : JSON.stringify(spec.session)),
    )
  add(spec.files)
  if (layout === 'flat') return files
  let manifestText: string
  if (typeof spec.manifest === 'string') manifestText = spec.manifest
  else {
    const manifest: Record<string, unknown> = {
      id: TEST_STORY_ID,
      parts: Object.keys(parts),
      ...spec.manifest,
    }
    if (spec.integrity) {
      const integrity: Record<string, string> = {}
      for (const [k, v] of files) integrity[k] = createHash('sha256').update(v).digest('hex')
      manifest.integrity = integrity
    }
    manifestText = JSON.stringify(manifest, null, 2)
  }
  return new Map([['manifest.json', enc.encode(manifestText)], ...files])
}

/**
 * Builds a valid package archive (bytes) from parts, assets, extensions and a manifest.
 *
 * @example
 * const bytes = buildPackage({ manifest: { title: 'The Inn' }, parts: { 'story/0001-inn.sty': 'Hello' } })
 */
export function buildPackage(spec: PackageSpec = {}, options: BuildArchiveOptions = {}): Uint8Array {
  const entries: EntrySpec[] = [...packageFiles(spec)].map(([name, data]) => ({
    name,
    data,
    ...spec.entry?.[name],
  }))
  return buildArchive(entries, options)
}
