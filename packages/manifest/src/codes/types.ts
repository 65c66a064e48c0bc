import type { Severity } from '../severity'

/** One row of the code catalogue: default severity and a one-line description. */
export interface CodeInfo {
  readonly severity: Severity
  readonly description: string
}

/**
 * Declares an area's codes with their literal keys kept for the `DiagnosticCode` union.
 * `@__NO_SIDE_EFFECTS__`: in the bundled dist/ every area's table is a call of this function in
 * one module; esbuild drops an unused call only when told it is pure (Rollup infers it), and
 * would otherwise keep the whole catalogue (19 KB minified) in a browser build that never reads it.
 */
/* @__NO_SIDE_EFFECTS__ */
export function defineCodes<const T extends Record<string, CodeInfo>>(codes: T): T {
  return codes
}
