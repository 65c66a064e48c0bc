import { fc, test } from '@fast-check/vitest'
import { describe, expect, it } from 'vitest'
import { toSriDigest } from './normalize-digest'
import { planDeltaUpdate } from './plan-delta-update'

const h = (c: string) => c.repeat(64)

describe('planDeltaUpdate', () => {
  it('downloads only changed and new files, reuses unchanged ones, removes gone ones', () => {
    const plan = planDeltaUpdate(
      { 'story/a.sty': h('a'), 'story/b.sty': h('b'), 'assets/old.png': h('c') },
      { integrity: { 'story/a.sty': h('a'), 'story/b.sty': h('e'), 'story/new.sty': h('f') } },
    )
    expect(plan).toEqual({
      download: ['story/b.sty', 'story/new.sty'],
      reuse: [{ path: 'story/a.sty', from: 'story/a.sty' }],
      remove: ['assets/old.png'],
      fullDownload: false,
      diagnostics: [],
    })
  })

  it('makes a rename cost nothing (keyed by hash), and reuses one installed file for duplicates', () => {
    const plan = planDeltaUpdate(
      { 'story/0002-forest.sty': h('b') },
      { integrity: { 'story/0003-forest.sty': h('B'), 'story/copy.sty': toSriDigest(h('b'))! } },
    )
    expect(plan.download).toEqual([])
    expect(plan.reuse).toEqual([
      { path: 'story/0003-forest.sty', from: 'story/0002-forest.sty' },
      { path: 'story/copy.sty', from: 'story/0002-forest.sty' },
    ])
    expect(plan.remove).toEqual(['story/0002-forest.sty'])
  })

  it('asks for a full download when the next manifest has no integrity', () => {
    expect(planDeltaUpdate({ a: h('a') }, {})).toMatchObject({ fullDownload: true, download: [], remove: [] })
  })

  it('downloads and reports a next entry whose hash is unusable; never reuses an unusable installed hash', () => {
    const plan = planDeltaUpdate({ a: 'junk', b: h('b') }, { integrity: { a: h('a'), c: 'md5-x' } })
    expect(plan.download).toEqual(['a', 'c'])
    expect(plan.diagnostics.map((d) => [d.code, d.path])).toEqual([['pkg/integrity-malformed', 'c']])
    expect(plan.remove).toEqual(['b'])
  })

  it('ignores manifest.json and META-PKG/ entries (fetched and verified separately)', () => {
    const plan = planDeltaUpdate(
      { 'manifest.json': h('1') },
      { integrity: { 'META-PKG/author.pub': h('2') } },
    )
    expect(plan).toMatchObject({ download: [], reuse: [], remove: [] })
  })

  it('leaves unsafe paths out of the plan (fatal pkg/unsafe-path), never writing or deleting outside the package', () => {
    const plan = planDeltaUpdate(
      { 'story/a.sty': h('a'), '../victim': h('v') },
      {
        integrity: {
          'story/a.sty': h('a'),
          '../../.bashrc': h('a'),
          '/etc/x': h('e'),
          'C:/y': h('f'),
          'a\\b': h('9'),
        },
      },
    )
    expect(plan.download).toEqual([])
    expect(plan.reuse).toEqual([{ path: 'story/a.sty', from: 'story/a.sty' }])
    expect(plan.remove).toEqual([])
    expect(plan.diagnostics.map((d) => [d.code, d.severity, d.path])).toEqual([
      ['pkg/unsafe-path', 'fatal', '../../.bashrc'],
      ['pkg/unsafe-path', 'fatal', '/etc/x'],
      ['pkg/unsafe-path', 'fatal', 'C:/y'],
      ['pkg/unsafe-path', 'fatal', 'a\\b'],
    ])
  })

  it('never throws on a missing installed map or next manifest', () => {
    expect(planDeltaUpdate(undefined as never, { integrity: { a: h('a') } })).toMatchObject({
      download: ['a'],
    })
    expect(planDeltaUpdate({ a: h('a') }, null as never)).toMatchObject({ fullDownload: true })
  })

  const hash = fc.constantFrom(...'0123456789'.split('')).map(h)
  const tree = fc.dictionary(fc.stringMatching(/^[a-d]{1,2}$/), hash, { maxKeys: 8 })
  test.prop([tree, tree])(
    'applying the plan yields exactly the next files with the right hashes',
    (installed, next) => {
      const plan = planDeltaUpdate(installed, { integrity: next })
      const result = new Map<string, string>()
      for (const { path, from } of plan.reuse) {
        expect(installed[from]).toBe(next[path])
        result.set(path, installed[from]!)
      }
      for (const path of plan.download) {
        expect(Object.values(installed)).not.toContain(next[path])
        result.set(path, next[path]!)
      }
      expect(Object.fromEntries(result)).toEqual(next)
      expect(plan.remove.sort()).toEqual(
        Object.keys(installed)
          .filter((p) => !(p in next))
          .sort(),
      )
    },
  )
})
