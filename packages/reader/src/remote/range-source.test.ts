import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  answerRange,
  fakeSleeper,
  handServersOfBlock,
  staticServer,
  type TestServer,
} from '../../test/helpers/range-servers'
import { createRangeSource, parseContentRange } from './range-source'

const file = new Uint8Array(300_000)
for (let i = 0; i < file.length; i++) file[i] = (i * 7 + (i >> 8)) & 255
const maxBytes = 1 << 20
const TIMEOUT = 5000

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { code?: string; message?: string }) => `${e.code}: ${e.message}`,
  )

describe('createRangeSource against @fastify/static', () => {
  let server: TestServer & { dir: string }
  beforeAll(async () => {
    server = await staticServer({ 'a.bin': file, 'b.bin': file.slice(0, 1000) })
  })
  afterAll(() => server.close())

  it('learns size and ETag from one small suffix request, then reads ranges with If-Range', async () => {
    server.log.length = 0
    const source = await createRangeSource(`${server.base}/a.bin`, { maxBytes, probeBytes: 1000 })
    expect(source).toMatchObject({ size: file.length, ranged: true, bytesFetched: 1000, requests: 1 })
    expect(source.validator).toBeTruthy() // send's ETags are weak: its Last-Modified
    expect(server.log).toEqual([{ url: '/a.bin', range: 'bytes=-1000' }])
    expect(await source.read(299_500, 500)).toEqual(file.subarray(299_500)) // from the tail: no request
    expect(source.requests).toBe(1)
    expect(await source.read(10, 100)).toEqual(file.subarray(10, 110))
    expect(server.log[1]).toEqual({ url: '/a.bin', range: 'bytes=10-109', ifRange: source.validator })
    // Straddling the tail: only the part before it is requested.
    expect(await source.read(298_000, 1500)).toEqual(file.subarray(298_000, 299_500))
    expect(server.log[2]!.range).toBe('bytes=298000-298999')
  })

  it('coalesces adjacent ranges into one request and keeps the caller order', async () => {
    const source = await createRangeSource(`${server.base}/a.bin`, { maxBytes, probeBytes: 100 })
    server.log.length = 0
    const got = await source.readMany([
      { offset: 200, length: 100 },
      { offset: 100, length: 100 },
      { offset: 5000, length: 10 },
      { offset: 150, length: 20 },
    ])
    expect(got).toEqual([
      file.subarray(200, 300),
      file.subarray(100, 200),
      file.subarray(5000, 5010),
      file.subarray(150, 170),
    ])
    expect(server.log.map((r) => r.range).sort()).toEqual(['bytes=100-299', 'bytes=5000-5009'])
  })

  it('reads the whole file in bounded parallel chunks', async () => {
    const source = await createRangeSource(`${server.base}/a.bin`, { maxBytes, concurrency: 2 })
    expect(await source.readAll(50_000)).toEqual(file)
    expect(source.bytesFetched).toBe(file.length)
  })

  it('a file smaller than the probe is read whole', async () => {
    const source = await createRangeSource(`${server.base}/b.bin`, { maxBytes })
    expect(source.size).toBe(1000)
    expect(await source.readAll()).toEqual(file.subarray(0, 1000))
    // send (under @fastify/static) answers 416 to a suffix longer than the file: one plain GET follows.
    expect(source.requests).toBe(2)
    expect(source.ranged).toBe(false)
  })

  it('a file replaced on disk between reads is pkg/remote-changed, never mixed', async () => {
    const source = await createRangeSource(`${server.base}/a.bin`, { maxBytes, probeBytes: 100 })
    const other = file.map((b) => b ^ 0xff)
    writeFileSync(join(server.dir, 'a.bin'), other.subarray(0, 299_000))
    expect(await codeOf(source.read(0, 10))).toMatch(/^pkg\/remote-changed: /)
  })

  it('refuses a file larger than the bound from its Content-Range, and a missing file', async () => {
    expect(await codeOf(createRangeSource(`${server.base}/b.bin`, { maxBytes: 999 }))).toMatch(
      /^pkg\/too-large/,
    )
    expect(await codeOf(createRangeSource(`${server.base}/nope.bin`, { maxBytes }))).toMatch(
      /^pkg\/fetch-failed: .*answered 404/,
    )
  })
})

