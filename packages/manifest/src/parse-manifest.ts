/**
 * The loose-input manifest parser: normalise, validate field by field, then apply the
 * cross-field rules. Never throws; a bad field is reported and left out, unknown fields kept.
 */
import type { checkManifestBounds } from './bounds'
import type { DiagnosticCode } from './codes'
import type { Issue } from './compiled/issues'
import { MANIFEST_FIELD_CHECKS } from './compiled/validators'
import type { Diagnostic } from './diagnostic'
import { toPointer } from './diagnostic'
import { createDiagnostic } from './diagnostic-helpers'
import { fastField, nameBareParts } from './fast/fast-fields'
import { MANIFEST_FIELD_NAMES, type ManifestField } from './fields'
import { issuesToDiagnostics } from './issues-to-diagnostics'
import { describeJsonType, isPlainObject, jsonText, parseJsonText } from './json'
import { textTooLarge, tooDeep } from './manifest-guards'
import { normalizeField } from './normalize'
import { runManifestRules } from './rules'
import type { Manifest } from './schema'

/** What {@link parseManifest} returns: the canonical manifest unless a fatal problem stopped it. */
export interface ManifestResult {
  manifest?: Manifest
  diagnostics: Diagnostic[]
}

export interface ParseManifestOptions {
  /** Archive path reported in diagnostics. @default 'manifest.json' */
  path?: string
  /**
   * The per-field bounds of `MANIFEST_LIMITS` (publishing policy): pass `checkManifestBounds`
   * to report every string, list and map over its bound (`manifest/too-long`,
   * `manifest/too-many`, left out) and the key and value counts (`manifest/too-large`). Without
   * it only the size (1 MiB) and the nesting (64 levels) are checked, and a bundle that never
   * passes it does not carry the bounds. The validator and the platform always pass it.
   */
  bounds?: typeof checkManifestBounds
}

const MANIFEST_PATH = 'manifest.json'
const KNOWN = new Set<string>(MANIFEST_FIELD_NAMES)
/**
 * The JSON Schema hint an editor reads (`"$schema": "./node_modules/@spkg/manifest/manifest.schema.json"`,
 * as the README recommends): not manifest data, so it is dropped without a word whatever its
 * value, and a packed package never ships it.
 */
const EDITOR_HINT = '$schema'

function describeForField(field: ManifestField) {
  return (issue: Issue): string | undefined =>
    field === 'integrity' && issue.code !== 'invalid_type'
      ? 'must be a SHA-256 digest: 64 hex digits or sha256-<base64>'
      : undefined
}

function codeForField(field: ManifestField) {
  return (issue: Issue): DiagnosticCode | undefined => {
    if (issue.code === 'invalid_type') return undefined
    if (field === 'direction') return 'manifest/invalid-direction'
    if (field === 'integrity') return 'manifest/invalid-hash'
    return undefined
  }
}

/**
 * Validates one field; arrays and records keep their valid members and drop only bad ones.
 * A field already in canonical form is taken by {@link fastField} without the schema check (same result;
 * `same` then says whether its JSON is the input's); `root()` (the manifest with this field
 * normalised) is only built to word the check's issues.
 */
function validateField(
  field: ManifestField,
  value: unknown,
  root: () => unknown,
  path: string,
  out: Diagnostic[],
  fast: boolean,
  owned: boolean,
): { ok: boolean; value?: unknown; same?: boolean } {
  if (fast) {
    const r = fastField(field, value, owned)
    if (r) return { ok: true, value: r.value, same: r.same }
  }
  return validateFieldWithSchema(field, value, root(), path, out)
}

/**
 * Validates one field with its schema, compiled from zod (the reference the fast path is tested
 * against): lists and maps member by member, so a bad member is left out. @internal
 */
