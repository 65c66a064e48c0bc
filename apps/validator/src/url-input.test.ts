/**
 * `spkg inspect|validate|play <url>`: a package file on a web server (here a range server on
 * 127.0.0.1), read as the reader reads it.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { buildPackage } from '@spkg/test-utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../test/helpers/cli'
import { freshDir } from '../test/helpers/tree'

// Noise that does not compress: the package is larger than the reader's first range request.
let seed = 7
const noise = new Uint8Array(200_000).map(() => {
  seed ^= seed << 13
  seed ^= seed >>> 17
  seed ^= seed << 5
  return seed & 255
})
const plain = buildPackage({
  manifest: { title: 'Over the wire' },
  parts: { 'story/0001-start.sty': 'The door creaks open.\n' },
  assets: { 'assets/noise.png': noise },
  integrity: true,
})
const letters = (n: number) =>
  Array.from({ length: n }, (_, i) => String.fromCharCode(97 + (noise[i]! % 26))).join('')
const progressive = buildPackage({
  manifest: { title: 'Step by step', loading: 'progressive' },
  parts: {
    'story/0001-start.sty': `The door creaks open.\n\n${letters(60_000)}\n\n[[ 0002-next.sty ]]\n`,
    'story/0002-next.sty': `The hall is dark.\n\n${letters(50_000)}\n`,
  },
  assets: { 'assets/noise.png': noise },
  integrity: true,
})
const ranges: string[] = []
let server: Server
let base: string
let published = 0

beforeAll(async () => {
  server = createServer((req, res) => {
    const changing = req.url === '/changing.spkg'
    const pkg =
      req.url === '/inn.spkg' || changing ? plain : req.url === '/step.spkg' ? progressive : undefined
    if (!pkg) return void res.writeHead(404).end()
    ranges.push(req.headers.range ?? '')
    // /changing.spkg is republished between any two requests.
    const etag = changing ? `"v${++published}"` : '"v1"'
    const m = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '')
    if (!m || (req.headers['if-range'] && req.headers['if-range'] !== etag))
      return void res.writeHead(200, { etag }).end(pkg)
    const start = m[1] ? Number(m[1]) : Math.max(0, pkg.length - Number(m[2]))
    const end = m[1] && m[2] ? Math.min(Number(m[2]), pkg.length - 1) : pkg.length - 1
    res
      .writeHead(206, { etag, 'content-range': `bytes ${start}-${end}/${pkg.length}` })
      .end(pkg.subarray(start, end + 1))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

describe('a package URL', () => {
  it('inspect and validate read it over ranges', async () => {
    ranges.length = 0
    const r = await runCli(['inspect', `${base}/inn.spkg`], { cwd: freshDir() })
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('Over the wire')
    expect(ranges[0]).toBe('bytes=-65536')
    expect(ranges.slice(1).every((x) => /^bytes=\d+-\d+$/.test(x))).toBe(true)
    const v = await runCli(['validate', `${base}/inn.spkg`], { cwd: freshDir() })
    expect(v.code).toBe(0)
  })

  it('play --format json reports the load with the bytes fetched', async () => {
    const r = await runCli(['play', `${base}/inn.spkg`, '--format', 'json'], { cwd: freshDir() })
    expect(r.code).toBe(0)
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(events[0]).toEqual({ type: 'part-loading', part: null, url: `${base}/inn.spkg` })
    expect(events[1]).toMatchObject({ type: 'part-loaded', part: 'story/0001-start.sty' })
    expect(events[1].bytes).toBeGreaterThanOrEqual(plain.length)
    expect(r.stdout).toContain('The door creaks open.')
  })

  it('play --format json of a progressive package: each part loads when the story reaches it', async () => {
    const r = await runCli(['play', `${base}/step.spkg`, '--format', 'json'], { cwd: freshDir() })
    expect(r.code).toBe(0)
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(events[1]).toMatchObject({
      type: 'part-loaded',
      part: 'story/0001-start.sty',
      loaded: ['story/0001-start.sty'],
    })
    expect(events[1].bytes).toBeLessThan(progressive.length - 30_000)
    const loads = events.filter((e) => e.type === 'part-loading' || e.type === 'part-loaded').slice(2)
    expect(loads.map((e) => `${e.type} ${e.part}`)).toEqual([
      'part-loading story/0002-next.sty',
      'part-loaded story/0002-next.sty',
    ])
    expect(loads[1].bytes).toBeGreaterThan(30_000)
    const texts = events.filter((e) => e.type === 'block').map((e) => e.block?.text ?? e.text)
    expect(JSON.stringify(texts)).toContain('The hall is dark.')
  })

  it('a missing file is an I/O error; http:// is for loopback hosts only, named without credentials', async () => {
    const missing = await runCli(['validate', `${base}/nope.spkg`], { cwd: freshDir() })
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('404')
    const plain = await runCli(['validate', 'http://me:secret@example.org/inn.spkg?sig=abc'], {
      cwd: freshDir(),
    })
    expect(plain.code).toBe(2)
    expect(plain.stderr).toContain('must be https://')
    expect(plain.stderr).not.toMatch(/secret|sig=abc/)
  })

  it('--format json prints the result with its code when the input cannot be read, and exits 2', async () => {
    const cwd = freshDir()
    // A port nothing listens on: a closed server's.
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const gone = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/inn.spkg`
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const cases: Array<[string, string]> = [
      ['missing.spkg', 'pkg/fetch-failed'],
      [gone, 'pkg/fetch-failed'],
      [`${base}/nope.spkg`, 'pkg/fetch-failed'],
      ['http://example.org/inn.spkg', 'pkg/fetch-failed'],
      [`${base}/changing.spkg`, 'pkg/remote-changed'],
    ]
    for (const [input, code] of cases) {
      const v = await runCli(['validate', input, '--format', 'json'], { cwd })
      expect([input, v.code]).toEqual([input, 2])
      expect(v.stderr).toMatch(/^spkg validate: cannot read /)
      const report = JSON.parse(v.stdout)
      expect(report).toMatchObject({ loads: false, valid: false, layout: null, manifest: null })
      expect(report.diagnostics).toEqual([
        expect.objectContaining({ code, severity: 'fatal', path: null, message: v.stderr.slice(15).trim() }),
      ])
      const p = await runCli(['play', input, '--format', 'json'], { cwd })
      expect([input, p.code]).toEqual([input, 2])
      expect(p.stderr).toMatch(/^spkg play: cannot read /)
      const events = p.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l))
        .filter((e) => e.type !== 'part-loading')
      expect(events).toEqual([expect.objectContaining({ type: 'diagnostic', code, severity: 'fatal' })])
    }
    // In text the stderr line is all, as before.
    const text = await runCli(['validate', 'missing.spkg'], { cwd })
    expect([text.code, text.stdout]).toEqual([2, ''])
  })
})
