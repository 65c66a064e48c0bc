/**
 * `spkg pack <repo-url>`: the package of a repository's release. The repository is downloaded
 * and unwrapped, opened by the reader exactly as the platform imports it (every check of a
 * `.spkg`; a repository the platform would refuse is refused here), and its files are then built
 * into a canonical package as `spkg pack` builds a folder's.
 */
import { openPackage } from '@spkg/reader/node'
import type { CliIO } from '../cli-types'
import { readRepository } from '../repository-input'
import { buildPackage } from './build-package'
import type { PackedFolder } from './pack-folder'
import type { Progress } from './progress'

/**
 * Builds the package of the repository at `url` (see the module comment). Never throws on a bad
 * repository: a refusal is a fatal diagnostic with `bytes` undefined.
 *
 * @example
 * const packed = await packRepository(io, 'https://github.com/owner/story/tree/v1.2', { progress })
 */
export async function packRepository(
  io: CliIO,
  url: string,
  options: { progress?: Progress; hostNamespaces?: string[] } = {},
): Promise<PackedFolder> {
  options.progress?.update(`downloading ${url}`)
  const got = await readRepository(io, url)
  if (!got.ok) return { files: new Map(), entries: [], diagnostics: got.diagnostics }
  options.progress?.update('checking the repository')
  const opened = await openPackage(got.bytes, { hostNamespaces: options.hostNamespaces ?? [] })
  if (!opened.ok)
    return { files: new Map(), entries: [], diagnostics: [...got.diagnostics, ...opened.diagnostics] }
  const files = new Map<string, Uint8Array>()
  try {
    for (const e of opened.package.entries) files.set(e.path, await opened.package.readBytes(e.path))
  } finally {
    opened.package.close()
  }
  options.progress?.update(`compressing ${files.size} files`)
  const built = buildPackage(files, { source: 'the repository' })
  return { ...built, diagnostics: [...got.diagnostics, ...built.diagnostics] }
}