export function validateFieldWithSchema(
  field: ManifestField,
  value: unknown,
  root: unknown,
  path: string,
  out: Diagnostic[],
): { ok: boolean; value?: unknown } {
  const { kind, check, member } = MANIFEST_FIELD_CHECKS[field]
  const codeFor = codeForField(field)
  const describe = describeForField(field)
  if (kind === 'array' && member && Array.isArray(value)) {
    const kept: unknown[] = []
    value.forEach((item, i) => {
      const r = member(item)
      if (r.success) kept.push(r.data)
      else out.push(...issuesToDiagnostics(r.issues, root, [field, i], { path, codeFor, describe }))
    })
    return { ok: true, value: kept }
  }
  if (kind === 'record' && member && isPlainObject(value)) {
    const kept: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) {
      const r = member(v)
      if (r.success) kept[k] = r.data
      else out.push(...issuesToDiagnostics(r.issues, root, [field, k], { path, codeFor, describe }))
    }
    return { ok: true, value: kept }
  }
  const r = check(value)
  if (r.success) return { ok: true, value: r.data }
  out.push(...issuesToDiagnostics(r.issues, root, [field], { path, codeFor, describe }))
  return { ok: false }
}

/**
 * Normalising made the difference: the result's JSON differs from what was written and is the
 * normalised value's. Values too deep to write as JSON count as not normalised.
 */
function sameJsonDiffers(raw: unknown, normalized: unknown, result: unknown): boolean {
  const out = jsonText(result)
  if (out === undefined) return false
  const written = jsonText(raw)
  return written !== undefined && written !== out && jsonText(normalized) === out
}

/** The wording of {@link parseManifestWith}'s findings, compiled only when one is made. */
const report = {
  notObject: (path: string, value: unknown) =>
    createDiagnostic(
      'manifest/not-object',
      `${path} must be a JSON object, got ${describeJsonType(value)}.`,
      {
        path,
      },
    ),
  // A manifest field's name has no `~` or `/`: its pointer needs no escaping.
  normalized: (path: string, field: ManifestField) =>
    createDiagnostic('manifest/normalized', `"${field}" was written in a looser form and normalised.`, {
      path,
      field: `/${field}`,
    }),
  unknownField: (path: string, key: string) =>
    createDiagnostic('manifest/unknown-field', `"${key}" is not a manifest field; it is kept and ignored.`, {
      path,
      field: toPointer([key]),
    }),
  missingId: (path: string, raw: unknown) =>
    createDiagnostic(
      'manifest/missing-id',
      raw === undefined
        ? `${path} has no "id": every package needs its stable story identifier (a UUID).`
        : `"id" must be a non-empty string (a UUID) of at most 100 characters, got ${describeJsonType(raw)}.`,
      { path, field: '/id' },
    ),
}

/**
 * Parses a manifest value (already decoded from JSON) into the canonical manifest.
 * Looser forms are normalised (a bare-string part becomes `{file, name}`, a string author
 * becomes `[{name}]`, a `sha256-<base64>` digest becomes lowercase hex...), unknown fields are
 * preserved untouched (except the editor hint `$schema`, dropped silently), and every problem
 * comes back as a diagnostic. Never throws.
 *
 * Fatal (no manifest returned): not an object (`manifest/not-object`), no usable `id` (`manifest/missing-id`),
 * nested deeper than 64 levels (`manifest/too-deep`). With `bounds: checkManifestBounds`, also
 * more keys or values than `MANIFEST_LIMITS` allows (`manifest/too-large`), and a value over its
 * field's bound is an error and left out (`manifest/too-long`, `manifest/too-many`).
 *
 * @example
 * const { manifest, diagnostics } = parseManifest({ id: 'x', parts: ['story/0001-inn.sty'] })
 * // manifest.parts → [{ file: 'story/0001-inn.sty', name: 'Inn' }]
 */
export function parseManifest(value: unknown, options: ParseManifestOptions = {}): ManifestResult {
  return parseManifestWith(value, options, true)
}

/**
 * {@link parseManifest}, with the fast path (`fast/fast-fields.ts`) for canonical fields on or off (off only
 * in the equivalence test, which proves both give the same result). `owned`: nothing else refers
 * to `value` (a fresh `JSON.parse` result), so the result may reuse its arrays and objects.
 * @internal
 */
