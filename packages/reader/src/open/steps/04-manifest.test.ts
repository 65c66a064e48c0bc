import { checkManifestBounds, type Diagnostic } from '@spkg/manifest'
import { buildPackage } from '@spkg/test-utils'
import { readZipDirectory } from '@spkg/zip'
import { describe, expect, it } from 'vitest'
import { openPackage, peekPackage } from '../../index'
import { nodeBackend } from '../../node/backend'
import { webBackend } from '../../zip/backend'
import { EntryStore, FileIndex } from '../entry-store'
import { readManifest } from './04-manifest'

async function read(bytes: Uint8Array, quick: boolean) {
  const dir = readZipDirectory(bytes, {}, { localHeaders: quick ? 'lazy' : 'all' })
  const entries = dir.directory!.entries
  const store = new EntryStore(bytes, new FileIndex(entries), nodeBackend)
  const entry = entries.find((e) => e.name === 'manifest.json')!
  const diagnostics: Diagnostic[] = []
  const m = await readManifest(
    { bytes, entry, store, maxBytes: 1 << 20, confirm: dir.checkLocal, quick },
    quick ? webBackend : nodeBackend,
    diagnostics,
  )
  return { m, codes: diagnostics.map((d) => d.code) }
}

describe('step 4: the manifest', () => {
  it('parses the canonical manifest, the same for an open and a quick look', async () => {
    const bytes = buildPackage({
      manifest: { title: 'Inn', integrity: { 'story/0001-start.sty': 'a'.repeat(64) } },
    })
    for (const quick of [false, true]) {
      const { m, codes } = await read(bytes, quick)
      expect(m?.manifest.title).toBe('Inn')
      expect(m?.integrity).toEqual({ 'story/0001-start.sty': 'a'.repeat(64) })
      expect(codes.filter((c) => c !== 'manifest/normalized')).toEqual([])
    }
  })

  it('hands step 6 the integrity as written when the parser could not read all of it', async () => {
    const bad = { 'story/0001-start.sty': 'xyz' }
    expect((await read(buildPackage({ manifest: { integrity: bad } }), false)).m?.integrity).toEqual(bad)
    expect((await read(buildPackage({ manifest: { integrity: 'abc' } }), true)).m?.integrity).toBe('abc')
  })

  it('refuses a manifest that is not UTF-8, not JSON or has no id', async () => {
    const notUtf8 = buildPackage({ entry: { 'manifest.json': { data: new Uint8Array([0x7b, 0xff, 0x7d]) } } })
    expect(await read(notUtf8, false)).toEqual({ m: undefined, codes: ['manifest/not-json'] })
    expect((await read(buildPackage({ manifest: '{ nope' }), false)).codes).toEqual(['manifest/not-json'])
    expect((await read(buildPackage({ manifest: '{"parts":[]}' }), true)).codes).toContain(
      'manifest/missing-id',
    )
  })

  it('refuses a manifest over 1 MiB by its declared size, before inflating it', async () => {
    // 40 MiB of one letter deflates to about 40 KB: a hostile upload costs the server nothing to refuse.
    const huge = buildPackage({ manifest: { description: 'a'.repeat(40 * 1024 * 1024) } })
    for (const quick of [false, true]) {
      const { m, codes } = await read(huge, quick)
      expect(m).toBeUndefined()
      expect(codes).toEqual(['manifest/too-large'])
    }
    // The check reads the declared size alone: data that would not even inflate is never touched.
    const garbage = buildPackage({
      entry: { 'manifest.json': { payload: new Uint8Array([0xff, 0xff, 0xff]), size: 2 * 1024 * 1024 } },
    })
    expect((await read(garbage, false)).codes).toEqual(['manifest/too-large'])
    // Exactly 1 MiB is read.
    const head = '{"id":"x","parts":["story/0001-start.sty"],"x":"'
    const text = `${head}${'a'.repeat(1024 * 1024 - head.length - 2)}"}`
    expect(text.length).toBe(1024 * 1024)
    expect((await read(buildPackage({ manifest: text }), false)).codes).not.toContain('manifest/too-large')
  })

  it('reports a byte-order mark and reads on', async () => {
    const { m, codes } = await read(
      buildPackage({ manifest: '\ufeff{"id":"x","parts":["story/0001-start.sty"]}' }),
      false,
    )
    expect(m?.manifest.id).toBe('x')
    expect(codes).toContain('pkg/text-bom')
  })

  it('checks the local header before inflating in a quick look', async () => {
    const bytes = buildPackage({ entry: { 'manifest.json': { local: { crc: 1 } } } })
    expect((await read(bytes, true)).codes).toEqual(['pkg/header-mismatch'])
  })

  it('holds the fields to their bounds only when asked (manifestBounds), the size and nesting always', async () => {
    const long = buildPackage({ manifest: { description: 'd'.repeat(20_000) } })
    const plain = await openPackage(long)
    expect(plain.ok && plain.package.manifest?.description).toHaveLength(20_000)
    const bounded = await openPackage(long, { manifestBounds: checkManifestBounds })
    expect(bounded.ok && bounded.package.manifest?.description).toBeUndefined()
    expect(bounded.ok && bounded.diagnostics.map((d) => d.code)).toContain('manifest/too-long')
    const peek = await peekPackage(long, { manifestBounds: checkManifestBounds })
    expect(peek.ok && peek.diagnostics.map((d) => d.code)).toContain('manifest/too-long')
    const id = '6f1c2a8e-4b7d-4e39-9a51-2f0d3c8b7e14'
    const nest = `${'['.repeat(5_000)}${']'.repeat(5_000)}`
    const deep = buildPackage({ manifest: `{"id":"${id}","parts":["story/0001-start.sty"],"x":${nest}}` })
    const refused = await openPackage(deep)
    expect(refused.ok).toBe(false)
    expect(refused.diagnostics.map((d) => d.code)).toEqual(['manifest/too-deep'])
  })
})
