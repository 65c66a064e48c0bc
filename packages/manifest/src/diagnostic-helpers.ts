import type { DiagnosticCode } from './codes'
import { severityOf } from './codes/severities'
import type { Diagnostic, Severity } from './diagnostic'

/** Location fields of a diagnostic. */
export type DiagnosticLocation = Pick<Diagnostic, 'path' | 'field' | 'line' | 'column'>

/**
 * Makes a diagnostic with the catalogue's default severity for `code` (or `severity` when given).
 * Location fields that are `undefined` are left out so the JSON output stays clean.
 */
export function createDiagnostic(
  code: DiagnosticCode,
  message: string,
  location: DiagnosticLocation = {},
  severity?: Severity,
): Diagnostic {
  const d: Diagnostic = { code, severity: severity ?? severityOf(code), message }
  if (location.path !== undefined) d.path = location.path
  if (location.field !== undefined) d.field = location.field
  if (location.line !== undefined) d.line = location.line
  if (location.column !== undefined) d.column = location.column
  return d
}