export function parseManifestWith(
  value: unknown,
  options: ParseManifestOptions,
  fast: boolean,
  owned = false,
): ManifestResult {
  const path = options.path ?? MANIFEST_PATH
  const diagnostics: Diagnostic[] = []
  if (!isPlainObject(value)) {
    diagnostics.push(report.notObject(path, value))
    return { diagnostics }
  }
  // The nesting first, then the bounds when asked for: nothing below runs on a value too deep
  // (or, with the bounds, too large) to check cheaply.
  const deep = tooDeep(value, path)
  if (deep) return { diagnostics: [deep] }
  const bounds = options.bounds?.(value, path)
  if (bounds?.fatal) return { diagnostics: [bounds.fatal] }
  // Read on without what is over a bound (the missing-id message quotes the id as written).
  const input = bounds?.value ?? value
  if (bounds) for (let i = 0; i < bounds.findings.length; i++) diagnostics.push(bounds.findings[i]!)
  const out: Record<string, unknown> = {}
  for (let f = 0; f < MANIFEST_FIELD_NAMES.length; f++) {
    const field = MANIFEST_FIELD_NAMES[f]!
    if (!Object.hasOwn(input, field)) continue
    const raw = input[field]
    if (raw === undefined) continue
    // Bare part file names (how packers write `parts`) are named in one loop; the result is
    // canonical `{ file, name }` strings, which validation would take unchanged.
    const named = fast && field === 'parts' ? nameBareParts(raw) : undefined
    // A field already canonical (the digest map of a real manifest among them) is taken as it
    // is: the fast path accepts no looser form, and normalising returns every other value
    // itself, so neither normalising nor a second check runs.
    const canonical = named ? { value: named, same: true } : fast ? fastField(field, raw, owned) : undefined
    const normalized = named ?? (canonical ? raw : normalizeField(field, raw))
    if (field === 'id') {
      if (typeof normalized !== 'string' || normalized.trim().length === 0) continue
    }
    const r = canonical
      ? { ok: true, value: canonical.value, same: canonical.same }
      : validateField(
          field,
          normalized,
          () => ({ ...input, [field]: normalized }),
          path,
          diagnostics,
          fast,
          owned,
        )
    if (!r.ok) continue
    out[field] = r.value
    // Normalised: the value differs from what was written, and normalising (not validation
    // dropping members) made the difference. When the value is known to serialise like the
    // normalised input, that is: normalising changed the JSON, which `normalizeField` does
    // exactly when it returns a new value.
    const looser = r.same ? !Object.is(normalized, raw) : sameJsonDiffers(raw, normalized, r.value)
    if (looser) diagnostics.push(report.normalized(path, field))
  }
  const keys = Object.keys(input)
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k]!
    if (KNOWN.has(key) || key === EDITOR_HINT) continue
    out[key] = input[key]
    diagnostics.push(report.unknownField(path, key))
  }
  const candidate = out as Manifest
  if (typeof out.id !== 'string') {
    diagnostics.unshift(report.missingId(path, value.id))
    // Still run the rules, so one check reports every problem of the file.
    diagnostics.push(...runManifestRules(candidate, path))
    return { diagnostics }
  }
  diagnostics.push(...runManifestRules(candidate, path))
  return { manifest: candidate, diagnostics }
}

/**
 * Parses the text of `manifest.json` (UTF-8 already decoded): `manifest/too-large` when it is
 * over 1 MiB (before it is parsed), `manifest/not-json` when it is not JSON, then
 * {@link parseManifest} (`manifest/too-deep` past 64 levels; the field bounds with the `bounds`
 * option). Never throws.
 */
export function parseManifestText(text: string, options: ParseManifestOptions = {}): ManifestResult {
  const path = options.path ?? MANIFEST_PATH
  // Bounded before JSON.parse: a 40 MiB manifest is refused without being read. JSON.parse is
  // iterative (V8, SpiderMonkey, JavaScriptCore): the nesting is bounded by the walk after it.
  const tooLarge = textTooLarge(text, path)
  if (tooLarge) return { diagnostics: [tooLarge] }
  const json = parseJsonText(text)
  if (!json.ok) {
    return {
      diagnostics: [
        createDiagnostic('manifest/not-json', `${path} is not valid JSON: ${json.message}.`, { path }),
      ],
    }
  }
  // The parsed value is ours alone: the result may reuse its arrays and objects.
  return parseManifestWith(json.value, options, true, true)
}
