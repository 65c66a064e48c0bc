/**
 * Reading states across the two builds of a minified story. A state names story variables and
 * ids (`story/a.sty:bar@visits`, `story/a.sty:bar@1`, `story/a.sty:bar.asked`, `>story/b.sty:edge`),
 * and a saved set (1.1) its declaration and items; minification renames them all. The engine saves every state with the original names and maps a state
 * to the build's names when it resumes, so a state saved on either build resumes on either. Kept
 * small: it is in every player's initial load.
 */
import type { JsonValue, NamesMap, ReadingState } from '@spkg/manifest'

/** Which names a state or event is written with. */
export type NamesDirection = 'original' | 'minified'

/** The lookups of one direction: variables, ids, and (1.1) set declarations and items. */
export interface NamesLookup {
  vars: ReadonlyMap<string, string>
  ids: ReadonlyMap<string, string>
  sets: ReadonlyMap<string, string>
}

/** The lookups that turn names into `to`'s names. */
export function namesLookup(names: NamesMap, to: NamesDirection): NamesLookup {
  const flip = (r: Record<string, string> = {}) =>
    new Map(Object.entries(r).map(([s, o]) => (to === 'original' ? [s, o] : [o, s])))
  return { vars: flip(names.variables), ids: flip(names.ids), sets: flip(names.sets) }
}

/**
 * An id as the tree, a state or an event writes it, renamed: `bar`, an implicit group `bar@2` or
 * alternative `bar~2`, a
 * target or key `story/a.sty:bar`, `story/a.sty:bar@visits`, `story/a.sty:bar.asked`, a link answer
 * `>story/a.sty:bar`, a tunnel call `story/a.sty:bar->2` and a thread's answer `<story/a.sty:bar@1`
 * (1.1). A bare path (`a.sty`) and unknown ids stay as they are.
 */
export function renameId(v: string, ids: ReadonlyMap<string, string>): string {
  const colon = v.lastIndexOf(':')
  if (colon < 0 && v.includes('.')) return v
  // a module's keys name no id (its alternatives are named after their passage)
  if (colon > 4 && v.startsWith('.xty', colon - 4)) return v
  const rest = v.slice(colon + 1)
  // `~` starts the counter of an alternative (1.1): `bar~2`, `story/a.sty:bar~2@seq`; `->` a tunnel call's id
  const end = rest.search(colon < 0 ? /[@~]/ : /[@.~]|->/)
  const head = end < 0 ? rest : rest.slice(0, end)
  const to = ids.get(head)
  return to === undefined ? v : `${v.slice(0, colon + 1)}${to}${end < 0 ? '' : rest.slice(end)}`
}

/**
 * A saved value with its sets renamed (1.1): `{"$items": "Tools", "of": ["rope"]}` names its
 * declaration and items, in a variable, a list or a map (an escaped `{"$map": …}` too).
 */
function renameSets(v: JsonValue, sets: ReadonlyMap<string, string>): JsonValue {
  if (v === null || typeof v !== 'object') return v
  if (Array.isArray(v)) return v.map((x) => renameSets(x, sets))
  const keys = Object.keys(v)
  if (keys.length === 2 && typeof v.$items === 'string' && Array.isArray(v.of))
    return {
      $items: sets.get(v.$items) ?? v.$items,
      of: v.of.map((x) => (typeof x === 'string' ? (sets.get(x) ?? x) : x)),
    }
  const out: Record<string, JsonValue> = {}
  // an escaped map's own keys are its keys, not a set's
  const inner = keys.length === 1 && v.$map !== null && typeof v.$map === 'object' && !Array.isArray(v.$map)
  const map = inner ? (v.$map as Record<string, JsonValue>) : v
  for (const k of Object.keys(map)) out[k] = renameSets(map[k]!, sets)
  return inner ? { $map: out } : out
}

/**
 * Renames the variables, ids and (1.1) saved sets of `state` for the build it resumes on: `'minified'` when a state
 * written with the original names resumes on the minified package, `'original'` for the reverse.
 * Names the map does not know stay as they are (so mapping twice changes nothing: short names never
 * meet original ones); option ids and part paths never change. Returns a new state.
 *
 * @example
 * const forMinified = translateStateNames(saved, names, 'minified')
 */
export function translateStateNames(state: ReadingState, names: NamesMap, to: NamesDirection): ReadingState {
  const { vars, ids, sets } = namesLookup(names, to)
  const key = (k: string) => (k.includes(':') ? renameId(k, ids) : (vars.get(k) ?? k))
  const variables: ReadingState['variables'] = {}
  for (const k of Object.keys(state.variables)) {
    const v = state.variables[k]!
    variables[key(k)] = sets.size && typeof v === 'object' ? renameSets(v, sets) : v
  }
  const choices: ReadingState['choices'] = {}
  for (const k of Object.keys(state.choices))
    choices[key(k)] = state.choices[k]!.map((c) =>
      c.startsWith('>') || c.startsWith('<') ? renameId(c, ids) : c,
    )
  const out = { ...state, variables, choices, visitedChoiceGroups: state.visitedChoiceGroups.map(key) }
  if (state.tunnels) out.tunnels = state.tunnels.map((t) => renameId(t, ids))
  return out
}
