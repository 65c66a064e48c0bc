import type { Severity } from '../severity'

/** One row of the code catalogue: default severity and a one-line description. */
export interface CodeInfo {
  readonly severity: Severity
  readonly description: string
}

/** Declares an area's codes with their literal keys kept for the `DiagnosticCode` union. */
export function defineCodes<const T extends Record<string, CodeInfo>>(codes: T): T {
  return codes
}
