/**
 * The one diagnostic shape of the whole project: findings are data, not exceptions.
 */
import type { DiagnosticCode } from './codes'
import type { Severity } from './severity'

export type { Severity } from './severity'
export { SEVERITIES } from './severity'

/**
 * A finding. `path` is the archive file concerned (`story/0002-forest.sty`), `field` the JSON
 * pointer of the offending field (`/parts/1/file`), `line`/`column` 1-based positions in `path`.
 */
export interface Diagnostic {
  code: DiagnosticCode
  severity: Severity
  /** One plain sentence naming the field or file and what was expected; no stack, no host paths. */
  message: string
  path?: string
  field?: string
  line?: number
  column?: number
}

/** True when the diagnostics hold a `fatal` one (the package is refused). */
export function hasFatal(diagnostics: readonly Pick<Diagnostic, 'severity'>[]): boolean {
  return diagnostics.some((d) => d.severity === 'fatal')
}

/** True when the diagnostics hold a `fatal` or an `error` (a check fails). Warnings alone never fail. */
export function hasErrors(diagnostics: readonly Pick<Diagnostic, 'severity'>[]): boolean {
  return diagnostics.some((d) => d.severity === 'fatal' || d.severity === 'error')
}

/** Counts diagnostics by severity. */
export function countBySeverity(
  diagnostics: readonly Pick<Diagnostic, 'severity'>[],
): Record<Severity, number> {
  const counts: Record<Severity, number> = { fatal: 0, error: 0, warning: 0, info: 0 }
  for (const d of diagnostics) counts[d.severity]++
  return counts
}

/** Escapes one JSON-pointer token (RFC 6901). */
export function escapePointerToken(token: string | number): string {
  const s = String(token)
  return s.includes('~') || s.includes('/') ? s.replace(/~/g, '~0').replace(/\//g, '~1') : s
}

/** Builds a JSON pointer (`/parts/1/file`) from path segments. */
export function toPointer(segments: readonly (string | number)[]): string {
  return segments.map((s) => `/${escapePointerToken(s)}`).join('')
}
