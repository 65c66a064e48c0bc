/**
 * `spkg pack` in one call: read an author's folder and build the package it makes. Shared by
 * `spkg pack` and by `spkg validate <folder>`, which validates exactly what pack would write.
 */
import { type Diagnostic, hasFatal } from '@spkg/manifest'
import { type BuildPackageOptions, type BuiltPackage, buildPackage } from './build-package'
import type { Progress } from './progress'
import { type ReadFolderOptions, readFolder } from './read-folder'

/** Result of {@link packFolder}: the built package plus the folder's own findings. */
export interface PackedFolder extends BuiltPackage {
  /** Folder findings first (ignored files, refused names, limits), then the build's. */
  diagnostics: Diagnostic[]
}

/**
 * Reads `root` and builds its package. Throws `IOFailure` only when the folder itself cannot be
 * read; everything else is a diagnostic, and a fatal one leaves `bytes` undefined.
 *
 * @param options.exclude absolute paths to leave out (the output file)
 * @param options.include which entries to take (see {@link ReadFolderOptions})
 * @param options.build options of {@link buildPackage} (`spkg play`: a stable id, stored entries)
 * @example
 * const { bytes, diagnostics } = await packFolder('/stories/inn', 'inn', { progress })
 */
export async function packFolder(
  root: string,
  shown: string,
  options: {
    exclude?: readonly string[]
    include?: ReadFolderOptions['include']
    progress?: Progress
    build?: BuildPackageOptions
  } = {},
): Promise<PackedFolder> {
  const folder = await readFolder(root, shown, {
    ...(options.exclude ? { exclude: options.exclude } : {}),
    ...(options.include ? { include: options.include } : {}),
    onFile: (path, done, total) => options.progress?.update(`reading ${done}/${total} ${path}`),
  })
  if (hasFatal(folder.diagnostics)) return { files: new Map(), entries: [], diagnostics: folder.diagnostics }
  options.progress?.update(`compressing ${folder.files.size} files`)
  const built = buildPackage(folder.files, options.build)
  return { ...built, diagnostics: [...folder.diagnostics, ...built.diagnostics] }
}
