/**
 * A reading state saved on one build of a story resumes on the other build through the names map
 * of a minified package (`manifest.build.names_map`, `{version: 1, variables: {short: original}}`):
 * story variables are the only names minification changes that a state holds (choices, visit
 * counts and locals are keyed by file and ids, which it never renames).
 */
import type { ReadingState } from '@spkg/manifest'

/** The part of a names map a reading state needs: short name → original name. */
export interface StateNamesMap {
  variables: Readonly<Record<string, string>>
}

/**
 * Renames the story variables of `state` for the build it resumes on: `'minified'` when a state
 * saved on the original sources resumes on the minified package, `'original'` for the reverse.
 * Names the map does not know stay as they are; nothing else changes. Returns a new state.
 *
 * @example
 * const forMinified = translateStateNames(saved, names, 'minified')
 */
export function translateStateNames(
  state: ReadingState,
  names: StateNamesMap,
  to: 'minified' | 'original',
): ReadingState {
  const pairs = Object.entries(names.variables)
  const rename = new Map(to === 'original' ? pairs : pairs.map(([s, o]) => [o, s] as const))
  const variables: ReadingState['variables'] = {}
  for (const [k, v] of Object.entries(state.variables)) variables[rename.get(k) ?? k] = v
  return { ...state, variables }
}
