/**
 * The names map of a minified package, read through the compiled check of `NamesMapSchema`
 * (`@spkg/manifest/schemas`): the main entry never loads zod, and the check is in every player's
 * initial load, so it is small.
 */
import { checkNamesMap } from './compiled/validators'
import type { Diagnostic } from './diagnostic'
import { createDiagnostic } from './diagnostic-helpers'
import { parseJsonText } from './json'
import type { NamesMap } from './names-map-schema'

export type { NamesMap } from './names-map-schema'

/** The outcome of {@link parseNamesMapText}: the map when the text is one, and the finding otherwise. */
export interface NamesMapResult {
  names?: NamesMap
  diagnostics: Diagnostic[]
}

/**
 * Parses the text of a names map (`META-PKG/names.json`; `path` names it in the finding). Text
 * that is not JSON, or JSON that is not a names map (`NamesMapSchema`), gives no map and one
 * `pkg/invalid-names-map` (error). Never throws.
 *
 * @example
 * parseNamesMapText('{"version":1,"variables":{"a":"gold"}}', 'META-PKG/names.json').names
 * // { version: 1, variables: { a: 'gold' } }
 */
export function parseNamesMapText(text: string, path: string): NamesMapResult {
  const json = parseJsonText(text)
  const r = json.ok ? checkNamesMap(json.value) : undefined
  if (r?.success) return { names: r.data as NamesMap, diagnostics: [] }
  // One finding, without the checks' words: this runs in every player, and a names map is only
  // ever written by `spkg pack --minify` (the code's fix says to rebuild).
  return { diagnostics: [createDiagnostic('pkg/invalid-names-map', `${path} is not a names map.`, { path })] }
}
