/**
 * The findings of the ZIP reader, as data. The shape is the one of `@spkg/manifest`'s `Diagnostic`
 * (a ZIP finding can be pushed into a list of those as it is), declared here so that this package
 * depends on nothing: its codes are the `pkg/*` codes of the spkg catalogue, with the same default
 * severities (the reader's tests check both against the catalogue).
 */

/** How bad a finding is: `fatal` refuses the archive, `info` only reports. */
export type ZipSeverity = 'fatal' | 'error' | 'warning' | 'info'

/** A code the ZIP reader reports. */
export type ZipCode =
  | 'pkg/not-zip'
  | 'pkg/corrupt-archive'
  | 'pkg/corrupt-entry'
  | 'pkg/header-mismatch'
  | 'pkg/overlapping-entries'
  | 'pkg/unexpected-data'
  | 'pkg/trailing-padding'
  | 'pkg/split-archive'
  | 'pkg/unsupported-entry'
  | 'pkg/unsafe-path'
  | 'pkg/invalid-name'
  | 'pkg/cp437-name'
  | 'pkg/duplicate-entry'
  | 'pkg/directory-with-data'
  | 'pkg/ignored-entry'
  | 'pkg/missing-file'
  | 'pkg/too-many-entries'
  | 'pkg/too-large'

/** The default severity of the codes that do not refuse the archive; every other one is `fatal`. */
export const ZIP_SEVERITIES: Readonly<Partial<Record<ZipCode, ZipSeverity>>> = {
  'pkg/trailing-padding': 'warning',
  'pkg/cp437-name': 'warning',
  'pkg/directory-with-data': 'error',
  'pkg/ignored-entry': 'info',
  'pkg/missing-file': 'error',
}

/** One finding: `path` is the entry concerned, when there is one. */
export interface ZipDiagnostic {
  code: ZipCode
  severity: ZipSeverity
  /** One plain sentence naming the entry and what was expected. */
  message: string
  path?: string
}

/** Makes a finding with the default severity of `code`; an absent `path` is left out. */
export function zipDiagnostic(
  code: ZipCode,
  message: string,
  location: { path?: string } = {},
): ZipDiagnostic {
  const d: ZipDiagnostic = { code, severity: ZIP_SEVERITIES[code] ?? 'fatal', message }
  if (location.path !== undefined) d.path = location.path
  return d
}

/** True when the findings hold a `fatal` one (the archive is refused). */
export function hasFatal(diagnostics: readonly Pick<ZipDiagnostic, 'severity'>[]): boolean {
  return diagnostics.some((d) => d.severity === 'fatal')
}

/**
 * Where the reader pushes its findings: any list a {@link ZipDiagnostic} can go into, so a
 * caller's list of wider diagnostics (`@spkg/manifest`'s) is taken as it is.
 */
export interface ZipFindings {
  push(...items: ZipDiagnostic[]): number
}
