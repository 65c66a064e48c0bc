/**
 * The session settings form's logic (`session.json`), with no DOM: one field per value, what the moderator types read
 * back into a value of the same type, and a clear message with a stable code when it cannot be. The form is
 * session-form.ts; the values go to the story run's `session` option, where they override the story's defaults.
 */
import { isPlainObject, isVariableName, type JsonValue } from '@spkg/manifest'
import { humanize } from './tab-bar-model'

/** How a value is edited: the type it keeps. */
export type FieldKind = 'integer' | 'number' | 'string' | 'boolean' | 'names' | 'numbers' | 'json'

/** One field of the form. */
export interface SessionField {
  key: string
  label: string
  kind: FieldKind
  /** The value in `session.json`. */
  initial: JsonValue
  /** The text the input starts with (a checkbox: `true`/`false`). */
  initialText: string
}

/** A problem with what was typed: a stable code and a sentence for the moderator. */
export interface FieldError {
  code: string
  message: string
}

export type FieldResult = { ok: true; value: JsonValue } | { ok: false; error: FieldError }

/** Longest string, list item and list a field accepts (a form, not a data store). */
export const MAX_STRING = 500
export const MAX_ITEMS = 100

/** The kind of field a value gets. */
export function fieldKind(v: JsonValue): FieldKind {
  if (typeof v === 'boolean') return 'boolean'
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number'
  if (typeof v === 'string') return 'string'
  if (Array.isArray(v)) {
    if (v.every((x) => typeof x === 'string')) return 'names'
    if (v.every((x) => typeof x === 'number')) return 'numbers'
  }
  return 'json'
}

function initialText(kind: FieldKind, v: JsonValue): string {
  switch (kind) {
    case 'names':
      return (v as string[]).join('\n')
    case 'numbers':
      return (v as number[]).join(', ')
    case 'json':
      return JSON.stringify(v, null, 2)
    default:
      return String(v)
  }
}

/**
 * The form's fields, in the file's order. Keys a story cannot read (not a variable name) and `null` values (which a
 * story ignores) get no field: they are passed on unchanged.
 */
export function sessionFields(values: Record<string, JsonValue>): SessionField[] {
  const out: SessionField[] = []
  for (const [key, v] of Object.entries(values)) {
    if (v === null || !isVariableName(key)) continue
    const kind = fieldKind(v)
    out.push({ key, label: humanize(key), kind, initial: v, initialText: initialText(kind, v) })
  }
  return out
}

const fail = (code: string, message: string): FieldResult => ({ ok: false, error: { code, message } })

function readNumber(label: string, text: string, integer: boolean): FieldResult {
  const t = text.trim().replace(/\u2212/g, '-')
  if (t === '') return fail('session-form/required', `${label} needs a number.`)
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t))
    return fail('session-form/not-a-number', `${label} must be a number, not “${text.trim()}”.`)
  const n = Number(t)
  if (!Number.isFinite(n)) return fail('session-form/not-a-number', `${label} is too large.`)
  if (integer && !Number.isInteger(n))
    return fail('session-form/not-integer', `${label} must be a whole number, as in the story’s settings.`)
  return { ok: true, value: Object.is(n, -0) ? 0 : n }
}

/**
 * Reads what the moderator typed into a value of the field's type. Strings that started non-empty must stay
 * non-empty; whole numbers stay whole; a list of names is one name a line (blank lines dropped); a list of numbers is
 * separated by commas, spaces or lines; anything else is edited as JSON and must keep its type (object or list).
 */
export function readField(field: SessionField, input: string | boolean): FieldResult {
  const { label } = field
  switch (field.kind) {
    case 'boolean':
      return typeof input === 'boolean'
        ? { ok: true, value: input }
        : input === 'true' || input === 'false'
          ? { ok: true, value: input === 'true' }
          : fail('session-form/not-a-boolean', `${label} must be yes or no.`)
    case 'integer':
    case 'number':
      return readNumber(label, String(input), field.kind === 'integer')
    case 'string': {
      const s = String(input)
      if (s.trim() === '' && field.initial !== '')
        return fail('session-form/required', `${label} cannot be empty.`)
      if (s.length > MAX_STRING)
        return fail('session-form/too-long', `${label} is longer than ${MAX_STRING} characters.`)
      return { ok: true, value: s.trim() === '' ? '' : s }
    }
    case 'names': {
      const items = String(input)
        .split(/\r?\n/)
        .map((x) => x.trim())
        .filter((x) => x !== '')
      if (items.length > MAX_ITEMS)
        return fail('session-form/too-many', `${label} has more than ${MAX_ITEMS} names.`)
      const long = items.find((x) => x.length > MAX_STRING)
      if (long !== undefined)
        return fail('session-form/too-long', `A name in ${label} is longer than ${MAX_STRING} characters.`)
      if (items.length === 0 && (field.initial as string[]).length > 0)
        return fail('session-form/required', `${label} needs at least one name (one a line).`)
      return { ok: true, value: items }
    }
    case 'numbers': {
      const parts = String(input)
        .split(/[\s,;]+/)
        .filter((x) => x !== '')
      if (parts.length > MAX_ITEMS)
        return fail('session-form/too-many', `${label} has more than ${MAX_ITEMS} numbers.`)
      const out: number[] = []
      for (const p of parts) {
        const r = readNumber(label, p, false)
        if (!r.ok) return fail('session-form/not-a-number', `${label}: “${p}” is not a number.`)
        out.push(r.value as number)
      }
      if (out.length === 0 && (field.initial as number[]).length > 0)
        return fail('session-form/required', `${label} needs at least one number.`)
      return { ok: true, value: out }
    }
    case 'json': {
      let v: unknown
      try {
        v = JSON.parse(String(input))
      } catch {
        return fail('session-form/invalid-json', `${label} is not valid JSON.`)
      }
      const want = Array.isArray(field.initial) ? 'a list' : 'an object'
      const same = Array.isArray(field.initial) ? Array.isArray(v) : isPlainObject(v)
      if (!same)
        return fail('session-form/wrong-type', `${label} must stay ${want}, as in the story’s settings.`)
      return { ok: true, value: v as JsonValue }
    }
  }
}

/**
 * Reads every field: the session values to inject (the file's values with each field's new value; keys without a
 * field pass through), or the errors by key.
 */
export function readSession(
  values: Record<string, JsonValue>,
  fields: readonly SessionField[],
  inputs: Readonly<Record<string, string | boolean>>,
): { ok: true; values: Record<string, JsonValue> } | { ok: false; errors: Record<string, FieldError> } {
  const out: Record<string, JsonValue> = { ...values }
  const errors: Record<string, FieldError> = {}
  for (const f of fields) {
    const input = Object.hasOwn(inputs, f.key)
      ? inputs[f.key]!
      : f.kind === 'boolean'
        ? f.initial === true
        : f.initialText
    const r = readField(f, input)
    if (r.ok) out[f.key] = r.value
    else errors[f.key] = r.error
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, values: out }
}
