/**
 * `loading: 'progressive'` over a real range server (`@fastify/static`): the open fetches the
 * entry part, the preloaded parts, the manifest and META-PKG/, and the server's log shows that
 * the other parts' data was never requested until the story needed them.
 */
import { buildArchive, buildPackage, packageFiles } from '@spkg/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { entryDataSpans } from '../../test/helpers/entry-data-spans'
import { innParts, prose } from '../../test/helpers/inn-story'
import { staticServer, type TestServer } from '../../test/helpers/range-servers'
import {
  createMemoryCacheDriver,
  createPackageCache,
  openCachedPackage,
  openPackage,
  openPackageUrl,
} from '../node'
import { isProgressivePackage, type PartLoadEvent, type ProgressivePackage } from './progressive'

const parts = innParts(60_000)
const manifest = {
  title: 'Progressive',
  loading: 'progressive',
  preload: ['story/0002-cellar.sty'],
  locked: ['story/0004-tower.sty'],
}
const progressive = buildPackage({ manifest, parts, integrity: true })
const tamperedFiles = packageFiles({ manifest, parts, integrity: true })
tamperedFiles.set('story/0003-forest.sty', new TextEncoder().encode(`Tampered.\n${prose(9, 60_000)}`))
const tampered = buildArchive(Object.fromEntries(tamperedFiles))

/**
 * The parts whose data any logged range overlapped, but the first request's: that one asks for the
 * archive's last 64 KiB (the directory), whatever lies there (asserted in the first test).
 */
function partsRequested(log: TestServer['log'], bytes: Uint8Array): string[] {
  const spans = entryDataSpans(bytes)
  const hit = new Set<string>()
  for (const { range } of log) {
    const m = /^bytes=(\d+)-(\d+)$/.exec(range ?? '')
    if (!m) continue
    const [s, e] = [Number(m[1]), Number(m[2]) + 1]
    for (const [name, [a, b]] of spans) {
      // Only the data counts: fetching a local header (and up to 64 bytes past it) is not fetching the part.
      if (name.endsWith('.sty') && s < b && e > a + 64) hit.add(name)
    }
  }
  return [...hit].sort()
}

