/**
 * Step 11, the files the manifest names besides parts and extensions: the `cover`, each of
 * `assets` and the names map of `build.names_map`. One missing is `pkg/missing-file` (error: the
 * package still loads). The names map is read here, through `@spkg/manifest`'s `parseNamesMapText`:
 * one that is not a names map is `pkg/invalid-names-map` (error: the story plays, saved states keep the
 * minified names).
 */
import {
  createDiagnostic,
  type Diagnostic,
  type Manifest,
  type NamesMap,
  parseNamesMapText,
} from '@spkg/manifest'
import type { EntryStore } from '../entry-store'
import { readJsonFile } from './12-session'

/** Pushes one finding per referenced file the archive lacks. */
export function checkReferencedFiles(
  manifest: Manifest | undefined,
  has: (path: string) => boolean,
  diagnostics: Diagnostic[],
): void {
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
}

/**
 * The names map of a minified package, with its finding pushed; none when the package is not
 * minified, when the file is missing (reported above) or when it is not UTF-8 (reported by step 5).
 */
export function readNamesMap(
  manifest: Manifest | undefined,
  store: EntryStore,
  diagnostics: Diagnostic[],
): NamesMap | undefined {
  const path = manifest?.build?.names_map
  return path ? readJsonFile(store, path, parseNamesMapText, diagnostics)?.names : undefined
}
