import { describe, expect, it } from 'vitest'
import { authorChecks, mergeDiagnostics } from './author-checks'

const codes = (ds: { code: string; path?: string }[]) => ds.map((d) => `${d.code} ${d.path ?? ''}`.trim())
/** Archive entries as the central directory lists them: deflated (method 8) or stored (method 0). */
const deflated = (...paths: string[]) => paths.map((path) => ({ path, method: 8 }))
const stored = (...paths: string[]) => paths.map((path) => ({ path, method: 0 }))

describe('authorChecks', () => {
  it('finds nothing to say about a tidy packaged story', () => {
    const manifest = {
      id: 'x',
      cover: 'assets/cover.webp',
      parts: [{ file: 'story/0001-a.sty', name: 'A' }],
      assets: [{ file: 'assets/cover.webp' }],
    }
    const ds = authorChecks({
      layout: 'packaged',
      manifest,
      manifestText:
        '{\n  "id": "x",\n  "cover": "assets/cover.webp",\n  "parts": [\n    {\n      "file": "story/0001-a.sty",\n      "name": "A"\n    }\n  ],\n  "assets": [\n    {\n      "file": "assets/cover.webp"\n    }\n  ]\n}\n',
      entries: [
        ...deflated('manifest.json'),
        ...stored('assets/cover.webp'),
        ...deflated('story/0001-a.sty', 'session.json', 'extensions/dice.xty'),
      ],
    })
    expect(ds).toEqual([])
  })

  it('counts the modules of a flat archive as referenced (the reader discovers them, {use} reads them)', () => {
    const ds = authorChecks({
      layout: 'flat',
      entry: 'duel.sty',
      entries: deflated('duel.sty', 'combat.xty', 'other.sty'),
    })
    expect(codes(ds)).toEqual(['pkg/unreferenced-file other.sty'])
  })

  it('reports a missing cover file, unlisted files, deflated media and a non-canonical manifest', () => {
    const ds = authorChecks({
      layout: 'packaged',
      manifest: { id: 'x', cover: 'assets/gone.png', parts: [{ file: 'story/a.sty', name: 'A' }] },
      manifestText: '{"id":"x"}',
      entries: deflated('manifest.json', 'story/a.sty', 'assets/song.OGG', 'notes.txt'),
      texts: new Map([['story/a.sty', '![x](assets/song.OGG)']]),
    })
    expect(codes(ds)).toEqual([
      'pkg/missing-file assets/gone.png',
      'pkg/non-canonical-manifest manifest.json',
      'pkg/unreferenced-file notes.txt',
      'pkg/deflated-media assets/song.OGG',
    ])
  })

  it('asks no cover of an instruction package', () => {
    const ds = authorChecks({
      layout: 'packaged',
      manifest: { id: 'x', type: 'instruction', parts: [{ file: 'story/a.sty', name: 'A' }] },
      entries: deflated('story/a.sty'),
    })
    expect(ds).toEqual([])
  })

  it('in a flat archive, names the .sty files that are never played', () => {
    const ds = authorChecks({
      layout: 'flat',
      entry: 'a.sty',
      entries: [...deflated('a.sty', 'b.sty'), ...stored('map.png')],
      texts: new Map([['a.sty', '![Map](map.png)']]),
    })
    expect(ds).toMatchObject([
      {
        code: 'pkg/unreferenced-file',
        path: 'b.sty',
        message: "'b.sty' is never loaded: a flat archive plays only its entry 'a.sty'",
      },
    ])
  })

  it('merges without repeating a finding the reader already made', () => {
    const a = { code: 'pkg/missing-file', severity: 'error', message: 'reader', path: 'x' } as const
    const b = { code: 'pkg/missing-file', severity: 'error', message: 'author', path: 'x' } as const
    const c = { code: 'pkg/missing-file', severity: 'error', message: 'author', path: 'y' } as const
    expect(mergeDiagnostics([a], [b, c]).map((d) => d.message)).toEqual(['reader', 'author'])
  })

  it('keeps findings that share a code and a path but name different fields', () => {
    const title = {
      code: 'manifest/invalid-type',
      severity: 'error',
      message: 'title',
      path: 'manifest.json',
      field: '/title',
    } as const
    const version = { ...title, message: 'version', field: '/version' } as const
    expect(mergeDiagnostics([], [title, version]).map((d) => d.message)).toEqual(['title', 'version'])
    expect(mergeDiagnostics([title], [title, version]).map((d) => d.message)).toEqual(['title', 'version'])
  })
})
