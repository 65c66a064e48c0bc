/**
 * `importRepository` (Node entry) against a fake repository host on 127.0.0.1 over HTTPS: the
 * API host, a download host, and a hostile host that must never receive a request.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { fetchRepositoryArchive, importRepository, type NodeRepoOptions } from '../src/node'
import type { ImportRepositoryOptions } from '../src/options'
import { answer, type FakeHost, redirectTo, sendBytes, startFakeHost } from './fake-host'
import { hasTools } from './tools'
import { gitArchiveZipball, makeZipball, patchBytes, SHA, storyRepository, WRAPPER } from './zipball'

let host: FakeHost
const TOKEN = 'ghp_sekrit-token-123'
const codes = (r: { diagnostics: { code: string }[] }) => r.diagnostics.map((d) => d.code)
const errors = (r: { diagnostics: { code: string; severity: string }[] }) =>
  r.diagnostics.filter((d) => d.severity !== 'info').map((d) => d.code)

function options(
  extra: ImportRepositoryOptions & NodeRepoOptions = {},
): ImportRepositoryOptions & NodeRepoOptions {
  return {
    repoApiHost: host.api.host,
    downloadHosts: [host.download.host],
    token: TOKEN,
    allowPrivateAddresses: true,
    ca: host.ca,
    timeoutMs: 10_000,
    ...extra,
  }
}

/** The API redirects `/repos/owner/story/zipball<suffix>` to the download host, which serves `zip`. */
function serveZipball(
  suffix: string,
  zip: Uint8Array,
  download = `/owner/story/legacy.zip${suffix || '/refs/heads/main'}`,
) {
  host.api.routes.set(
    `/repos/owner/story/zipball${suffix}`,
    redirectTo(`https://${host.download.host}${download}`),
  )
  host.download.routes.set(download, sendBytes(zip))
}

beforeAll(async () => {
  if (hasTools) host = await startFakeHost()
})
afterAll(() => host?.close())
beforeEach(() => host?.reset())

describe.skipIf(!hasTools)('importRepository loads', () => {
  it('the default branch, without the wrapper folder and the repository files, token to the API only', async () => {
    serveZipball('', makeZipball(storyRepository()))
    const r = await importRepository('https://github.com/owner/story', options())
    expect(errors(r)).toEqual([])
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(r.source).toEqual({ owner: 'owner', repo: 'story', ref: null, commit: SHA.slice(0, 7) })
    expect(r.package.manifest?.title).toBe('The Inn')
    expect(r.package.entries.map((e) => e.path).sort()).toEqual(['manifest.json', 'story/0001-inn.sty'])
    expect(await r.package.readText(r.package.entry!)).toContain('You push the door of the inn.')
    const ignored = r.diagnostics.filter((d) => d.code === 'repo/ignored-file').map((d) => d.path)
    expect(ignored.sort()).toEqual(['.github/workflows/ci.yml', '.gitignore', 'LICENSE', 'README.md'])
    expect(host.api.requests.map((q) => q.authorization)).toEqual([`Bearer ${TOKEN}`])
    expect(host.download.requests).toHaveLength(1)
    expect(host.download.requests[0]!.authorization).toBeUndefined()
    r.package.close()
  })

  it('a tag, with the full commit from the archive comment', async () => {
    serveZipball('/v1.2', makeZipball(storyRepository('Tagged'), { comment: SHA }))
    const r = await importRepository('https://github.com/owner/story/tree/v1.2', options())
    expect(r.ok && r.package.manifest?.title).toBe('Tagged')
    expect(r.source).toEqual({ owner: 'owner', repo: 'story', ref: 'v1.2', commit: SHA })
  })

  it('a commit', async () => {
    serveZipball(`/${SHA}`, makeZipball(storyRepository('Pinned')))
    const r = await importRepository(`https://github.com/owner/story/tree/${SHA}`, options())
    expect(r.ok && r.package.manifest?.title).toBe('Pinned')
    expect(r.source?.ref).toBe(SHA)
  })

  it('a ref with "/", resolved through the API as the longest ref that exists', async () => {
    host.api.routes.set('/repos/owner/story/commits/release/1.2', answer(200, {}, `${SHA}\n`))
    serveZipball('/release/1.2', makeZipball(storyRepository('Release')))
    const r = await importRepository('https://github.com/owner/story/tree/release/1.2', options())
    expect(r.ok && r.package.manifest?.title).toBe('Release')
    expect(r.source).toEqual({ owner: 'owner', repo: 'story', ref: 'release/1.2', commit: SHA })
  })

  it('a zipball made by git archive, as the host makes it, pinned to the full commit of its comment', async () => {
    const { zip, commit } = gitArchiveZipball({ ...storyRepository('From git'), 'assets/a b/ü.txt': 'x' })
    serveZipball('/v2', zip)
    const r = await importRepository('https://github.com/owner/story/tree/v2', options())
    expect(r.source).toEqual({ owner: 'owner', repo: 'story', ref: 'v2', commit })
    expect(r.ok && r.package.manifest?.title).toBe('From git')
    expect(r.ok && r.package.entries.map((e) => e.path).sort()).toEqual([
      'assets/a b/ü.txt',
      'manifest.json',
      'story/0001-inn.sty',
    ])
  })

  it('a flat story (only root .sty files)', async () => {
    serveZipball('', makeZipball({ 'inn.sty': '# Inn\nHello.\n', 'README.md': 'x' }))
    const r = await importRepository('https://github.com/owner/story', options())
    expect(r.ok && r.package.layout).toBe('flat')
  })

  it('through exactly 3 redirects on allowed hosts', async () => {
    const d = host.download.host
    host.api.routes.set('/repos/owner/story/zipball', redirectTo(`https://${d}/a`))
    host.download.routes.set('/a', redirectTo(`https://${d}/b`, 301))
    host.download.routes.set('/b', redirectTo('/c', 307)) // relative Location
    host.download.routes.set('/c', sendBytes(makeZipball(storyRepository())))
    const r = await importRepository('https://github.com/owner/story', options())
    expect(errors(r)).toEqual([])
  })

  it('fetchRepositoryArchive returns the unwrapped archive', async () => {
    serveZipball('', makeZipball(storyRepository()))
    const r = await fetchRepositoryArchive('https://github.com/owner/story', options())
    expect(r.ok).toBe(true)
    if (!r.ok) return
    const text = Buffer.from(r.bytes).toString('latin1')
    expect(text).toContain('story/0001-inn.sty')
    expect(text).not.toContain(WRAPPER)
    expect(text).not.toContain('README.md')
  })
})

