/**
 * What `spkg play` plays: a `.spkg` archive through `@spkg/reader` (verified on open), or a story
 * folder / one `.sty` file through {@link loadFolder}.
 */
import { stat } from 'node:fs/promises'
import type { JsonValue } from '@spkg/manifest'
import { openPackageFile } from '@spkg/reader/node'
import { IOFailure } from '../cli-types'
import { withCliAdvice } from '../validate/decryption-key'
import { type FolderLoad, loadFolder } from './load-folder'

/**
 * Loads `path` as a story: a directory or a `.sty` file as a folder, any other file as a package.
 * `session` replaces the story's own `session.json` values.
 *
 * @throws IOFailure when the path does not exist
 */
export async function loadStory(
  path: string,
  session?: Record<string, JsonValue>,
  decryptionKey?: Uint8Array,
): Promise<FolderLoad> {
  let isFile: boolean
  try {
    const info = await stat(path)
    isFile = info.isFile()
    if (!isFile && !info.isDirectory())
      throw new IOFailure(`cannot read '${path}': not a story file, package or folder`)
  } catch (e) {
    if (e instanceof IOFailure) throw e
    throw new IOFailure(`cannot read '${path}': no such file or directory`)
  }
  if (!isFile || path.endsWith('.sty')) return loadFolder(path, session)
  const opened = await openPackageFile(path, decryptionKey ? { decryptionKey } : {})
  if (!opened.ok) return { diagnostics: withCliAdvice(opened.diagnostics) }
  const source = opened.package.storySource()
  if (opened.package.type !== 'story' || source.parts.length === 0) return { diagnostics: opened.diagnostics }
  return { source: session ? { ...source, session } : source, diagnostics: opened.diagnostics }
}
