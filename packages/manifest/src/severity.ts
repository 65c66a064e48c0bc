/**
 * Severities: a leaf (no imports), shared by the code catalogue and the diagnostic shape.
 */

/** How bad a finding is. `fatal` refuses a package; `error` fails a check; warnings and info never do. */
export type Severity = 'fatal' | 'error' | 'warning' | 'info'

/** Severities from worst to mildest. */
export const SEVERITIES: readonly Severity[] = ['fatal', 'error', 'warning', 'info']
