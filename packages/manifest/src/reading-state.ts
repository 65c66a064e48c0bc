/**
 * The reading state (STORY-LANGUAGE.md section 9, SPEC "Reading state"): what a story engine
 * snapshots at a pause and replays on resume. `@spkg/story` produces it, `@spkg/state` stores it,
 * and every saved copy is read back through {@link parseReadingState}, which never throws.
 */
import { checkReadingState } from './compiled/validators'
import type { Diagnostic } from './diagnostic'
import { toPointer } from './diagnostic'
import { createDiagnostic } from './diagnostic-helpers'
import { quickReadingState } from './fast/reading-state'
import { describeJsonType, isPlainObject } from './json'
import { MAX_READING_STATE_DEPTH, READING_STATE_FORMAT } from './reading-state-format'
import type { ReadingState } from './reading-state-schema'

export { MAX_READING_STATE_DEPTH, READING_STATE_FORMAT } from './reading-state-format'
/** A saved reading state; see `ReadingStateSchema` in `@spkg/manifest/schemas`. */
export type { ReadingState } from './reading-state-schema'

/** What the host expects a saved state to belong to. */
export interface ParseReadingStateOptions {
  /** The story `id` of the package being played; a state of another story is refused (`state/other-story`). */
  storyId?: string
  /** The package `version` being played; a state of another version is kept with `state/other-version` (info). */
  version?: string
}

/** The outcome of {@link parseReadingState}: a state when it can be resumed, and the findings either way. */
export interface ParseReadingStateResult {
  state?: ReadingState
  diagnostics: Diagnostic[]
}

/**
 * Validates a saved reading state. Never throws: a corrupt, foreign or newer-format state gives
 * `state/*` diagnostics and no `state`, so the host can start afresh.
 *
 * @param value - anything, typically the result of `JSON.parse`
 * @param options - the story `id` and package `version` being played, when known
 * @returns `{ state, diagnostics }`; `state` is absent when any diagnostic is an error
 * @example
 * const { state, diagnostics } = parseReadingState(JSON.parse(saved), { storyId: manifest.id })
 * if (!state) startAfresh(diagnostics)
 */
export function parseReadingState(
  value: unknown,
  options: ParseReadingStateOptions = {},
): ParseReadingStateResult {
  return parseReadingStateWith(value, options, true)
}

/**
 * {@link parseReadingState} with the hand-written check of a plainly valid state
 * (`fast/reading-state.ts`) on or off: off only to measure it and to test that both give the
 * same result. @internal
 */
export function parseReadingStateWith(
  value: unknown,
  options: ParseReadingStateOptions,
  fast: boolean,
): ParseReadingStateResult {
  try {
    return parseUnsafe(value, options, fast)
  } catch (cause) {
    // Validation is written not to throw; this is the last fence of the never-throws promise.
    const message = cause instanceof Error ? cause.message : String(cause)
    return {
      diagnostics: [
        createDiagnostic('state/invalid', `the reading state could not be validated: ${message}`),
      ],
    }
  }
}

/**
 * Parses the text of a saved reading state (JSON) and validates it like {@link parseReadingState}.
 * Never throws; text that is not JSON gives `state/not-json`.
 *
 * @example
 * const { state } = parseReadingStateText(localStorage.getItem('save') ?? '', { storyId })
 */
export function parseReadingStateText(
  text: string,
  options: ParseReadingStateOptions = {},
): ParseReadingStateResult {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { diagnostics: [createDiagnostic('state/not-json', 'the reading state is not valid JSON')] }
  }
  return parseReadingState(value, options)
}

