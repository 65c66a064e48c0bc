/**
 * What the story engine needs from a package, whatever it was loaded from (a `.spkg` archive
 * through `@spkg/reader`, or a folder on disk in `spkg play`): parts on demand, media lookup,
 * session values, extension modules in load order and the host namespaces it requires.
 */
import type { Diagnostic, JsonValue } from '@spkg/manifest'
import type { NamesMap } from './names-map'

/** A story ready to be played: see {@link createStoryRun}. */
export interface StorySource {
  /** The story `id` (manifest `id`; for a flat story without manifest, its entry file name). */
  id: string
  /** The package `version`, when the manifest has one. */
  version?: string
  /** Part paths in play order; the first is the entry part. */
  parts: readonly string[]
  /** The text of a part, read only when the story enters it; `undefined` when it is missing. */
  readPart(path: string): string | undefined | Promise<string | undefined>
  /** Whether a media path exists in the package. */
  hasAsset(path: string): boolean
  /** `session.json` values, when the package has the file. */
  session?: Record<string, JsonValue>
  /** Extension modules (`.xty`) in load order. */
  modules: ReadonlyArray<{ path: string; source: string }>
  /** Host-extension namespaces the manifest `requires`. */
  requires: readonly string[]
  /** The manifest `storage` field. */
  storage?: 'none' | 'local' | 'cloud'
  /** Findings from loading (manifest, session, missing files). */
  diagnostics: Diagnostic[]
  /**
   * The names map of a minified package (`manifest.build.names_map`): the story engine then saves
   * states with the original names and resumes a state saved on either build.
   */
  names?: NamesMap
}
