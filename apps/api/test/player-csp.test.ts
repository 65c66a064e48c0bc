/**
 * The player's policy names the repository hosts of the configuration: `connect-src` gains
 * `https://<REPO_API_HOST>` and each `https://<REPO_DOWNLOAD_HOSTS>` (the GitHub defaults when unset), and nothing
 * with `REPO_IMPORT=false`, which also removes the import route. The API's own answers never name them.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../src/config'
import { playerRepoConnect } from '../src/routes/player/player-routes'
import { bearer, buildTestApp, type TestApp } from './helpers/app'

let dir: string
const apps: TestApp[] = []
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'spkg-player-csp-'))
  await writeFile(join(dir, 'index.html'), '<!doctype html><title>player</title>')
})
afterAll(async () => {
  for (const a of apps) await a.close()
  await rm(dir, { recursive: true, force: true })
})

const connectSrc = (policy: unknown) =>
  String(policy)
    .split(';')
    .map((d) => d.trim())
    .find((d) => d.startsWith('connect-src '))

/** The player page's and the API's `connect-src`, with `env`. */
async function policies(env: Record<string, string>) {
  const t = await buildTestApp({ PLAYER_DIR: dir, ...env })
  apps.push(t)
  const page = await t.app.inject({ url: '/' })
  expect(page.statusCode).toBe(200)
  const api = await t.app.inject({ url: '/api/health' })
  return {
    t,
    page: connectSrc(page.headers['content-security-policy']),
    api: connectSrc(api.headers['content-security-policy']),
  }
}

describe("the player's connect-src follows the REPO_* settings", () => {
  it('names the GitHub hosts by default', async () => {
    const { page, api } = await policies({})
    expect(page).toBe(`${api} https://api.github.com https://codeload.github.com`)
  })

  it('names REPO_API_HOST and every REPO_DOWNLOAD_HOSTS, and no GitHub host', async () => {
    const { page, api } = await policies({
      REPO_HOST: 'git.example.org',
      REPO_API_HOST: 'api.git.example.org',
      REPO_DOWNLOAD_HOSTS: 'dl.git.example.org, cdn.git.example.org:8443',
    })
    expect(page).toBe(
      `${api} https://api.git.example.org https://dl.git.example.org https://cdn.git.example.org:8443`,
    )
    expect(page).not.toContain('github')
    expect(api).not.toContain('git.example.org')
  })

  it('names none with REPO_IMPORT=false, and the import route is gone', async () => {
    const { t, page, api } = await policies({ REPO_IMPORT: 'false' })
    expect(page).toBe(api)
    expect(page).not.toContain('github')
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/stories/import',
      headers: bearer('alice', 'creator'),
      payload: { url: 'https://github.com/owner/story' },
    })
    expect(res.statusCode).toBe(404)
  })

  it('derives the origins from the configuration alone', () => {
    expect(playerRepoConnect(loadConfig({ NODE_ENV: 'test' }).repo)).toEqual([
      'https://api.github.com',
      'https://codeload.github.com',
    ])
    expect(
      playerRepoConnect(loadConfig({ NODE_ENV: 'test', REPO_API_HOST: 'codeload.github.com' }).repo),
    ).toEqual(['https://codeload.github.com'])
    expect(() => loadConfig({ NODE_ENV: 'test', REPO_IMPORT: 'maybe' })).toThrow(/REPO_IMPORT/)
  })
})
