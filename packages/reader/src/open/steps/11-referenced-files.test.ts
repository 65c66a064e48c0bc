import type { Diagnostic } from '@spkg/manifest'
import { describe, expect, it } from 'vitest'
import { checkReferencedFiles } from './11-referenced-files'

describe('step 11: referenced files', () => {
  it('reports a missing cover, asset or names map by its field, and nothing for present ones', () => {
    const out: Diagnostic[] = []
    const present = new Set(['assets/b.png'])
    checkReferencedFiles(
      {
        id: 'x',
        cover: 'assets/cover.png',
        assets: [{ file: 'assets/a.png' }, { file: 'assets/b.png' }],
        build: { names_map: 'META-PKG/names.json' },
      },
      (p) => present.has(p),
      out,
    )
    expect(out.map((d) => [d.code, d.severity, d.path, d.field])).toEqual([
      ['pkg/missing-file', 'error', 'assets/cover.png', '/cover'],
      ['pkg/missing-file', 'error', 'assets/a.png', '/assets/0/file'],
      ['pkg/missing-file', 'error', 'META-PKG/names.json', '/build/names_map'],
    ])
  })

  it('has nothing to check without a manifest', () => {
    const out: Diagnostic[] = []
    checkReferencedFiles(undefined, () => false, out)
    expect(out).toEqual([])
  })
})
