/**
 * The story-source contract: what the story engine (`@spkg/story`) plays, and what a loaded
 * package hands it (`@spkg/reader`'s `storySource()`, `spkg play` over a folder). Declared here,
 * with the package format, so that neither side copies the other's shape.
 */
import type { Diagnostic } from './diagnostic'
import type { JsonValue } from './json'
import type { NamesMap } from './names-map-schema'

/** What a story run reads its story from: the parts in play order and a lazy loader. */
export interface StorySourceLike {
  /** Archive paths of the parts in play order (`manifest.parts`); `[0]` is the entry part. */
  parts: readonly string[]
  /** Returns the text of a part; called lazily, only for parts actually entered. `undefined`: missing. */
  readPart(path: string): string | undefined | Promise<string | undefined>
  /** Extension modules (`.xty`) in load order (`manifest.extensions`, else lexicographic). */
  modules?: ReadonlyArray<{ path: string; source: string }>
  /** `session.json` values; they become story variables before the entry part is entered. */
  session?: Record<string, JsonValue>
  /** True when an archive file exists (media checks). */
  hasAsset?(path: string): boolean
  /** The story `id` written into saved states (manifest `id`; for a flat story, its entry file name). @default 'story' */
  id?: string
  /**
   * `manifest.story_lang`: the story-language version the parts and modules are read at (absent:
   * `1.0`). A version the engine cannot read (another major, a newer 1.x) is refused with
   * `story/lang-version`.
   */
  lang?: string
  /** The package `version` written into saved states, when the manifest has one. */
  version?: string
  /**
   * The names map of a minified build (`manifest.build.names_map`). With it, saved states use the
   * original names and a state is mapped to the build's names when it resumes: a state saved on
   * the original build or on the minified one resumes on either.
   */
  names?: NamesMap
}

/**
 * A loaded package's story source: a {@link StorySourceLike} whose `id`, `modules` and `hasAsset`
 * are always there, with what the package declares for its host.
 */
export interface StorySource
  extends Omit<StorySourceLike, 'id' | 'modules' | 'hasAsset'>,
    Required<Pick<StorySourceLike, 'id' | 'modules' | 'hasAsset'>> {
  /** Host-extension namespaces the manifest `requires`. */
  requires: readonly string[]
  /** The manifest `storage` field. */
  storage?: 'none' | 'local' | 'cloud'
  /** Findings from loading (manifest, session, missing files, names map). */
  diagnostics: Diagnostic[]
}
