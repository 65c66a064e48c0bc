import type { Severity } from '../severity'

/** One row of the code catalogue: default severity and a one-line description. */
export interface CodeInfo {
  readonly severity: Severity
  readonly description: string
}

/**
 * Declares an area's codes with their literal keys kept for the `DiagnosticCode` union; each row
 * is written `'area/name': error('what it means')` with the helpers below.
 * `@__NO_SIDE_EFFECTS__`: in the bundled dist/ every area's table is a call of this function in
 * one module; esbuild drops an unused call only when told it is pure (Rollup infers it), and
 * would otherwise keep the whole catalogue (19 KB minified) in a browser build that never reads it.
 * The row helpers carry the same mark, so the calls inside an unused table go with it.
 */
/* @__NO_SIDE_EFFECTS__ */
export function defineCodes<const T extends Record<string, CodeInfo>>(codes: T): T {
  return codes
}

/** A row of a code that refuses the package. */
/* @__NO_SIDE_EFFECTS__ */
export function fatal(description: string): CodeInfo {
  return { severity: 'fatal', description }
}

/** A row of a code that fails validation. */
/* @__NO_SIDE_EFFECTS__ */
export function error(description: string): CodeInfo {
  return { severity: 'error', description }
}

/** A row of a code that is reported but never fails. */
/* @__NO_SIDE_EFFECTS__ */
export function warning(description: string): CodeInfo {
  return { severity: 'warning', description }
}

/** A row of a code that only informs. */
/* @__NO_SIDE_EFFECTS__ */
export function info(description: string): CodeInfo {
  return { severity: 'info', description }
}
