/**
 * Step 12, `session.json`: the session settings through `@spkg/manifest`'s `parseSessionText`
 * (its findings pass through). A file that is not UTF-8 was reported by step 5 and gives none.
 */
import { type Diagnostic, type JsonValue, parseSessionText } from '@spkg/manifest'
import { decodeText, type EntryStore } from '../entry-store'

/** The session file's path at the archive root. */
export const SESSION_PATH = 'session.json'

/**
 * A JSON file of the archive through its `@spkg/manifest` parser, with the parser's findings
 * pushed; `undefined` when the archive lacks it or it is not UTF-8 (step 5 reported that).
 */
export function readJsonFile<T extends { diagnostics: Diagnostic[] }>(
  store: EntryStore,
  path: string,
  parse: (text: string, path: string) => T,
  diagnostics: Diagnostic[],
): T | undefined {
  if (!store.files.has(path)) return undefined
  const text = decodeText(store.read(path), path, [])
  if (text === undefined) return undefined
  const r = parse(text, path)
  diagnostics.push(...r.diagnostics)
  return r
}

/** The session values, when the archive has a readable `session.json`, with the findings pushed. */
export function readSession(
  store: EntryStore,
  diagnostics: Diagnostic[],
): Record<string, JsonValue> | undefined {
  return readJsonFile(store, SESSION_PATH, (text) => parseSessionText(text), diagnostics)?.session
}
