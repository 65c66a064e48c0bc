import {
  COMMON_SAFE_PATH,
  CONTROL_CHARACTER,
  checkArchivePath,
  createDiagnostic,
  isDiagnosticCode,
  LIMITS,
} from '@spkg/manifest'
import {
  COMMON_SAFE_PATH as ZIP_COMMON_SAFE_PATH,
  CONTROL_CHARACTER as ZIP_CONTROL_CHARACTER,
  ZIP_LIMITS,
  ZIP_SEVERITIES,
  type ZipCode,
  zipDiagnostic,
} from '@spkg/zip'
import { describe, expect, it } from 'vitest'

// @spkg/zip and @spkg/manifest depend on nothing of ours, so the ZIP reader declares its codes,
// severities, limits and path shapes itself; the reader uses both, and they must stay one.
describe("@spkg/zip's findings, limits and path shapes", () => {
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
      expect(ZIP_SEVERITIES[code] ?? 'fatal', code).toBe(createDiagnostic(code, 'm').severity)
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

  it('are the path shapes of the manifest', () => {
    expect(ZIP_COMMON_SAFE_PATH.source).toBe(COMMON_SAFE_PATH.source)
    expect(ZIP_CONTROL_CHARACTER.source).toBe(CONTROL_CHARACTER.source)
    expect(ZIP_COMMON_SAFE_PATH.flags + ZIP_CONTROL_CHARACTER.flags).toBe('')
    expect(COMMON_SAFE_PATH.flags + CONTROL_CHARACTER.flags).toBe('')
    // A path of the common shape is a safe archive path, and one with a control character is not.
    expect(checkArchivePath('story/0001-inn.sty')).toBeUndefined()
    expect(checkArchivePath('story/a\u0085.sty')).toBe('contains a control character')
  })
})
