/**
 * A fresh start with no identity provider configured (what `pnpm start` does on a new clone): the server starts
 * the development provider on loopback, prints a token command per role, and a token obtained exactly as printed
 * works against the API (roles included).
 */
import { afterAll, describe, expect, it } from 'vitest'
import { startServerProcess, stopAllServerProcesses } from '../helpers/server-process.ts'

afterAll(() => stopAllServerProcesses())

/** Runs a printed `curl -s -u id:secret -d k=v ... URL` line with fetch. */
async function runCurl(line: string): Promise<string> {
  const parts = line.trim().split(/\s+/).slice(1)
  const user = parts[parts.indexOf('-u') + 1] as string
  const url = parts[parts.length - 1] as string
  const form = new URLSearchParams()
  parts.forEach((p, i) => {
    if (p === '-d') {
      const [k, v] = (parts[i + 1] as string).split('=')
      form.append(k as string, v as string)
    }
  })
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(user).toString('base64')}` },
    body: form,
  })
  const body = (await res.json()) as { access_token?: string }
  if (!body.access_token) throw new Error(`no token: ${JSON.stringify(body)}`)
  return body.access_token
}

describe('fresh start without OIDC_ISSUER', () => {
  it('starts the development provider and prints token commands that work against the API', async () => {
    const server = await startServerProcess({
      name: 'dev-start',
      env: { NODE_ENV: 'development' }, // no OIDC_ISSUER, no DATABASE_URL: PGlite in memory (the helper's default)
      ready: ({ stderr }) => stderr.includes('curl'),
    })
    const { base } = server
    const lines = server.stderr().split('\n')
    const line = (role: string) => lines.find((l) => l.trim().startsWith(role) && l.includes('curl'))
    expect(line('creator')).toBeDefined()
    expect(line('reader')).toBeDefined()
    // The declared runtime (node >= 20.19) gets no "Unsupported runtime" notice from the development provider.
    expect(server.stderr() + server.stdout()).not.toMatch(/Unsupported runtime/)

    const creator = await runCurl((line('creator') as string).trim().replace(/^creator\s+/, ''))
    const reader = await runCurl((line('reader') as string).trim().replace(/^reader\s+/, ''))
    const list = await fetch(`${base}/api/stories`, { headers: { authorization: `Bearer ${creator}` } })
    expect(list.status).toBe(200)
    const create = (token: string) =>
      fetch(`${base}/api/stories`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          slug: 'dev-start',
          title: 'Dev start',
          author: 'Me',
          genre: 'test',
          content: 'Hi',
        }),
      })
    expect((await create(reader)).status).toBe(403)
    expect((await create(creator)).status).toBe(201)
    // Each printed token carries the role it is named after: the reader edits its reader profile.
    const profile = (token: string, role: string) =>
      fetch(`${base}/api/auth/profiles/${role}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ displayName: `Dev ${role}` }),
      })
    const readerProfile = await profile(reader, 'reader')
    expect(readerProfile.status).toBe(200)
    expect(await readerProfile.json()).toMatchObject({ displayName: 'Dev reader' })
    for (const role of ['creator', 'moderator', 'administrator']) {
      const token = await runCurl((line(role) as string).trim().replace(new RegExp(`^${role}\\s+`), ''))
      expect((await profile(token, role)).status, role).toBe(200)
      expect((await profile(token, 'reader')).status, role).toBe(403)
    }
    const health = await (await fetch(`${base}/api/health/auth`)).json()
    expect(health.status).toBe('ok')
  }, 180_000)
})
