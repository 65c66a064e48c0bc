/**
 * `spkg` with a repository URL, against the fake repository host of @spkg/repo-import's tests
 * (HTTPS on 127.0.0.1, certificate by openssl, zipballs by zip), configured only through the
 * environment: SPKG_REPO_*, and NODE_EXTRA_CA_CERTS for the test's CA.
 */
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { openPackage } from '@spkg/reader/node'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  answer,
  type FakeHost,
  redirectTo,
  sendBytes,
  startFakeHost,
} from '../../../packages/repo-import/test/fake-host'
import { hasTools } from '../../../packages/repo-import/test/tools'
import { makeZipball, SHA, storyRepository } from '../../../packages/repo-import/test/zipball'
import { jsonLines, runCli } from '../test/helpers/cli'
import { freshDir } from '../test/helpers/tree'

const root = fileURLToPath(new URL('../../..', import.meta.url))
let host: FakeHost
let env: Record<string, string>
const URL_V12 = 'https://github.com/owner/story/tree/v1.2'

beforeAll(async () => {
  if (!hasTools) return
  host = await startFakeHost()
  env = {
    SPKG_REPO_API_HOST: host.api.host,
    SPKG_REPO_DOWNLOAD_HOSTS: ` ${host.download.host} , example.invalid`,
    SPKG_REPO_TOKEN: 'ghp_sekrit',
    SPKG_REPO_ALLOW_PRIVATE_ADDRESSES: '1',
    NODE_EXTRA_CA_CERTS: host.caFile,
  }
})
afterAll(() => host?.close())
beforeEach(() => {
  if (!hasTools) return
  host.reset()
  host.api.routes.set('/repos/owner/story/zipball/v1.2', redirectTo(`https://${host.download.host}/v1.2.zip`))
  host.download.routes.set('/v1.2.zip', sendBytes(makeZipball(storyRepository(), { comment: SHA })))
})

describe.skipIf(!hasTools)('spkg with a repository URL', () => {
  it('spkg validate <repo-url> end to end (a spawned spkg, configured by the environment only)', async () => {
    const run = promisify(execFile)(
      process.execPath,
      [
        '--conditions=@spkg/source',
        '--import',
        'tsx',
        'apps/validator/src/bin.ts',
        'validate',
        URL_V12,
        '--format',
        'json',
      ],
      { cwd: root, encoding: 'utf8', timeout: 60_000, env: { ...process.env, ...env } },
    )
    const { stdout } = await run
    const report = JSON.parse(stdout)
    expect(report).toMatchObject({ loads: true, layout: 'packaged', entry: 'story/0001-inn.sty' })
    const infos = report.diagnostics.filter((d: { code: string }) => d.code === 'repo/ignored-file')
    expect(infos.map((d: { path: string }) => d.path).sort()).toEqual([
      '.github/workflows/ci.yml',
      '.gitignore',
      'LICENSE',
      'README.md',
    ])
    expect(host.api.requests[0]!.authorization).toBe('Bearer ghp_sekrit')
    expect(host.download.requests[0]!.authorization).toBeUndefined()
  })

  it('validate --format github annotates repository-relative paths', async () => {
    host.download.routes.set(
      '/v1.2.zip',
      sendBytes(makeZipball({ ...storyRepository(), 'story/0001-inn.sty': '# Inn\n-> nowhere\n' })),
    )
    const r = await runCli(['validate', URL_V12, '--format', 'github'], { env })
    expect(r.stdout).toMatch(/^::error file=story\/0001-inn\.sty,line=2/m)
    expect(r.code).toBe(1)
  })

  it('a refused repository is a refused package: {loads: false} with the repo/* code, exit 1', async () => {
    const r = await runCli(['validate', 'https://github.com/owner/story/tree/v9', '--format', 'json'], {
      env,
    })
    expect(r.code).toBe(1)
    expect(JSON.parse(r.stdout)).toMatchObject({ loads: false, diagnostics: [{ code: 'repo/not-found' }] })
    expect(r.stdout).not.toContain('sekrit')
  })

  it('the address guard holds unless SPKG_REPO_ALLOW_PRIVATE_ADDRESSES=1', async () => {
    const { SPKG_REPO_ALLOW_PRIVATE_ADDRESSES: _, ...guarded } = env
    const r = await runCli(['validate', URL_V12, '--format', 'json'], { env: guarded })
    expect(r.code).toBe(1)
    expect(JSON.parse(r.stdout).diagnostics[0].code).toBe('repo/address-refused')
    expect(host.api.requests).toEqual([])
  })

  it('SPKG_REPO_HOST names another repository host', async () => {
    const r = await runCli(
      ['validate', 'https://git.example.org/owner/story/tree/v1.2', '--format', 'json'],
      {
        env: { ...env, SPKG_REPO_HOST: 'git.example.org' },
      },
    )
    expect(JSON.parse(r.stdout).loads).toBe(true)
  })

  it('a bad SPKG_REPO_* host is a usage error', async () => {
    const r = await runCli(['validate', URL_V12], { env: { ...env, SPKG_REPO_API_HOST: 'https://api' } })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('SPKG_REPO_API_HOST')
  })

  it('inspect <repo-url>', async () => {
    const r = await runCli(['inspect', URL_V12, '--format', 'json'], { env })
    expect(r.code).toBe(0)
    const json = JSON.parse(r.stdout)
    expect(json).toMatchObject({ file: URL_V12, ok: true, title: 'The Inn', layout: 'packaged' })
    expect(json.entries.map((e: { path: string }) => e.path).sort()).toEqual([
      'manifest.json',
      'story/0001-inn.sty',
    ])
  })

  it('pack <repo-url> -o builds the canonical package of the release', async () => {
    const cwd = freshDir()
    const r = await runCli(['pack', URL_V12, '-o', 'story.spkg'], { env, cwd })
    expect(r.code).toBe(0)
    const opened = await openPackage(new Uint8Array(readFileSync(join(cwd, 'story.spkg'))))
    expect(opened.ok).toBe(true)
    if (!opened.ok) return
    expect(opened.package.entries.map((e) => e.path)).toEqual(['manifest.json', 'story/0001-inn.sty'])
    expect(opened.package.manifest?.integrity).toBeDefined()
    opened.package.close()
  })

  it('pack refuses a repository the reader refuses, and writes nothing', async () => {
    host.api.routes.set('/repos/owner/story/zipball/v1.2', answer(429, { 'retry-after': '30' }))
    const cwd = freshDir()
    const r = await runCli(['pack', URL_V12, '-o', 'story.spkg'], { env, cwd })
    expect(r.code).toBe(1)
    expect(r.stdout).toContain('repo/rate-limited')
    expect(r.stdout).toContain('retry in 30 s')
  })

  it('play <repo-url>', async () => {
    const r = await runCli(['play', URL_V12, '--format', 'json'], { env })
    expect(r.code).toBe(0)
    expect(JSON.stringify(jsonLines(r.stdout))).toContain('You push the door of the inn.')
  })
})
