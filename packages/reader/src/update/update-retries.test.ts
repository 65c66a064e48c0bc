/**
 * `updatePackage` against unreliable servers (real HTTP on 127.0.0.1): answers of 503, and a
 * request that stalls, are retried as the SPEC's client rules say (after 1 s, then 2 s; the waits
 * are recorded, not slept), and the update completes; a server that keeps failing leaves the old
 * version intact and playable.
 */
import { buildPackage } from '@spkg/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { answerRange, handServer, type TestServer } from '../../test/helpers/range-servers'
import { createPackageCache } from '../cache/create-package-cache'
import { createMemoryCacheDriver } from '../cache/memory-driver'
import { openCachedPackage, openPackage, savePackageOffline, updatePackage } from '../node'
import type { Sleeper } from '../remote/range-source'

const ID = 'the-inn'
/** 300 KB that do not compress: the archive is larger than one quick look reads whole. */
const NOISE = (() => {
  let x = 2463534242
  return new Uint8Array(300_000).map(() => {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    return x & 255
  })
})()
const spec = (version: string, third: string) => ({
  manifest: { id: ID, version },
  parts: {
    'story/0001-inn.sty': 'You push the door.\n',
    'story/0002-cellar.sty': 'The cellar.\n',
    'story/0003-forest.sty': third,
  },
  assets: { 'assets/map.png': NOISE },
  integrity: true,
})
const V1 = buildPackage(spec('1.0.0', 'The forest.\n'))
const V2 = buildPackage(spec('1.1.0', 'The forest has changed.\n'))
const TIMEOUT = 300

/** Backoff waits recorded and skipped; a request's timeout runs in real time (300 ms). */
function sleeper(): Sleeper & { waits: number[] } {
  const waits: number[] = []
  const sleep = (ms: number, signal?: AbortSignal) => {
    if (ms !== TIMEOUT) {
      waits.push(ms)
      return Promise.resolve()
    }
    return new Promise<void>((resolve, reject) => {
      const t = setTimeout(resolve, ms)
      signal?.addEventListener('abort', () => {
        clearTimeout(t)
        reject(signal.reason)
      })
    })
  }
  return Object.assign(sleep, { waits })
}

async function installed() {
  const cache = createPackageCache(createMemoryCacheDriver())
  const opened = await openPackage(V1)
  if (!opened.ok) throw new Error(JSON.stringify(opened.diagnostics))
  await savePackageOffline(cache, opened.package)
  return cache
}

/** Which requests (1-based, after the first) fail, and how. */
let plan: Map<number, '503' | 'stall'>
let server: TestServer
beforeAll(async () => {
  server = await handServer((req, res, n) => {
    const fault = plan.get(n)
    if (fault === '503') return void res.writeHead(503, { 'retry-after': '1' }).end()
    if (fault === 'stall') return // never answers: the client's timeout ends it
    answerRange(req, res, V2, '"v2"')
  })
})
afterAll(() => server?.close())

describe('updatePackage retries', () => {
  it('two 503 answers, then the update completes (waits of 1 s and 2 s)', async () => {
    const cache = await installed()
    plan = new Map([
      [2, '503'],
      [3, '503'],
    ])
    server.log.length = 0
    const sleep = sleeper()
    const r = await updatePackage({ cache, id: ID }, `${server.base}/p.spkg`, { sleep, timeout: TIMEOUT })
    if (!r.ok) throw new Error(JSON.stringify(r.diagnostics))
    expect(r).toMatchObject({ mode: 'delta', to: { version: '1.1.0' } })
    expect(r.downloaded.sort()).toEqual(['manifest.json', 'story/0003-forest.sty'])
    expect(sleep.waits).toEqual([1000, 2000])
    expect(r.requests).toBe(server.log.length)
    const opened = await openCachedPackage(cache, { id: ID, version: '1.1.0' })
    expect(opened.ok && (await opened.package.readText('story/0003-forest.sty'))).toBe(
      'The forest has changed.\n',
    )
  })

  it('a request that stalls times out and is retried; the update completes', async () => {
    const cache = await installed()
    plan = new Map([[2, 'stall']])
    server.log.length = 0
    const sleep = sleeper()
    const r = await updatePackage({ cache, id: ID }, `${server.base}/p.spkg`, { sleep, timeout: TIMEOUT })
    if (!r.ok) throw new Error(JSON.stringify(r.diagnostics))
    expect(r.mode).toBe('delta')
    expect(sleep.waits).toEqual([1000])
    expect(await cache.versions(ID)).toEqual([{ id: ID, version: '1.1.0', complete: true }])
  })

  it('a server that keeps answering 503: pkg/fetch-failed, the old version intact and playable', async () => {
    const cache = await installed()
    plan = new Map(Array.from({ length: 20 }, (_, i) => [i + 2, '503'] as const))
    const sleep = sleeper()
    const r = await updatePackage({ cache, id: ID }, `${server.base}/p.spkg`, { sleep, timeout: TIMEOUT })
    expect(r.ok).toBe(false)
    expect(r.diagnostics.map((d) => d.code)).toContain('pkg/fetch-failed')
    expect(sleep.waits.slice(0, 2)).toEqual([1000, 2000])
    expect(await cache.versions(ID)).toEqual([{ id: ID, version: '1.0.0', complete: true }])
    const old = await openCachedPackage(cache, { id: ID, version: '1.0.0' })
    expect(old.ok && (await old.package.readText('story/0003-forest.sty'))).toBe('The forest.\n')
  })
})
