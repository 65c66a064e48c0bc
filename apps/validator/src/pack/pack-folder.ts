/**
 * `spkg pack` in one call: read an author's folder and build the package it makes. Shared by
 * `spkg pack` and by `spkg validate <folder>`, which validates exactly what pack would write.
 */
import { basename, dirname } from 'node:path'
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

/** Media a story can show (STORY-LANGUAGE.md §2), taken along when one `.sty` file is packed. */
const MEDIA = /\.(png|jpe?g|gif|webp|avif|svg|ogg|oga|opus|mp3|m4a|wav|flac|mp4|webm)$/i

/**
 * The flat package of one `.sty` file: that file, with the `.xty` modules and the media files beside
 * it (not those in subfolders, nor the other `.sty` files). `spkg play file.sty` plays it and
 * `spkg validate file.sty` validates it.
 *
 * @example
 * const { bytes } = await packStoryFile('/stories/duel.sty', { build: { compress: false } })
 */
export async function packStoryFile(
  file: string,
  options: { progress?: Progress; build?: BuildPackageOptions } = {},
): Promise<PackedFolder> {
  const entry = basename(file)
  return packFolder(dirname(file), `'${dirname(file)}'`, {
    include: (p: string) => p === entry || (!p.includes('/') && (p.endsWith('.xty') || MEDIA.test(p))),
    ...options,
  })
}
