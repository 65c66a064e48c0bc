import { createHash, randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import {
  createFolderCacheDriver,
  createPackageCache,
  openPackage,
  savePackageOffline,
} from '@spkg/reader/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  answerRange,
  handServer,
  type TestServer,
} from '../../../../packages/reader/test/helpers/range-servers'
import { runCli } from '../../test/helpers/cli'
import { freshDir } from '../../test/helpers/tree'
import { writeZip } from '../pack/write-zip'

const enc = new TextEncoder()
const MEDIA = Array.from({ length: 6 }, () => new Uint8Array(randomBytes(50_000)))

/** A package of one part and six 50 KB media files; `changed` replaces one of them. */
function build(version: string, changed?: number): Uint8Array {
  const files = new Map<string, Uint8Array>([['story/0001-inn.sty', enc.encode('You push the door.\n')]])
  for (const [i, m] of MEDIA.entries())
    files.set(`assets/${i}.png`, i === changed ? new Uint8Array(randomBytes(50_000)) : m)
  const integrity = Object.fromEntries(
    [...files].map(([p, b]) => [p, createHash('sha256').update(b).digest('hex')]),
  )
  const manifest = { id: 'the-inn', version, parts: ['story/0001-inn.sty'], integrity }
  const all = [['manifest.json', enc.encode(JSON.stringify(manifest))] as const, ...files]
  return writeZip(all.map(([path, data]) => ({ path, data, method: 0 as const }))).bytes
}

/** Serves `served` with real range support (206, Content-Range, ETag, If-Range). */
const served = new Map<string, Uint8Array>()
let server: TestServer
let base: string
beforeAll(async () => {
  server = await handServer((req, res) => {
    const bytes = served.get(req.url ?? '')
    if (!bytes) return void res.writeHead(404).end()
    answerRange(req, res, bytes, `"${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}"`)
  })
  base = server.base
})
afterAll(() => server?.close())

describe('spkg update', () => {
  it('installs into an empty cache, then fetches only the changed file (text and JSON)', async () => {
    const cwd = freshDir()
    served.set('/v1.spkg', build('1.0.0'))
    served.set('/v2.spkg', build('1.1.0', 4))
    const first = await runCli(['update', 'cache', `${base}/v1.spkg`], { cwd })
    expect(first.stdout).toMatch(/^updated the-inn 1\.0\.0 \(whole download\)\n/)
    expect(first.code).toBe(0)
    const second = await runCli(['update', 'cache', `${base}/v2.spkg`, '--format', 'json'], { cwd })
    expect(second.code).toBe(0)
    const report = JSON.parse(second.stdout)
    expect(report).toMatchObject({
      ok: true,
      mode: 'delta',
      from: { version: '1.0.0' },
      to: { version: '1.1.0' },
    })
    expect(report.downloaded).toEqual(['manifest.json', 'assets/4.png'])
    expect(report.reused).toHaveLength(6)
    expect(report.bytesFetched).toBeLessThan(report.archiveBytes * 0.7)
    const again = await runCli(['update', 'cache', `${base}/v2.spkg`], { cwd })
    expect(again.stdout).toMatch(/^the-inn 1\.1\.0 is already current\nfetched \d+ of \d+ bytes/)
    // The cache holds exactly the new version, complete.
    const cache = createPackageCache(createFolderCacheDriver(join(cwd, 'cache')))
    expect(await cache.versions('the-inn')).toEqual([{ id: 'the-inn', version: '1.1.0', complete: true }])
  })

  it('prints the delta in text', async () => {
    const cwd = freshDir()
    const cache = createPackageCache(createFolderCacheDriver(join(cwd, 'cache')))
    const opened = await openPackage(build('1.0.0'))
    if (!opened.ok) throw new Error('fixture should open')
    await savePackageOffline(cache, opened.package)
    served.set('/v3.spkg', build('3.0.0', 1))
    const r = await runCli(['update', 'cache', `${base}/v3.spkg`, '--keep-old'], { cwd })
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(
      /^updated the-inn 1\.0\.0 -> 3\.0\.0 \(delta\)\nfetched \d+ of \d+ bytes \([\d.]+%\) in \d+ requests\ndownloaded 2 files: manifest\.json, assets\/1\.png\nreused 6 files, removed 0\n$/,
    )
    expect((await cache.versions('the-inn')).map((v) => v.version)).toEqual(['1.0.0', '3.0.0'])
  })

  it('refuses a non-loopback http URL, a wrong id, and a missing package', async () => {
    const cwd = freshDir()
    const insecure = await runCli(['update', 'cache', 'http://example.org/x.spkg'], { cwd })
    expect(insecure.code).toBe(2)
    expect(insecure.stderr).toContain('only https:// URLs')
    served.set('/v1.spkg', build('1.0.0'))
    const wrong = await runCli(['update', 'cache', `${base}/v1.spkg`, '--id', 'other'], { cwd })
    expect(wrong.code).toBe(1)
    expect(wrong.stdout).toContain('pkg/cache-failed')
    const missing = await runCli(['update', 'cache', `${base}/nothing.spkg`, '-f', 'json'], { cwd })
    expect(missing.code).toBe(1)
    expect(JSON.parse(missing.stdout).diagnostics[0].code).toBe('pkg/fetch-failed')
  })

  it('has help', async () => {
    const r = await runCli(['update', '--help'])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('update <cache-folder> <url>')
    expect(await readFile(join(import.meta.dirname, 'update.ts'), 'utf8')).toContain('--keep-old')
  })
})
