import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { buildPackage } from '@spkg/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fakeSleeper } from '../../test/helpers/range-servers'
import { type OpenUrlOptions, openPackageUrl as openUrl } from '../index'

// Refused connections are retried (after 1 s and 2 s): on fake time here.
const openPackageUrl = (url: string | URL, options: OpenUrlOptions = {}) =>
  openUrl(url, { sleep: fakeSleeper(30_000), timeout: 30_000, ...options })

let server: Server
let base: string
const pkg = buildPackage({ manifest: { title: 'Remote' } })

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/inn.spkg') res.writeHead(200, { 'content-type': 'application/zip' }).end(pkg)
    else if (req.url === '/huge-declared')
      res.writeHead(200, { 'content-length': String(200 * 2 ** 20) }).end()
    else if (req.url === '/huge-stream') {
      res.writeHead(200) // chunked: no length declared
      const chunk = new Uint8Array(2 ** 20)
      let sent = 0
      const pump = () => {
        while (sent < 100 && res.write(chunk)) sent++
        if (sent < 100) res.once('drain', pump)
        else res.end()
      }
      res.on('error', () => {})
      pump()
    } else res.writeHead(404).end('no')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

describe('openPackageUrl', () => {
  it('downloads and opens a package', async () => {
    const r = await openPackageUrl(`${base}/inn.spkg`)
    expect(r.ok && r.package.manifest?.title).toBe('Remote')
  })

  it('reports a failed status or connection as pkg/fetch-failed', async () => {
    const r = await openPackageUrl(`${base}/missing.spkg`)
    expect(r.diagnostics.map((d) => d.code)).toEqual(['pkg/fetch-failed'])
    expect(r.diagnostics[0]!.message).toContain('404')
    const closed = await openPackageUrl('http://127.0.0.1:1/x.spkg')
    expect(closed.diagnostics.map((d) => d.code)).toEqual(['pkg/fetch-failed'])
  })

  it('names the URL in pkg/fetch-failed, without credentials, query or fragment', async () => {
    const status = await openPackageUrl(`${base}/stories/the-inn.spkg?token=s3cr3t#chapter-2`)
    expect(status.diagnostics).toMatchObject([
      {
        code: 'pkg/fetch-failed',
        message: `The package "${base}/stories/the-inn.spkg" could not be downloaded: the server answered 404.`,
      },
    ])
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const refused = await openPackageUrl(`http://127.0.0.1:${port}/x.spkg?sig=s3cr3t`)
    expect(refused.diagnostics[0]!.message).toBe(
      `The package "http://127.0.0.1:${port}/x.spkg" could not be downloaded: fetch failed (ECONNREFUSED).`,
    )
    // fetch's own messages repeat the URL it was given: credentials and all.
    for (const url of [
      'http://reader:s3cr3t@127.0.0.1:1/x.spkg',
      new URL('http://reader:s3cr3t@127.0.0.1:1/x.spkg?sig=s3cr3t'),
      'http://bad host/x.spkg?sig=s3cr3t',
    ]) {
      const r = await openPackageUrl(url)
      expect(r.diagnostics.map((d) => d.code)).toEqual(['pkg/fetch-failed'])
      expect(r.diagnostics[0]!.message).not.toMatch(/s3cr3t|reader/)
      expect(r.diagnostics[0]!.message).toMatch(
        /^The package "http:\/\/(127\.0\.0\.1:1|bad host)\/x\.spkg" could not/,
      )
    }
  })

  it('refuses a body larger than any package, declared or streamed', async () => {
    const limits = { maxUncompressedBytes: 1000 }
    for (const path of ['/huge-declared', '/huge-stream']) {
      const r = await openPackageUrl(`${base}${path}`, { limits })
      expect(r.diagnostics.map((d) => d.code)).toEqual(['pkg/too-large'])
    }
  })
})
