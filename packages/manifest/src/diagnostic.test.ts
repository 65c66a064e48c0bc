import { describe, expect, it } from 'vitest'
import {
  CODES,
  countBySeverity,
  createDiagnostic,
  type DiagnosticCode,
  hasErrors,
  hasFatal,
  isDiagnosticCode,
  toPointer,
} from './index'

describe('diagnostics', () => {
  it('takes the default severity from the code catalogue', () => {
    const d = createDiagnostic('manifest/invalid-language', 'language is bad', { field: '/language' })
    expect(d).toEqual({
      code: 'manifest/invalid-language',
      severity: 'error',
      message: 'language is bad',
      field: '/language',
    })
  })
  it('lets warnings pass and errors fail', () => {
    const warn = createDiagnostic('manifest/progressive-only', 'x')
    const err = createDiagnostic('manifest/invalid-age', 'y')
    expect(hasErrors([warn])).toBe(false)
    expect(hasErrors([warn, err])).toBe(true)
    expect(hasFatal([err])).toBe(false)
    expect(countBySeverity([warn, err, err])).toEqual({ fatal: 0, error: 2, warning: 1, info: 0 })
  })
  it('builds escaped JSON pointers', () => {
    expect(toPointer(['parts', 1, 'file'])).toBe('/parts/1/file')
    expect(toPointer(['integrity', 'a/b~c'])).toBe('/integrity/a~1b~0c')
  })
  it('names every code as area/kebab-case with a description', () => {
    for (const [code, info] of Object.entries(CODES)) {
      expect(code).toMatch(/^[a-z]+\/[a-z0-9]+(-[a-z0-9]+)*$/)
      expect(info.description.length).toBeGreaterThan(5)
    }
  })
})

describe('default severities', () => {
  it('createDiagnostic gives every code the severity of its CODES row (read from the generated table)', () => {
    for (const [code, info] of Object.entries(CODES))
      expect(createDiagnostic(code as DiagnosticCode, 'x').severity).toBe(info.severity)
    expect(isDiagnosticCode('manifest/not-json')).toBe(true)
    expect(isDiagnosticCode('manifest/nope')).toBe(false)
  })
})
