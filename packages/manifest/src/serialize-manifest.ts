import { MANIFEST_FIELD_NAMES } from './fields'
import type { Manifest } from './schema'

/**
 * Writes a manifest in canonical form: known fields in the SPEC's order, then unknown fields in
 * their original order, two-space indentation, a final newline. Tools that emit a manifest use this.
 *
 * @example
 * serializeManifest({ title: 'Inn', id: '…' }) // '{\n  "id": "…",\n  "title": "Inn"\n}\n'
 */
export function serializeManifest(manifest: Manifest): string {
  const ordered: Record<string, unknown> = {}
  for (const k of MANIFEST_FIELD_NAMES) if (manifest[k] !== undefined) ordered[k] = manifest[k]
  for (const [k, v] of Object.entries(manifest)) if (!(k in ordered) && v !== undefined) ordered[k] = v
  return `${JSON.stringify(ordered, null, 2)}\n`
}