describe.skipIf(!hasTools)('importRepository refuses', () => {
  it('a ref with "/" whose longest existing ref leaves a folder, and one that does not exist', async () => {
    host.api.routes.set('/repos/owner/story/commits/release', answer(200, {}, SHA))
    const r = await importRepository('https://github.com/owner/story/tree/release/1.2/docs', options())
    expect(codes(r)).toEqual(['repo/invalid-url'])
    expect(r.diagnostics[0]!.message).toContain("'1.2/docs' a folder")
    const paths = host.api.requests.map((q) => q.path)
    expect(paths).toEqual([
      '/repos/owner/story/commits/release/1.2/docs',
      '/repos/owner/story/commits/release/1.2',
      '/repos/owner/story/commits/release',
    ])
    host.reset()
    const none = await importRepository('https://github.com/owner/story/tree/no/such', options())
    expect(codes(none)).toEqual(['repo/not-found'])
  })

  it.each([
    ['a host not on the allow-list', () => `https://${host.hostile.host}/owner/story.zip`],
    ['http:', () => `http://${host.download.host}/owner/story.zip`],
    ['a loopback IP literal', () => `https://127.0.0.1:${host.download.port}/owner/story.zip`],
    ['an IPv6 loopback literal', () => `https://[::1]:${host.download.port}/owner/story.zip`],
    ['a URL with credentials', () => `https://user:pw@${host.download.host}/owner/story.zip`],
    ['the metadata address', () => 'https://169.254.169.254/latest/meta-data/'],
  ])('a redirect to %s, without requesting it', async (_what, target) => {
    host.api.routes.set('/repos/owner/story/zipball', redirectTo(target()))
    host.download.routes.set('/owner/story.zip', sendBytes(makeZipball(storyRepository())))
    const r = await importRepository('https://github.com/owner/story', options())
    expect(codes(r)).toEqual(['repo/redirect-refused'])
    expect(host.download.requests).toEqual([])
    expect(host.hostile.requests).toEqual([])
    expect(r.diagnostics[0]!.message).not.toContain('pw')
  })

  it('more than 3 redirects (the fourth target is never requested)', async () => {
    const d = host.download.host
    host.api.routes.set('/repos/owner/story/zipball', redirectTo(`https://${d}/a`))
    host.download.routes.set('/a', redirectTo(`https://${d}/b`))
    host.download.routes.set('/b', redirectTo(`https://${d}/c`))
    host.download.routes.set('/c', redirectTo(`https://${d}/d`))
    host.download.routes.set('/d', sendBytes(makeZipball(storyRepository())))
    const r = await importRepository('https://github.com/owner/story', options())
    expect(codes(r)).toEqual(['repo/redirect-refused'])
    expect(host.download.requests.map((q) => q.path)).toEqual(['/a', '/b', '/c'])
  })

  it('a 404 as not found "or private", never showing the token', async () => {
    const r = await importRepository('https://github.com/owner/story/tree/v9', options())
    expect(codes(r)).toEqual(['repo/not-found'])
    expect(r.diagnostics[0]!.message).toContain('or it is private')
    expect(JSON.stringify(r)).not.toContain(TOKEN)
  })

  it.each([
    [
      '403 with X-RateLimit-Remaining 0 and X-RateLimit-Reset',
      403,
      { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1700000090' },
      'retry in 90 s',
    ],
    ['429 with Retry-After seconds', 429, { 'retry-after': '120' }, 'retry in 120 s'],
    [
      '403 with Retry-After as a date',
      403,
      { 'retry-after': 'Tue, 14 Nov 2023 22:18:20 GMT' },
      'retry in 300 s',
    ],
    ['401 with X-RateLimit-Remaining 0 and no reset', 401, { 'x-ratelimit-remaining': '0' }, 'retry later'],
    ['429 with no header', 429, {}, 'retry later'],
  ])('rate limiting: %s', async (_what, status, headers, retry) => {
    host.api.routes.set(
      '/repos/owner/story/zipball',
      answer(status, headers, `{"message":"API rate limit exceeded for ${TOKEN}"}`),
    )
    const r = await importRepository(
      'https://github.com/owner/story',
      options({ now: () => 1_700_000_000_000 }),
    )
    expect(codes(r)).toEqual(['repo/rate-limited'])
    expect(r.diagnostics[0]!.message).toContain(retry)
    expect(JSON.stringify(r)).not.toContain(TOKEN)
  })

  it('another failure as repo/fetch-failed with the status', async () => {
    host.api.routes.set('/repos/owner/story/zipball', answer(500))
    const r = await importRepository('https://github.com/owner/story', options())
    expect(codes(r)).toEqual(['repo/fetch-failed'])
    expect(r.diagnostics[0]!.message).toContain('500')
  })

  it('a body larger than the limit, from its Content-Length before reading it', async () => {
    serveZipball('', new Uint8Array(5000))
    const r = await importRepository('https://github.com/owner/story', options({ maxDownloadBytes: 1000 }))
    expect(codes(r)).toEqual(['pkg/too-large'])
    expect(r.diagnostics[0]!.message).toContain('it was not read')
  })

  it('a body larger than the limit without Content-Length, as it arrives', async () => {
    host.api.routes.set('/repos/owner/story/zipball', redirectTo(`https://${host.download.host}/big`))
    host.download.routes.set('/big', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/zip' })
      // Never ends by itself: the client must stop reading.
      const chunk = new Uint8Array(16_384)
      const push = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', push)
      }
      push()
    })
    const r = await importRepository('https://github.com/owner/story', options({ maxDownloadBytes: 100_000 }))
    expect(codes(r)).toEqual(['pkg/too-large'])
    expect(r.diagnostics[0]!.message).toContain('went past 100000 bytes')
  })

  it('a body that stalls', async () => {
    host.api.routes.set('/repos/owner/story/zipball', redirectTo(`https://${host.download.host}/slow`))
    host.download.routes.set('/slow', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/zip', 'content-length': '1000' })
      res.write(new Uint8Array(10)) // then nothing
    })
    const r = await importRepository('https://github.com/owner/story', options({ stallTimeoutMs: 60 }))
    expect(codes(r)).toEqual(['repo/timeout'])
    expect(r.diagnostics[0]!.message).toContain('stalled')
  })

  it('a host that never answers, past the total timeout', async () => {
    host.api.routes.set('/repos/owner/story/zipball', () => {}) // no answer at all
    const r = await importRepository('https://github.com/owner/story', options({ timeoutMs: 60 }))
    expect(codes(r)).toEqual(['repo/timeout'])
  })

  it('a deadline set before the call: it counts, and the message names the limit as given', async () => {
    host.api.routes.set('/repos/owner/story/zipball', () => {})
    const started = Date.now()
    const r = await importRepository(
      'https://github.com/owner/story',
      options({ timeoutMs: 60_000, deadline: started + 80 }),
    )
    expect(codes(r)).toEqual(['repo/timeout'])
    expect(r.diagnostics[0]!.message).toContain('60000 ms')
    expect(Date.now() - started).toBeLessThan(30_000)
  })

  it('an archive with two top folders', async () => {
    serveZipball('', makeZipball({ 'a/manifest.json': '{}', 'b/story/x.sty': 'x' }, { wrapper: null }))
    const r = await importRepository('https://github.com/owner/story', options())
    expect(codes(r)).toEqual(['repo/unexpected-layout'])
    expect(r.diagnostics[0]!.message).toContain('exactly one top folder')
  })

  it('an archive with a file beside the top folder', async () => {
    serveZipball('', makeZipball({ [`${WRAPPER}/inn.sty`]: 'x', 'stray.sty': 'y' }, { wrapper: null }))
    const r = await importRepository('https://github.com/owner/story', options())
    expect(codes(r)).toEqual(['repo/unexpected-layout'])
  })

  it('a download that is not a ZIP', async () => {
    serveZipball('', new TextEncoder().encode('<html>not a zip</html>'))
    const r = await importRepository('https://github.com/owner/story', options())
    expect(codes(r)).toEqual(['pkg/not-zip'])
  })

  it('a zip bomb inside the zipball (through the reader, on the real inflated bytes)', async () => {
    const files = { ...storyRepository(), 'assets/zeros.bin': new Uint8Array(4 * 1024 * 1024) }
    serveZipball('', makeZipball(files, { level: 9 }))
    const bomb = await importRepository('https://github.com/owner/story', {
      ...options(),
      limits: { maxUncompressedBytes: 1024 * 1024, maxEntries: 500 },
    })
    expect(bomb.ok).toBe(false)
    expect(codes(bomb)).toContain('pkg/too-large')
  })

  it('a zip bomb whose headers lie about its size', async () => {
    // 4 MiB of zeros declared as 4 bytes (0x00400000 → 0x00000004) in both headers.
    const zip = makeZipball(
      { ...storyRepository(), 'assets/zeros.bin': new Uint8Array(4 * 1024 * 1024) },
      { level: 9 },
    )
    const v = Buffer.from(zip)
    let patched = 0
    for (let i = 0; i + 4 <= v.length; i++)
      if (v.readUInt32LE(i) === 4 * 1024 * 1024) {
        v.writeUInt32LE(4, i)
        patched++
      }
    expect(patched).toBe(2)
    serveZipball('', new Uint8Array(v))
    const r = await importRepository('https://github.com/owner/story', options())
    expect(r.ok).toBe(false)
    expect(r.diagnostics.some((d) => d.severity === 'fatal' && d.path === 'assets/zeros.bin')).toBe(true)
  })

  it('traversal inside the zipball (through the reader)', async () => {
    const zip = makeZipball({ ...storyRepository(), 'xx/xx/evil.sty': 'x' })
    serveZipball('', patchBytes(zip, `${WRAPPER}/xx/xx/evil.sty`, `${WRAPPER}/../../evil.sty`))
    const r = await importRepository('https://github.com/owner/story', options())
    expect(r.ok).toBe(false)
    expect(codes(r)).toContain('pkg/unsafe-path')
  })
})

describe.skipIf(!hasTools)('the address guard (Node)', () => {
  it('refuses to connect when an allowed host name resolves to a loopback address', async () => {
    serveZipball('', makeZipball(storyRepository()))
    const r = await importRepository(
      'https://github.com/owner/story',
      options({ allowPrivateAddresses: false }),
    )
    expect(codes(r)).toEqual(['repo/address-refused'])
    expect(r.diagnostics[0]!.message).toContain('127.0.0.1')
    expect(host.api.requests).toEqual([])
  })

  it('refuses an IP literal host before any connection', async () => {
    const r = await importRepository('https://github.com/owner/story', {
      ...options({ allowPrivateAddresses: false }),
      repoApiHost: `127.0.0.1:${host.api.port}`,
    })
    expect(codes(r)).toEqual(['repo/address-refused'])
    expect(host.api.requests).toEqual([])
  })
})
