import { describe, expect, it } from 'vitest'
import { storyChecks } from './story-checks'

const where = (ds: { code: string; path?: string; line?: number }[]) =>
  ds.map((d) => `${d.path}:${d.line} ${d.code}`)

const base = {
  order: ['story/0001-inn.sty', 'story/0002-road.sty'],
  modules: new Map<string, string>(),
  files: ['manifest.json', 'story/0001-inn.sty', 'story/0002-road.sty', 'assets/inn.webp'],
  layout: 'packaged' as const,
}

describe('storyChecks', () => {
  it('accepts gates and links to existing parts and ids, and media in the archive', () => {
    const parts = new Map([
      [
        'story/0001-inn.sty',
        '# Inn\n\n![The room](assets/inn.webp)\n\nGo [on > 0002-road.sty:fork].\n\n[[ 0002-road.sty ]]\n',
      ],
      ['story/0002-road.sty', '# Road [#fork]\n\nThe road.\n'],
    ])
    expect(storyChecks({ ...base, parts })).toEqual([])
  })

  it('reports a gate to a missing part, a link to a missing id and missing media, with lines', () => {
    const parts = new Map([
      [
        'story/0001-inn.sty',
        '# Inn\n\n![Gone](assets/gone.webp)\n\nGo [on > story/0002-road.sty:nowhere].\n\n[[ 0009-lost.sty ]]\n',
      ],
      ['story/0002-road.sty', '# Road [#fork]\n'],
    ])
    const ds = storyChecks({ ...base, parts })
    expect(where(ds.filter((d) => d.severity === 'error'))).toEqual([
      'story/0001-inn.sty:3 story/missing-media',
      'story/0001-inn.sty:5 story/unknown-id',
      'story/0001-inn.sty:7 story/unknown-part',
    ])
  })

  it('reports a variable no part, module or session declares, and accepts a session key', () => {
    const parts = new Map([['story/0001-inn.sty', '# Inn\n\n{set gold += 1}\n{set players = 2}\n']])
    const order = ['story/0001-inn.sty']
    const ds = storyChecks({ ...base, order, parts, session: { players: 3 } })
    expect(ds.map((d) => d.code)).toEqual(['story/undeclared'])
    expect(ds[0]!.message).toContain('gold')
  })
})
