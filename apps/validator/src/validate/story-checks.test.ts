import { describe, expect, it } from 'vitest'
import { storyChecks } from './story-checks'

const where = (ds: { code: string; path?: string; line?: number }[]) =>
  ds.map((d) => `${d.path}:${d.line} ${d.code}`)

describe('storyChecks', () => {
  const files = new Set(['story/0001-inn.sty', 'story/0002-road.sty', 'assets/inn.webp'])
  const has = (p: string) => files.has(p)

  it('accepts gates and links to existing parts and ids, and media in the archive', () => {
    const parts = new Map([
      [
        'story/0001-inn.sty',
        '# Inn\n\n![The room](assets/inn.webp)\n\nGo [on > 0002-road.sty:fork].\n\n[[ 0002-road.sty ]]\n',
      ],
      ['story/0002-road.sty', '# Road [#fork]\n\nThe road.\n'],
    ])
    expect(storyChecks(parts, new Map(), has)).toEqual([])
  })

  it('reports a gate to a missing part, a link to a missing id and missing media, with lines', () => {
    const parts = new Map([
      [
        'story/0001-inn.sty',
        '# Inn\n\n![Gone](assets/gone.webp)\n\nGo [on > story/0002-road.sty:nowhere].\n\n[[ 0009-lost.sty ]]\n',
      ],
      ['story/0002-road.sty', '# Road [#fork]\n'],
    ])
    const ds = storyChecks(parts, new Map(), has)
    expect(where(ds)).toEqual([
      'story/0001-inn.sty:3 story/missing-media',
      'story/0001-inn.sty:5 story/unknown-id',
      'story/0001-inn.sty:7 story/unknown-part',
    ])
    expect(ds[2]!.message).toBe("'0009-lost.sty' leads to story/0009-lost.sty, which is not in the archive")
  })

  it('passes the parser diagnostics through', () => {
    const ds = storyChecks(new Map([['story/0001-inn.sty', '-> #nowhere\n']]), new Map(), has)
    expect(ds.map((d) => d.code)).toContain('story/unknown-id')
  })
})
