import { ZIP_LIMITS, ZIP_SEVERITIES, type ZipCode, zipDiagnostic } from '@spkg/zip'
import { describe, expect, it } from 'vitest'
import { isDiagnosticCode } from './codes'
import { severityOf } from './codes/severities'
import { createDiagnostic } from './diagnostic-helpers'
import { LIMITS } from './limits'

// @spkg/zip depends on nothing, so it declares its codes, severities and limits itself: they
// must stay those of this catalogue and of the package limits.
describe("@spkg/zip's findings and limits", () => {
  const all: Record<ZipCode, true> = {
    'pkg/not-zip': true,
    'pkg/corrupt-archive': true,
    'pkg/corrupt-entry': true,
    'pkg/header-mismatch': true,
    'pkg/overlapping-entries': true,
    'pkg/unexpected-data': true,
    'pkg/trailing-padding': true,
    'pkg/split-archive': true,
    'pkg/unsupported-entry': true,
    'pkg/unsafe-path': true,
    'pkg/invalid-name': true,
    'pkg/cp437-name': true,
    'pkg/duplicate-entry': true,
    'pkg/directory-with-data': true,
    'pkg/ignored-entry': true,
    'pkg/missing-file': true,
    'pkg/too-many-entries': true,
    'pkg/too-large': true,
  }
  const codes = Object.keys(all) as ZipCode[]

  it('are codes of the catalogue with its default severities', () => {
    for (const code of codes) {
      expect(isDiagnosticCode(code), code).toBe(true)
      expect(ZIP_SEVERITIES[code] ?? 'fatal', code).toBe(severityOf(code))
    }
  })

  it('build the diagnostic createDiagnostic builds', () => {
    for (const code of codes) {
      expect(zipDiagnostic(code, 'm', { path: 'a.sty' })).toEqual(
        createDiagnostic(code, 'm', { path: 'a.sty' }),
      )
      expect(zipDiagnostic(code, 'm')).toEqual(createDiagnostic(code, 'm'))
    }
  })

  it('default to the package limits', () => {
    expect(ZIP_LIMITS).toEqual({
      maxEntries: LIMITS.maxEntries,
      maxUncompressedBytes: LIMITS.maxUncompressedBytes,
    })
  })
})
