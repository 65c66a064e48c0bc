/**
 * `openPackageUrl` over real HTTP servers on 127.0.0.1: a hostile remote archive gets the same
 * diagnostics as the same bytes opened locally, through a real range server (`@fastify/static`)
 * and through one that ignores ranges; servers that misbehave fail cleanly with stable codes.
 */
import { buildArchive, buildPackage, deflateBomb, mutate, packageFiles } from '@spkg/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  fakeSleeper,
  handServer,
  handServersOfBlock,
  staticServer,
  type TestServer,
} from '../../test/helpers/range-servers'
import { openPackage, openPackageUrl } from '../node'

const enc = new TextEncoder()
const bigStory = 'The lamp swings above the table.\n'.repeat(20_000)
const tampered = packageFiles({ integrity: true })
tampered.set('story/0001-start.sty', enc.encode('Tampered.\n'))
// 300 KB of noise that does not compress: the package is larger than the first range request.
let seed = 1
const noise = new Uint8Array(300_000).map(() => {
  seed ^= seed << 13
  seed ^= seed >>> 17
  seed ^= seed << 5
  return seed & 255
})
const valid = buildPackage({
  manifest: { title: 'Remote' },
  parts: { 'story/0001-start.sty': bigStory, 'story/0002-next.sty': 'B\n' },
  assets: { 'assets/noise.png': noise },
  integrity: true,
})

/** Hostile (and one valid) archives, named. */
const fixtures: Record<string, Uint8Array> = {
  'valid.spkg': valid,
  'not-zip.spkg': enc.encode('just some text, not a ZIP archive at all'),
  'empty.spkg': new Uint8Array(0),
  'unsafe-path.spkg': buildArchive({ '../../etc/evil.sty': 'x' }),
  'bomb.spkg': buildArchive([
    ...[...packageFiles()].map(([name, data]) => ({ name, data })),
    { name: 'story/bomb.sty', payload: deflateBomb(80 * 2 ** 20), size: 1000, crc: 0 },
  ]),
  'bad-crc.spkg': buildPackage({ entry: { 'story/0001-start.sty': { crc: 1234 } } }),
  'integrity.spkg': buildArchive(Object.fromEntries(tampered)),
  'truncated.spkg': valid.subarray(0, valid.length - 100),
  'no-tail.spkg': valid.subarray(0, Math.floor(valid.length / 2)),
  'flipped.spkg': mutate(valid, [
    [40, 0xff, 'set'],
    [41, 0xee, 'set'],
    [valid.length - 30, 3, 'flip'],
  ]),
  'wrapped.spkg': buildArchive({ 'inn/manifest.json': '{}', 'inn/story/a.sty': 'x' }),
}

const codes = (r: { diagnostics: { code: string; severity: string; path?: string }[] }) =>
  r.diagnostics.map((d) => `${d.severity} ${d.code} ${d.path ?? ''}`)

describe('openPackageUrl gives the diagnostics of a local open', () => {
  let server: TestServer & { dir: string }
  let noRanges: TestServer
  beforeAll(async () => {
    server = await staticServer(fixtures)
    noRanges = await handServer((req, res) => {
      const bytes = fixtures[(req.url ?? '').slice(1)]
      if (!bytes) res.writeHead(404).end()
      else res.writeHead(200, { etag: '"x"' }).end(bytes)
    })
  })
  afterAll(() => Promise.all([server.close(), noRanges.close()]))

  it.each(Object.keys(fixtures))('%s, over ranges and from a server that ignores them', async (name) => {
    const local = await openPackage(fixtures[name]!)
    const ranged = await openPackageUrl(`${server.base}/${name}`)
    expect(codes(ranged)).toEqual(codes(local))
    expect(ranged.ok).toBe(local.ok)
    const whole = await openPackageUrl(`${noRanges.base}/${name}`)
    expect(codes(whole)).toEqual(codes(local))
  })

  it('reads a valid package over ranges: the tail first, then the rest in chunks', async () => {
    server.log.length = 0
    let bytes = 0
    const r = await openPackageUrl(`${server.base}/valid.spkg`, {
      onBytes: (n) => {
        bytes += n
      },
    })
    expect(r.ok && r.package.manifest?.title).toBe('Remote')
    expect(r.ok && (await r.package.readText('story/0001-start.sty'))).toBe(bigStory)
    expect(bytes).toBe(valid.length)
    expect(server.log[0]!.range).toBe('bytes=-65536')
    expect(server.log.slice(1).every((q) => q.range && q.ifRange)).toBe(true)
  })
})

describe('openPackageUrl and servers that misbehave', () => {
  const start = handServersOfBlock()
  const opts = () => ({ sleep: fakeSleeper(30_000), timeout: 30_000 })

  it('a file replaced between two requests: pkg/remote-changed, nothing of the new version used', async () => {
    const next = buildPackage({ manifest: { title: 'Other' }, assets: { 'assets/noise.png': noise } })
    const s = await start((req, res, n) => {
      const etag = n === 1 ? '"v1"' : '"v2"'
      const bytes = n === 1 ? valid : next
      if (req.headers['if-range'] && req.headers['if-range'] !== etag)
        return void res.writeHead(200, { etag }).end(bytes)
      const m = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '')!
      const from = m[1] ? Number(m[1]) : bytes.length - Number(m[2])
      const to = m[1] ? Number(m[2]) : bytes.length - 1
      res
        .writeHead(206, { etag, 'content-range': `bytes ${from}-${to}/${bytes.length}` })
        .end(bytes.subarray(from, to + 1))
    })
    const r = await openPackageUrl(`${s.base}/p.spkg`, opts())
    expect(r.ok).toBe(false)
    expect(codes(r)).toEqual(['fatal pkg/remote-changed '])
  })

  it('503 twice, then success', async () => {
    const s = await start((_req, res, n) =>
      n <= 2 ? res.writeHead(503).end() : res.writeHead(200, { etag: '"e"' }).end(valid),
    )
    const sleep = fakeSleeper(30_000)
    const r = await openPackageUrl(`${s.base}/p.spkg`, { sleep, timeout: 30_000 })
    expect(r.ok).toBe(true)
    expect(sleep.waits).toEqual([1000, 2000])
  })

  it('a wrong Content-Range and a stall are pkg/fetch-failed', async () => {
    const wrong = await start((_req, res) =>
      res
        .writeHead(206, { etag: '"e"', 'content-range': `bytes 0-99/${valid.length}` })
        .end(valid.subarray(0, 100)),
    )
    const r = await openPackageUrl(`${wrong.base}/p.spkg`, opts())
    expect(codes(r)).toEqual(['fatal pkg/fetch-failed '])
    expect(r.diagnostics[0]!.message).toContain('wrong Content-Range')
    const sleep = fakeSleeper(30_000)
    const stall = await start((_req, res) => {
      res.writeHead(200, { etag: '"e"' })
      res.write(valid.subarray(0, 10))
      setImmediate(() => sleep.expire())
    })
    const stalled = await openPackageUrl(`${stall.base}/p.spkg`, { sleep, timeout: 30_000 })
    expect(codes(stalled)).toEqual(['fatal pkg/fetch-failed '])
    expect(stalled.diagnostics[0]!.message).toContain('no complete answer within 30000 ms')
  })
})
