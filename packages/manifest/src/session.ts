/**
 * `session.json`: free-form session preparation variables injected into the story's variable
 * space at session start. Never manifest data.
 */

import { checkJsonValue } from './compiled/validators'
import type { Diagnostic } from './diagnostic'
import { toPointer } from './diagnostic'
import { createDiagnostic } from './diagnostic-helpers'
import { deeperAt, describeJsonType, isPlainObject, type JsonValue, parseJsonText } from './json'
import { MAX_READING_STATE_DEPTH } from './reading-state-format'
import { isVariableName } from './variable-name'

/** The canonical session file: an object of JSON values (`SessionSchema` in `@spkg/manifest/schemas`). */
export type Session = Record<string, JsonValue>

export interface SessionResult {
  session?: Session
  diagnostics: Diagnostic[]
}

/**
 * Deepest nesting of `session.json` (the file's object is level 1): a session value becomes a
 * story variable, which a saved reading state holds one level deeper, within
 * {@link MAX_READING_STATE_DEPTH}; a value deeper than that could be played but never saved.
 */
export const MAX_SESSION_DEPTH = MAX_READING_STATE_DEPTH - 1

/** The JSON value check, or `tooDeep` when the value nests deeper than {@link MAX_SESSION_DEPTH}. */
function checkJsonValueWithin(
  v: unknown,
): ReturnType<typeof checkJsonValue> | { success: false; tooDeep: true } {
  // The value is level 2 of the file: checked iteratively before the (recursive) value check.
  if (deeperAt(v, MAX_SESSION_DEPTH - 1, Infinity) !== undefined) return { success: false, tooDeep: true }
  try {
    return checkJsonValue(v)
  } catch (e) {
    if (e instanceof RangeError) return { success: false, tooDeep: true }
    throw e
  }
}

/**
 * Parses a `session.json` value. A value that is not JSON data (a function, `undefined`,
 * a non-finite number) is an error and left out; a key a story cannot read is a warning.
 * Never throws.
 */
export function parseSession(value: unknown, options: { path?: string } = {}): SessionResult {
  const path = options.path ?? 'session.json'
  if (!isPlainObject(value))
    return {
      diagnostics: [
        createDiagnostic(
          'session/not-object',
          `${path} must be a JSON object, got ${describeJsonType(value)}.`,
          { path },
        ),
      ],
    }
  const diagnostics: Diagnostic[] = []
  const session: Session = {}
  for (const [key, v] of Object.entries(value)) {
    const field = toPointer([key])
    const r = checkJsonValueWithin(v)
    if (!r.success) {
      diagnostics.push(
        createDiagnostic(
          'session/invalid-value',
          'tooDeep' in r
            ? `"${key}" nests deeper than ${MAX_SESSION_DEPTH} levels (session.json is level 1), so no saved reading state could hold it.`
            : `"${key}" must be JSON data (a scalar, array or object of those).`,
          {
            path,
            field,
          },
        ),
      )
      continue
    }
    if (!isVariableName(key))
      diagnostics.push(
        createDiagnostic(
          'session/invalid-name',
          `"${key}" is not a valid story variable name (a letter, then letters, digits or _; not a reserved word), so no story can read it.`,
          { path, field },
        ),
      )
    session[key] = r.data as JsonValue
  }
  return { session, diagnostics }
}

/** Parses the text of `session.json`: `session/not-json` when it is not JSON, then {@link parseSession}. */
export function parseSessionText(text: string, options: { path?: string } = {}): SessionResult {
  const path = options.path ?? 'session.json'
  const json = parseJsonText(text)
  if (!json.ok) {
    return {
      diagnostics: [
        createDiagnostic('session/not-json', `${path} is not valid JSON: ${json.message}.`, { path }),
      ],
    }
  }
  return parseSession(json.value, options)
}
