import { buildPackage } from '@spkg/test-utils'
import { describe, expect, it } from 'vitest'
import { nodeBackend } from '../../node/backend'
import { prepareOpening } from '../open-archive'
import type { Opening } from '../opening'
import { verifyEntries } from './05-entries'
import { resolveParts } from './08-parts'

/** Steps 1 to 5, then step 8: the entry, the parts and step 8's findings. */
async function partsOf(bytes: Uint8Array) {
  const o = (await prepareOpening(bytes, {}, nodeBackend, false)) as Opening
  await verifyEntries(o, nodeBackend, false, undefined)
  const before = o.diagnostics.length
  const r = resolveParts(o)
  return { ...r, found: o.diagnostics.slice(before).map((d) => [d.code, d.field]) }
}

const parts = { 'story/0001-a.sty': 'A', 'story/0002-b.sty': 'B' }

describe('step 8: parts', () => {
  it('keeps the manifest order and leaves out a missing later part', async () => {
    const bytes = buildPackage({
      manifest: { parts: ['story/0002-b.sty', 'story/0009-gone.sty', 'story/0001-a.sty'] },
      parts,
    })
    expect(await partsOf(bytes)).toEqual({
      entry: 'story/0002-b.sty',
      parts: ['story/0002-b.sty', 'story/0001-a.sty'],
      found: [['pkg/missing-part', '/parts/1/file']],
    })
  })

  it('plays a flat archive from its entry alone', async () => {
    expect(await partsOf(buildPackage({ layout: 'flat', parts: { 'b.sty': 'b', 'a.sty': 'a' } }))).toEqual({
      entry: 'a.sty',
      parts: ['a.sty'],
      found: [],
    })
  })

  it('has no entry without parts, with a first part that is not .sty, missing or not UTF-8', async () => {
    const cases = [
      buildPackage({ manifest: { parts: [] }, parts }),
      buildPackage({ manifest: { parts: ['assets/a.png'] }, parts, assets: { 'assets/a.png': 'p' } }),
      buildPackage({ manifest: { parts: ['story/0000-gone.sty'] }, parts }),
      buildPackage({ parts: { 'story/0001-a.sty': new Uint8Array([0xff]) } }),
    ]
    const found = await Promise.all(cases.map(async (c) => (await partsOf(c)).found))
    expect(found).toEqual([
      [['pkg/no-entry', '/parts']],
      [['pkg/no-entry', '/parts/0/file']],
      [['pkg/no-entry', '/parts/0/file']],
      [['pkg/no-entry', '/parts/0/file']],
    ])
  })
})
