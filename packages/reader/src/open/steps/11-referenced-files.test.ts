import type { Diagnostic } from '@spkg/manifest'
import { buildPackage } from '@spkg/test-utils'
import { describe, expect, it } from 'vitest'
import { openPackage } from '../../index'
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

describe('step 11: the names map', () => {
  const NAMES = 'META-PKG/names.json'
  const open = (text: string) =>
    openPackage(buildPackage({ manifest: { build: { names_map: NAMES } }, files: { [NAMES]: text } }))
  // buildPackage writes bare-string parts (`manifest/normalized`, info): only the rest matters here.
  const findings = (diagnostics: Diagnostic[]) =>
    diagnostics.filter((d) => d.severity !== 'info').map((d) => [d.code, d.severity, d.path])

  it('hands a names map to the story source', async () => {
    const r = await open('{"version":1,"variables":{"a":"gold"},"ids":{"b":"bar"}}')
    if (!r.ok) throw new Error(r.diagnostics.map((d) => d.code).join())
    expect(findings(r.diagnostics)).toEqual([])
    expect(r.package.storySource().names).toEqual({ version: 1, variables: { a: 'gold' }, ids: { b: 'bar' } })
  })

  it.each([
    ['not JSON', '{"version":1,'],
    ['another version', '{"version":2,"variables":{}}'],
    ['names that are not strings', '{"version":1,"variables":{"a":1}}'],
  ])('reports one that is %s as pkg/invalid-names-map; the story still plays', async (_, text) => {
    const r = await open(text)
    if (!r.ok) throw new Error(r.diagnostics.map((d) => d.code).join())
    expect(findings(r.diagnostics)).toEqual([['pkg/invalid-names-map', 'error', NAMES]])
    expect(r.package.storySource().names).toBeUndefined()
  })
})
