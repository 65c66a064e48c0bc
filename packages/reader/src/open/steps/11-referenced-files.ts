/**
 * Step 11, the files the manifest names besides parts and extensions: the `cover`, each of
 * `assets` and the names map of `build.names_map`. One missing is `pkg/missing-file` (error: the
 * package still loads).
 */
import { createDiagnostic, type Diagnostic, type Manifest } from '@spkg/manifest'

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
