import { describe, expect, it } from 'vitest'
import { authorChecks, mergeDiagnostics } from './author-checks'

const codes = (ds: { code: string; path?: string }[]) => ds.map((d) => `${d.code} ${d.path ?? ''}`.trim())

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
        { path: 'manifest.json', method: 8 },
        { path: 'assets/cover.webp', method: 0 },
        { path: 'story/0001-a.sty', method: 8 },
        { path: 'session.json', method: 8 },
        { path: 'extensions/dice.xty', method: 8 },
      ],
    })
    expect(ds).toEqual([])
  })

  it('counts the modules of a flat archive as referenced (the reader discovers them, {use} reads them)', () => {
    const ds = authorChecks({
      layout: 'flat',
      entry: 'duel.sty',
      entries: [
        { path: 'duel.sty', method: 8 },
        { path: 'combat.xty', method: 8 },
        { path: 'other.sty', method: 8 },
      ],
    })
    expect(codes(ds)).toEqual(['pkg/unreferenced-file other.sty'])
  })

  it('reports a missing cover file, unlisted files, deflated media and a non-canonical manifest', () => {
    const ds = authorChecks({
      layout: 'packaged',
      manifest: { id: 'x', cover: 'assets/gone.png', parts: [{ file: 'story/a.sty', name: 'A' }] },
      manifestText: '{"id":"x"}',
      entries: [
        { path: 'manifest.json', method: 8 },
        { path: 'story/a.sty', method: 8 },
        { path: 'assets/song.OGG', method: 8 },
        { path: 'notes.txt', method: 8 },
      ],
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
      entries: [{ path: 'story/a.sty', method: 8 }],
    })
    expect(ds).toEqual([])
  })

  it('in a flat archive, names the .sty files that are never played', () => {
    const ds = authorChecks({
      layout: 'flat',
      entry: 'a.sty',
      entries: [
        { path: 'a.sty', method: 8 },
        { path: 'b.sty', method: 8 },
        { path: 'map.png', method: 0 },
      ],
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
