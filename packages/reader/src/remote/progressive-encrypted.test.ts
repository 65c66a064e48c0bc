/**
 * Progressive loading of an encrypted package (`.spkg.enc`) over a real range server
 * (`@fastify/static`): only the container chunks covering the ranges a plain progressive open
 * reads are fetched, each authenticated before use; a deferred part's chunks are fetched (and
 * authenticated) when the story needs the part.
 */
import { encryptPackage, generateEncryptionKey } from '@spkg/integrity/encrypt'
import { buildPackage } from '@spkg/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { entryDataSpans } from '../../test/helpers/entry-data-spans'
import { innParts } from '../../test/helpers/inn-story'
import { staticServer, type TestServer } from '../../test/helpers/range-servers'
import { openPackageUrl } from '../node'
import { isProgressivePackage, type PartLoadEvent, type ProgressivePackage } from './progressive'

const parts = innParts(300_000)
const plain = buildPackage({
  manifest: { title: 'Sealed and progressive', loading: 'progressive', preload: ['story/0002-cellar.sty'] },
  parts,
  integrity: true,
})
const key = generateEncryptionKey()
const CHUNK = 65_536
const HEADER = 36
const TAG = 16

/**
 * The container chunks lying wholly inside a part's data, and not in the archive's last 64 KiB
 * (which the open reads first, as for a plain package): fetched only when the part is.
 */
function innerChunks(part: string): Array<[number, number]> {
  const [s, e] = entryDataSpans(plain).get(part)!
  const out: Array<[number, number]> = []
  const end = Math.min(e, plain.length - 65_536)
  for (let i = Math.ceil(s / CHUNK); (i + 1) * CHUNK <= end; i++)
    out.push([HEADER + i * (CHUNK + TAG), HEADER + (i + 1) * (CHUNK + TAG)])
  return out
}

/** The parts of which some inner chunk was requested. */
function partsFetched(log: TestServer['log'], size: number): string[] {
  const ranges = log.flatMap(({ range }) => {
    const m = /^bytes=(\d*)-(\d*)$/.exec(range ?? '')
    if (!m) return []
    return m[1] === '' ? [[size - Number(m[2]), size]] : [[Number(m[1]), Number(m[2]) + 1]]
  })
  return Object.keys(parts).filter((p) =>
    innerChunks(p).some(([a, b]) => ranges.some(([s, e]) => s! < b && e! > a)),
  )
}

describe('progressive loading of an encrypted package', () => {
  let server: TestServer & { dir: string }
  let sealed: Uint8Array
  beforeAll(async () => {
    sealed = await encryptPackage(plain, key)
    const tampered = sealed.slice()
    const [a] = innerChunks('story/0004-tower.sty')[0]!
    tampered[a + 100]! ^= 1
    server = await staticServer({ 's.spkg.enc': sealed, 't.spkg.enc': tampered })
  })
  afterAll(() => server.close())

  it('fetches only the chunks the open needs; a deferred part is fetched, decrypted and verified on demand', async () => {
    // Every part has a chunk of their own, so the server's log shows which were fetched.
    expect(Object.keys(parts).map((p) => innerChunks(p).length > 0)).toEqual([true, true, true, true, true])
    server.log.length = 0
    const r = await openPackageUrl(`${server.base}/s.spkg.enc`, { decryptionKey: key })
    if (!r.ok) throw new Error(JSON.stringify(r.diagnostics))
    expect(isProgressivePackage(r.package)).toBe(true)
    const pkg = r.package as ProgressivePackage
    expect(pkg.manifest?.title).toBe('Sealed and progressive')
    expect(partsFetched(server.log, sealed.length)).toEqual(['story/0001-inn.sty', 'story/0002-cellar.sty'])
    expect([...pkg.loadedParts].sort()).toEqual(['story/0001-inn.sty', 'story/0002-cellar.sty'])
    const events: PartLoadEvent[] = []
    pkg.onPartLoad((e) => events.push(e))
    expect(await pkg.storySource().readPart('story/0003-forest.sty')).toBe(parts['story/0003-forest.sty'])
    expect(events.map((e) => e.type)).toEqual(['part-loading', 'part-loaded'])
    expect(partsFetched(server.log, sealed.length)).toEqual([
      'story/0001-inn.sty',
      'story/0002-cellar.sty',
      'story/0003-forest.sty',
    ])
    pkg.close()
  })

  it('a tampered chunk of a deferred part fails that part with pkg/decrypt-failed, not the open', async () => {
    const r = await openPackageUrl(`${server.base}/t.spkg.enc`, { decryptionKey: key })
    if (!r.ok) throw new Error(JSON.stringify(r.diagnostics))
    const pkg = r.package as ProgressivePackage
    await expect(pkg.readText('story/0004-tower.sty')).rejects.toMatchObject({ code: 'pkg/decrypt-failed' })
    expect(pkg.loadedParts.has('story/0004-tower.sty')).toBe(false)
    expect(await pkg.readText('story/0005-end.sty')).toBe(parts['story/0005-end.sty'])
    pkg.close()
  })

  it('without the key or with a wrong one: the local open diagnostics', async () => {
    const codes = async (k?: Uint8Array) => {
      const r = await openPackageUrl(`${server.base}/s.spkg.enc`, { decryptionKey: k })
      return r.ok ? [] : r.diagnostics.map((d) => d.code)
    }
    expect(await codes()).toEqual(['pkg/key-required'])
    expect(await codes(generateEncryptionKey())).toEqual(['pkg/decrypt-failed'])
  })
})