function parseUnsafe(
  value: unknown,
  options: ParseReadingStateOptions,
  fast: boolean,
): ParseReadingStateResult {
  if (!isPlainObject(value)) {
    return {
      diagnostics: [
        createDiagnostic(
          'state/not-object',
          `the reading state must be a JSON object, not ${describeJsonType(value)}`,
        ),
      ],
    }
  }
  if (value.format !== READING_STATE_FORMAT) {
    const found = typeof value.format === 'number' ? `format ${value.format}` : 'no format number'
    return {
      diagnostics: [
        createDiagnostic(
          'state/unknown-format',
          `the reading state has ${found}; this library reads format ${READING_STATE_FORMAT}`,
          { field: '/format' },
        ),
      ],
    }
  }
  const scan = scanDangers(value)
  if (typeof scan === 'object') return { diagnostics: [scan] }
  const quick = fast && scan ? quickReadingState(value) : undefined
  const parsed = quick ? { success: true as const, data: quick } : checkReadingState(value)
  if (!parsed.success) {
    return {
      diagnostics: parsed.issues.slice(0, 20).map((issue) =>
        createDiagnostic(
          'state/invalid',
          `reading state field ${toPointer(issue.path.map(keyOf)) || '/'}: ${issue.message}`,
          {
            field: toPointer(issue.path.map(keyOf)),
          },
        ),
      ),
    }
  }
  const state = parsed.data as ReadingState
  if (options.storyId !== undefined && state.id !== options.storyId) {
    return {
      diagnostics: [
        createDiagnostic(
          'state/other-story',
          `the reading state belongs to story "${state.id}", not "${options.storyId}"`,
          {
            field: '/id',
          },
        ),
      ],
    }
  }
  const diagnostics: Diagnostic[] = []
  if (options.version !== undefined && state.version !== options.version) {
    diagnostics.push(
      createDiagnostic(
        'state/other-version',
        `the reading state was saved with version ${state.version ?? '(none)'}; the package is ${options.version}`,
        { field: '/version' },
      ),
    )
  }
  diagnostics.push(...checkConsistency(state))
  return { state, diagnostics }
}

function keyOf(key: PropertyKey): string | number {
  return typeof key === 'symbol' ? String(key) : key
}

const isString = (v: unknown) => typeof v === 'string'
const isStringArray = (v: unknown) => Array.isArray(v) && v.every(isString)
const protoKey = (path: Array<string | number>) =>
  createDiagnostic('state/invalid', 'the reading state has a "__proto__" key', { field: toPointer(path) })

/**
 * The dangers the schema would not report, over every key: nesting past the limit and
 * `__proto__` keys (zod, and so the compiled check, drops such a key silently and recurses
 * without bound). Returns the diagnostic of the first, or whether `variables` and `choices` are
 * plainly valid (JSON values, non-empty string lists), which {@link quickReadingState} needs.
 */
function scanDangers(v: Record<string, unknown>): Diagnostic | boolean {
  const { variables, choices } = v
  let plain = isPlainObject(variables) && isPlainObject(choices)
  if (isPlainObject(variables)) {
    for (const key of Object.keys(variables)) {
      const problem = key === '__proto__' ? 'proto' : checkJson(variables[key], 3)
      if (problem === 'proto') return protoKey(['variables', key])
      if (problem === 'deep') {
        const message = `the reading state nests deeper than ${MAX_READING_STATE_DEPTH} levels`
        return createDiagnostic('state/invalid', message, { field: toPointer(['variables', key]) })
      }
      if (problem === undefined) plain = false
    }
  }
  if (isPlainObject(choices)) {
    for (const key of Object.keys(choices)) {
      if (key === '__proto__') return protoKey(['choices', key])
      const list = choices[key]
      if (!isStringArray(list) || (list as unknown[]).length === 0) plain = false
    }
  }
  return plain
}

/** `true` for a JSON value within the depth limit; `deep` or `proto` for a danger; `undefined` otherwise. */
function checkJson(value: unknown, depth: number): true | 'deep' | 'proto' | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true
    case 'number':
      return Number.isFinite(value) ? true : undefined
    case 'object':
      break
    default:
      return undefined
  }
  if (value === null) return true
  if (depth > MAX_READING_STATE_DEPTH) return 'deep'
  if (Array.isArray(value)) {
    for (const item of value) {
      const r = checkJson(item, depth + 1)
      if (r !== true) return r
    }
    return true
  }
  if (!isPlainObject(value)) return undefined
  for (const key of Object.keys(value)) {
    if (key === '__proto__') return 'proto'
    const r = checkJson(value[key], depth + 1)
    if (r !== true) return r
  }
  return true
}

function checkConsistency(state: ReadingState): Diagnostic[] {
  const out: Diagnostic[] = []
  if (state.currentPart === undefined && state.visitedParts.length > 0) {
    out.push(
      createDiagnostic('state/inconsistent', 'the reading state lists visited parts but no current part', {
        field: '/visitedParts',
      }),
    )
  }
  const visited = new Set(state.visitedChoiceGroups)
  if (visited.size !== state.visitedChoiceGroups.length) {
    out.push(
      createDiagnostic('state/inconsistent', 'visitedChoiceGroups lists a group twice', {
        field: '/visitedChoiceGroups',
      }),
    )
  }
  for (const key of Object.keys(state.choices)) {
    if (!visited.has(key)) {
      out.push(
        createDiagnostic(
          'state/inconsistent',
          `choice group "${key}" has choices but is not in visitedChoiceGroups`,
          {
            field: toPointer(['choices', key]),
          },
        ),
      )
      break
    }
  }
  return out
}
