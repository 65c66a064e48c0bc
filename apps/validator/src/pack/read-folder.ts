/**
 * Reads an author's story folder into archive paths and bytes, the way `spkg pack` will zip it:
 * system and hidden files left out, links and special files refused, names checked like archive
 * entry names, and the package limits enforced from file sizes before any file is read.
 */
import { lstat, readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { compareUtf8 } from '@spkg/integrity'
import { checkArchivePath, createDiagnostic, type Diagnostic, LIMITS } from '@spkg/manifest'
import { collisionKey } from '@spkg/zip'
import { IOFailure } from '../cli-types'

/** What {@link readFolder} found. */
export interface FolderFiles {
  /** Archive path → bytes, sorted by raw UTF-8 bytes of the path (empty with `read: false`). */
  files: Map<string, Uint8Array>
  /** Every archive path found, sorted by raw UTF-8 bytes (also with `read: false`). */
  paths: string[]
  diagnostics: Diagnostic[]
}

/** Options of {@link readFolder}. */
export interface ReadFolderOptions {
  /** Absolute paths never packed (the output file when it lies inside the folder). */
  exclude?: readonly string[]
  /** Called after each file is read, for a progress line. */
  onFile?: (path: string, done: number, total: number) => void
  /**
   * Which entries to take, by archive path (a folder's path ends with `/`); the others are
   * passed over silently. Default: every entry.
   */
  include?: (path: string) => boolean
  /** `false`: list the files (`paths`), read none of them. @default true */
  read?: boolean
}

/** The validator settings file of a story folder (`spkg validate`'s rules), never packed. */
export const CONFIG_FILE_NAME = 'spkg.config.json'

/**
 * Hidden files every story repository may hold (what `spkg init` writes: `.gitignore`, `.github/`;
 * git's others, editor settings): left out without a `pkg/ignored-entry` note.
 */
const REPOSITORY_FILE =
  /^\.(git|github|gitignore|gitattributes|gitmodules|gitkeep|gitlab-ci\.yml|editorconfig|vscode|idea)$/

/** Names left out of every package: OS metadata, editor and VCS files. */
function isIgnoredName(name: string): boolean {
  return (
    name.startsWith('.') ||
    name === '__MACOSX' ||
    name === 'Thumbs.db' ||
    name === 'desktop.ini' ||
    name.endsWith('~')
  )
}

/**
 * Walks `root` and returns its files as archive entries. Never follows links. Throws
 * {@link IOFailure} when `root` is not a readable folder; problems with its contents are
 * diagnostics (`pkg/unsafe-path`, `pkg/unsupported-entry`, `pkg/duplicate-entry`,
 * `pkg/too-many-entries`, `pkg/too-large` are fatal; `pkg/ignored-entry` is info).
 */
export async function readFolder(
  root: string,
  shown: string,
  options: ReadFolderOptions = {},
): Promise<FolderFiles> {
  const diagnostics: Diagnostic[] = []
  const exclude = new Set(options.exclude ?? [])
  try {
    if (!(await lstat(root)).isDirectory()) throw new IOFailure(`'${shown}' is not a folder`)
  } catch (e) {
    if (e instanceof IOFailure) throw e
    throw new IOFailure(`cannot read '${shown}': no such folder`)
  }
  const found: { path: string; abs: string; size: number }[] = []
  const seen = new Map<string, string>()
  let total = 0
  let refusedForLimits = false
  const walk = async (dir: string, prefix: string): Promise<void> => {
    let names: string[]
    try {
      names = await readdir(dir)
    } catch (e) {
      throw new IOFailure(`cannot read folder '${prefix || shown}': ${(e as Error).message}`)
    }
    names.sort(compareUtf8)
    for (const name of names) {
      const path = prefix + name
      const abs = join(dir, name)
      if (exclude.has(abs)) continue
      // The project's validator settings (`spkg validate`'s rules) beside the manifest: never packed.
      if (prefix === '' && name === CONFIG_FILE_NAME) continue
      if (options.include && !options.include(path) && !options.include(`${path}/`)) continue
      if (isIgnoredName(name)) {
        // A story repository's own files (git, CI, editor settings) are expected there: left out silently.
        if (REPOSITORY_FILE.test(name)) continue
        diagnostics.push(
          createDiagnostic('pkg/ignored-entry', `'${path}' is a system or hidden file; it is not packed`, {
            path,
          }),
        )
        continue
      }
      const st = await lstat(abs)
      if (st.isSymbolicLink()) {
        diagnostics.push(
          createDiagnostic(
            'pkg/unsafe-path',
            `'${path}' is a symbolic link; spkg pack never follows links: copy the file in instead`,
            { path },
          ),
        )
        continue
      }
      if (st.isDirectory()) {
        if (options.include && !options.include(`${path}/`)) continue
        await walk(abs, `${path}/`)
        continue
      }
      if (!st.isFile()) {
        diagnostics.push(
          createDiagnostic(
            'pkg/unsupported-entry',
            `'${path}' is not a regular file (a device, socket or pipe)`,
            {
              path,
            },
          ),
        )
        continue
      }
      const why = checkArchivePath(path)
      if (why) {
        diagnostics.push(
          createDiagnostic('pkg/unsafe-path', `'${path}' cannot be an archive entry name: it ${why}`, {
            path,
          }),
        )
        continue
      }
      const key = collisionKey(path)
      const other = seen.get(key)
      if (other !== undefined) {
        diagnostics.push(
          createDiagnostic(
            'pkg/duplicate-entry',
            `'${path}' and '${other}' differ only in case or Unicode normalisation; they collide on many file systems`,
            { path },
          ),
        )
        continue
      }
      seen.set(key, path)
      found.push({ path, abs, size: st.size })
      total += st.size
      if (found.length > LIMITS.maxEntries || total > LIMITS.maxUncompressedBytes) {
        refusedForLimits = true
        return
      }
    }
  }
  await walk(root, '')
  if (refusedForLimits) {
    diagnostics.push(
      found.length > LIMITS.maxEntries
        ? createDiagnostic(
            'pkg/too-many-entries',
            `the folder has more than ${LIMITS.maxEntries} files, the package entry limit`,
          )
        : createDiagnostic(
            'pkg/too-large',
            `the folder's files add up to more than ${LIMITS.maxUncompressedBytes} bytes, the package size limit`,
          ),
    )
    return { files: new Map(), paths: [], diagnostics }
  }
  const files = new Map<string, Uint8Array>()
  found.sort((a, b) => compareUtf8(a.path, b.path))
  const paths = found.map((f) => f.path)
  if (options.read === false) return { files, paths, diagnostics }
  let read = 0
  for (const [i, f] of found.entries()) {
    let bytes: Uint8Array
    try {
      bytes = new Uint8Array(await readFile(f.abs))
    } catch (e) {
      throw new IOFailure(`cannot read '${f.path}': ${(e as Error).message}`)
    }
    // A file that grew after it was measured still cannot break the limit.
    read += bytes.length
    if (read > LIMITS.maxUncompressedBytes) {
      diagnostics.push(
        createDiagnostic(
          'pkg/too-large',
          `the folder's files add up to more than ${LIMITS.maxUncompressedBytes} bytes, the package size limit`,
        ),
      )
      return { files: new Map(), paths: [], diagnostics }
    }
    files.set(f.path, bytes)
    options.onFile?.(f.path, i + 1, found.length)
  }
  return { files, paths, diagnostics }
}
