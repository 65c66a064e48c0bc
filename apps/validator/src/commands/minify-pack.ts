/**
 * `spkg pack --minify`: the package just built, rebuilt from minified sources with the names map
 * and `build: {minified: true, names_map}` in its manifest. A story the minifier refuses stops the
 * pack (exit 2, one line naming the `minify/…` code and the file): nothing is written.
 */
import { MinifyError } from '@spkg/story'
import { IOFailure } from '../cli-types'
import { buildPackage } from '../pack/build-package'
import type { PackedFolder } from '../pack/pack-folder'
import { markMinified, minifyPackageFiles, NAMES_MAP_PATH } from './minify-files'

/** Rebuilds `packed` minified; the folder's findings stay, the rebuild's errors are added. */
export function minifyPacked(packed: PackedFolder): PackedFolder {
  let min: ReturnType<typeof minifyPackageFiles>
  try {
    min = minifyPackageFiles(packed.files)
  } catch (e) {
    if (!(e instanceof MinifyError)) throw e
    throw new IOFailure(`cannot minify (${e.code}): ${e.message}; nothing was written`)
  }
  const rebuilt = buildPackage(min.files, {
    source: 'the package',
    editManifest: markMinified,
    extraFiles: new Map([[NAMES_MAP_PATH, min.namesMap]]),
  })
  const serious = rebuilt.diagnostics.filter((d) => d.severity === 'error' || d.severity === 'fatal')
  return { ...rebuilt, diagnostics: [...packed.diagnostics, ...serious] }
}