describe('progressive loading', () => {
  let server: TestServer & { dir: string }
  beforeAll(async () => {
    server = await staticServer({ 'p.spkg': progressive, 't.spkg': tampered })
  })
  afterAll(() => server.close())

  const open = async (name: string) => {
    server.log.length = 0
    const r = await openPackageUrl(`${server.base}/${name}`)
    if (!r.ok) throw new Error(JSON.stringify(r.diagnostics))
    expect(isProgressivePackage(r.package)).toBe(true)
    return r.package as ProgressivePackage
  }

  it('opens with the entry and preload parts only; the others are fetched on demand and verified', async () => {
    const pkg = await open('p.spkg')
    expect(server.log[0]!.range).toBe('bytes=-65536')
    expect(server.log.slice(1).every((q) => q.ifRange)).toBe(true)
    expect(partsRequested(server.log, progressive)).toEqual(['story/0001-inn.sty', 'story/0002-cellar.sty'])
    // Parts 3 to 5 were never downloaded: all the open transferred is well under half the archive.
    expect(server.log.length).toBeGreaterThan(2)
    expect([...pkg.loadedParts].sort()).toEqual(['story/0001-inn.sty', 'story/0002-cellar.sty'])
    const events: PartLoadEvent[] = []
    pkg.onPartLoad((e) => events.push(e))
    // The engine's source waits for a part that is not there yet.
    const source = pkg.storySource()
    expect(await source.readPart('story/0003-forest.sty')).toBe(parts['story/0003-forest.sty'])
    expect(events.map((e) => `${e.type} ${e.part}`)).toEqual([
      'part-loading story/0003-forest.sty',
      'part-loaded story/0003-forest.sty',
    ])
    expect(events[1]!.bytes).toBeGreaterThan(10_000)
    expect(partsRequested(server.log, progressive)).toEqual([
      'story/0001-inn.sty',
      'story/0002-cellar.sty',
      'story/0003-forest.sty',
    ])
    pkg.close()
  })

  it('prefetches the next part past 80% of the current one, never a locked one before unlock', async () => {
    const pkg = await open('p.spkg')
    const loaded = new Promise<PartLoadEvent>((resolve) =>
      pkg.onPartLoad((e) => e.type === 'part-loaded' && resolve(e)),
    )
    pkg.progress('story/0002-cellar.sty', 0.79)
    expect(partsRequested(server.log, progressive)).not.toContain('story/0003-forest.sty')
    pkg.progress('story/0002-cellar.sty', 0.8)
    expect((await loaded).part).toBe('story/0003-forest.sty')
    // The tower is locked: past 80% of the forest nothing is fetched, and asking for it is refused.
    pkg.progress('story/0003-forest.sty', 0.95)
    await expect(pkg.loadPart('story/0004-tower.sty')).rejects.toThrow(/locked/)
    expect(partsRequested(server.log, progressive)).not.toContain('story/0004-tower.sty')
    pkg.unlock('story/0004-tower.sty')
    expect(await pkg.readText('story/0004-tower.sty')).toBe(parts['story/0004-tower.sty'])
    expect(partsRequested(server.log, progressive)).not.toContain('story/0005-end.sty')
    pkg.close()
  })

  it('prefetches the parts a gate or link names, rather than the next in order', async () => {
    const gated = buildPackage({
      manifest: { title: 'Gated', loading: 'progressive' },
      parts: {
        ...parts,
        'story/0001-inn.sty': `${parts['story/0001-inn.sty']}\nGo [to the end > 0005-end.sty].\n`,
      },
      integrity: true,
    })
    const s = await staticServer({ 'g.spkg': gated })
    try {
      const r = await openPackageUrl(`${s.base}/g.spkg`)
      const pkg = r.ok ? (r.package as ProgressivePackage) : undefined
      const loaded = new Promise<PartLoadEvent>((resolve) =>
        pkg!.onPartLoad((e) => e.type === 'part-loaded' && resolve(e)),
      )
      pkg!.progress('story/0001-inn.sty', 0.9)
      expect((await loaded).part).toBe('story/0005-end.sty')
      expect(pkg!.loadedParts.has('story/0002-cellar.sty')).toBe(false)
      pkg!.close()
    } finally {
      await s.close()
    }
  })

  it('a deferred part that does not match integrity is pkg/integrity-mismatch, and never handed out', async () => {
    // Opened locally, the same bytes are refused at once.
    const local = await openPackage(tampered)
    expect(local.diagnostics.map((d) => d.code)).toContain('pkg/integrity-mismatch')
    const pkg = await open('t.spkg')
    const failed: PartLoadEvent[] = []
    pkg.onPartLoad((e) => e.type === 'part-failed' && failed.push(e))
    await expect(pkg.readText('story/0003-forest.sty')).rejects.toMatchObject({
      code: 'pkg/integrity-mismatch',
    })
    expect(failed.map((e) => e.diagnostic?.code)).toEqual(['pkg/integrity-mismatch'])
    expect(pkg.loadedParts.has('story/0003-forest.sty')).toBe(false)
    pkg.close()
  })

  it('offline: true with a cache: the rest downloads in the background, then plays from the cache', async () => {
    const offline = buildPackage({
      manifest: { ...manifest, locked: [], version: '1.0.0', offline: true },
      parts,
      integrity: true,
    })
    const s = await staticServer({ 'o.spkg': offline })
    try {
      const cache = createPackageCache(createMemoryCacheDriver())
      const r = await openPackageUrl(`${s.base}/o.spkg`, { cache })
      const pkg = r.ok ? (r.package as ProgressivePackage) : undefined
      expect(pkg?.offlineReady).toBeDefined()
      const saved = await pkg!.offlineReady
      expect(saved?.files.length).toBe(Object.keys(parts).length + 1)
      expect([...pkg!.loadedParts].sort()).toEqual(Object.keys(parts).sort())
      pkg!.close()
      await s.close()
      // The server is gone: the cached version opens through every check.
      const cached = await openCachedPackage(cache, saved!.ref)
      expect(cached.ok && (await cached.package.readText('story/0004-tower.sty'))).toBe(
        parts['story/0004-tower.sty'],
      )
    } finally {
      await s.close().catch(() => {})
    }
  })

  it('a package without loading: progressive is read whole, over ranges', async () => {
    const plain = buildPackage({ manifest: { title: 'Plain' }, parts, integrity: true })
    const s = await staticServer({ 'plain.spkg': plain })
    try {
      const r = await openPackageUrl(`${s.base}/plain.spkg`)
      expect(r.ok && isProgressivePackage(r.package)).toBe(false)
      expect(r.ok && (await r.package.readText('story/0005-end.sty'))).toBe(parts['story/0005-end.sty'])
      // Every part but the last, which the first request (the last 64 KiB) brought.
      expect(partsRequested(s.log, plain)).toEqual(Object.keys(parts).sort().slice(0, 4))
    } finally {
      await s.close()
    }
  })
})
