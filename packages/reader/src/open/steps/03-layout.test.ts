import { buildArchive } from '@spkg/test-utils'
import { readZipDirectory } from '@spkg/zip'
import { describe, expect, it } from 'vitest'
import { detectLayout } from './03-layout'

const layoutOf = (files: Record<string, string>) => {
  const r = detectLayout(readZipDirectory(buildArchive(files)).directory!.entries)
  return {
    layout: r.layout,
    flatEntry: r.flatEntry,
    manifest: r.manifest?.name,
    codes: r.diagnostics.map((d) => d.code),
  }
}

describe('step 3: layout', () => {
  it('is packaged with a root manifest.json', () => {
    expect(layoutOf({ 'manifest.json': '{}', 'story/a.sty': 'a' })).toEqual({
      layout: 'packaged',
      flatEntry: undefined,
      manifest: 'manifest.json',
      codes: [],
    })
  })

  it('is flat with root .sty files, the entry the lowest by code point', () => {
    expect(layoutOf({ 'c.sty': 'c', 'a.sty': 'a', 'B.sty': 'B' })).toMatchObject({
      layout: 'flat',
      flatEntry: 'B.sty',
    })
    expect(layoutOf({ 'a.sty': 'a', 'sub/x.png': 'x' }).codes).toEqual(['pkg/misplaced-file'])
  })

  it('warns about a root .sty next to the manifest', () => {
    expect(layoutOf({ 'manifest.json': '{}', 'x.sty': 'x' })).toMatchObject({
      layout: 'packaged',
      codes: ['pkg/mixed-layout'],
    })
  })

  it('refuses one wrapping folder and an archive without an entry', () => {
    expect(layoutOf({ 'top/manifest.json': '{}', 'top/a.sty': 'a' })).toMatchObject({
      layout: undefined,
      codes: ['pkg/wrapped-layout'],
    })
    expect(layoutOf({ 'assets/a.png': 'a', 'notes.txt': 'n' })).toMatchObject({
      layout: undefined,
      codes: ['pkg/no-entry'],
    })
    expect(layoutOf({})).toMatchObject({ layout: undefined, codes: ['pkg/no-entry'] })
  })
})