describe('createRangeSource against servers that misbehave', () => {
  const start = handServersOfBlock()

  it('a server that ignores ranges: one whole, bounded download', async () => {
    const s = await start((_req, res) => res.writeHead(200, { etag: '"x"' }).end(file))
    const source = await createRangeSource(`${s.base}/f`, { maxBytes })
    expect(source).toMatchObject({ ranged: false, size: file.length, requests: 1 })
    expect(await source.read(5, 5)).toEqual(file.subarray(5, 10))
    expect(await codeOf(createRangeSource(`${s.base}/f`, { maxBytes: 1000 }))).toMatch(/^pkg\/too-large/)
  })

  it('a 206 without a validator falls back to one whole download', async () => {
    const s = await start((req, res) => {
      if (req.headers.range) {
        res.writeHead(206, { 'content-range': `bytes ${file.length - 10}-${file.length - 1}/${file.length}` })
        res.end(file.subarray(file.length - 10))
      } else res.writeHead(200).end(file)
    })
    const source = await createRangeSource(`${s.base}/f`, { maxBytes, probeBytes: 10 })
    expect(source.ranged).toBe(false)
    expect(await source.readAll()).toEqual(file)
  })

  it('a server that answers 200 to an If-Range request later is pkg/remote-changed', async () => {
    const s = await start((req, res, n) =>
      n === 1 ? answerRange(req, res, file, '"v1"') : res.writeHead(200).end(file),
    )
    const source = await createRangeSource(`${s.base}/f`, { maxBytes })
    expect(await codeOf(source.read(0, 10))).toMatch(/^pkg\/remote-changed: .*whole file/)
  })

  it('a changed ETag on a 206 is pkg/remote-changed', async () => {
    const s = await start((req, res, n) => {
      delete req.headers['if-range']
      answerRange(req, res, file, n === 1 ? '"v1"' : '"v2"')
    })
    const source = await createRangeSource(`${s.base}/f`, { maxBytes })
    expect(await codeOf(source.read(0, 10))).toMatch(/^pkg\/remote-changed: .*ETag/)
  })

  it('a wrong Content-Range is pkg/fetch-failed, at the probe and later', async () => {
    const bad = await start((_req, res) =>
      res.writeHead(206, { etag: '"e"', 'content-range': 'bytes 0-9/300000' }).end(file.subarray(0, 10)),
    )
    expect(await codeOf(createRangeSource(`${bad.base}/f`, { maxBytes }))).toMatch(
      /^pkg\/fetch-failed: .*wrong Content-Range/,
    )
    const later = await start((req, res, n) => {
      if (n === 1) return answerRange(req, res, file, '"e"')
      res
        .writeHead(206, { etag: '"e"', 'content-range': `bytes 1-10/${file.length}` })
        .end(file.subarray(1, 11))
    })
    const source = await createRangeSource(`${later.base}/f`, { maxBytes })
    expect(await codeOf(source.read(0, 10))).toMatch(/^pkg\/fetch-failed: .*wrong Content-Range "bytes 1-10/)
    expect(later.log).toHaveLength(2) // not retried
    const short = await start((req, res, n) => {
      if (n === 1) return answerRange(req, res, file, '"e"')
      res
        .writeHead(206, { etag: '"e"', 'content-range': `bytes 0-9/${file.length}` })
        .end(file.subarray(0, 5))
    })
    const s2 = await createRangeSource(`${short.base}/f`, { maxBytes })
    expect(await codeOf(s2.read(0, 10))).toMatch(/^pkg\/fetch-failed: .*another length/)
  })

  it('503 twice then success: retried after 1 s and 2 s', async () => {
    const s = await start((req, res, n) =>
      n <= 2 ? res.writeHead(503).end() : answerRange(req, res, file, '"e"'),
    )
    const sleep = fakeSleeper(TIMEOUT)
    const source = await createRangeSource(`${s.base}/f`, { maxBytes, sleep, timeout: TIMEOUT })
    expect(source.size).toBe(file.length)
    expect(sleep.waits).toEqual([1000, 2000])
    expect(s.log).toHaveLength(3)
  })

  it('a third 503 fails; a 404 is not retried', async () => {
    const s = await start((_req, res) => res.writeHead(503).end())
    const sleep = fakeSleeper(TIMEOUT)
    expect(await codeOf(createRangeSource(`${s.base}/f`, { maxBytes, sleep, timeout: TIMEOUT }))).toMatch(
      /^pkg\/fetch-failed: .*answered 503/,
    )
    expect(s.log).toHaveLength(3)
    const s404 = await start((_req, res) => res.writeHead(404).end())
    expect(await codeOf(createRangeSource(`${s404.base}/f`, { maxBytes, sleep, timeout: TIMEOUT }))).toMatch(
      /404/,
    )
    expect(s404.log).toHaveLength(1)
  })

  it('a server that stalls: each request times out, is retried twice, then pkg/fetch-failed', async () => {
    const sleep = fakeSleeper(TIMEOUT)
    const s = await start((_req, res) => {
      res.writeHead(206, { etag: '"e"', 'content-range': `bytes 0-9/10` }) // headers, then nothing
      res.flushHeaders()
      setImmediate(() => sleep.expire())
    })
    expect(await codeOf(createRangeSource(`${s.base}/f`, { maxBytes, sleep, timeout: TIMEOUT }))).toMatch(
      /^pkg\/fetch-failed: .*no complete answer within 5000 ms/,
    )
    expect(s.log).toHaveLength(3)
    expect(sleep.waits).toEqual([1000, 2000])
  })

  it('honours the signal: an abort rejects with its reason', async () => {
    const ctl = new AbortController()
    const s = await start(() => setImmediate(() => ctl.abort(new Error('stop'))))
    await expect(
      createRangeSource(`${s.base}/f`, {
        maxBytes,
        signal: ctl.signal,
        sleep: fakeSleeper(TIMEOUT),
        timeout: TIMEOUT,
      }),
    ).rejects.toThrow('stop')
  })

  it('a connection refused is retried and named without credentials', async () => {
    const sleep = fakeSleeper(TIMEOUT)
    const msg = await codeOf(
      createRangeSource('http://user:s3cr3t@127.0.0.1:1/x.spkg?t=s3cr3t', {
        maxBytes,
        sleep,
        timeout: TIMEOUT,
      }),
    )
    expect(msg).toMatch(/^pkg\/fetch-failed: The package "http:\/\/127\.0\.0\.1:1\/x\.spkg" could not/)
    expect(msg).not.toContain('s3cr3t')
    expect(sleep.waits).toEqual([1000, 2000])
  })

  it('parses only exact Content-Range values', () => {
    expect(parseContentRange('bytes 0-9/10')).toEqual({ start: 0, end: 9, total: 10 })
    for (const bad of [null, 'bytes 0-9/*', 'bytes 9-0/10', 'bytes 0-10/10', 'items 0-9/10', 'bytes -1-9/10'])
      expect(parseContentRange(bad)).toBeUndefined()
  })
})
