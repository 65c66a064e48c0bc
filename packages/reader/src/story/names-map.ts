/**
 * The names map of a minified package (`manifest.build.names_map`, written by `spkg pack --minify`),
 * handed to the story engine with the story source: with it, saved reading states use the author's
 * names and a state saved on the original package resumes on the minified one and back (see
 * `@spkg/story`, "Minification"). Small on purpose: it is in every player's initial load.
 */
import type { Manifest } from '@spkg/manifest'

/**
 * The names map's shape (`@spkg/story`'s `NamesMap`; the reader does not depend on the engine):
 * short name → original name, per kind.
 */
export interface NamesMap {
  version: 1
  variables: Record<string, string>
  functions?: Record<string, string>
  ids?: Record<string, string>
}

/**
 * The package's names map, or `undefined` when it is not minified or its map is absent or not one
 * (the open already reported a missing file; a map that is not one only loses the translation).
 */
export function namesMapOf(
  manifest: Manifest | undefined,
  readText: (path: string) => string,
): NamesMap | undefined {
  const path = manifest?.build?.names_map
  if (!path) return undefined
  try {
    const map = JSON.parse(readText(path)) as NamesMap
    return map?.version === 1 && typeof map.variables === 'object' && map.variables !== null ? map : undefined
  } catch {
    return undefined
  }
}
