/**
 * Step 12, `session.json`: the session settings through `@spkg/manifest`'s `parseSessionText`
 * (its findings pass through). A file that is not UTF-8 was reported by step 5 and gives none.
 */
import { type Diagnostic, type JsonValue, parseSessionText } from '@spkg/manifest'
import { decodeText, type EntryStore } from '../entry-store'

/** The session file's path at the archive root. */
export const SESSION_PATH = 'session.json'

/** The session values, when the archive has a readable `session.json`, with the findings pushed. */
export function readSession(
  store: EntryStore,
  diagnostics: Diagnostic[],
): Record<string, JsonValue> | undefined {
  if (!store.files.has(SESSION_PATH)) return undefined
  const text = decodeText(store.read(SESSION_PATH), SESSION_PATH, [])
  if (text === undefined) return undefined
  const r = parseSessionText(text)
  diagnostics.push(...r.diagnostics)
  return r.session
}
