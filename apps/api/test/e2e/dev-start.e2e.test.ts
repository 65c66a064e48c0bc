/**
 * A fresh start with no identity provider configured (what `pnpm start` does on a new clone): the server starts
 * the development provider on loopback, prints a token command per role, and a token obtained exactly as printed
 * works against the API (roles included).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const API_DIR = fileURLToPath(new URL('../..', import.meta.url))
let child: ChildProcess | undefined

afterAll(async () => {
  if (child && child.exitCode === null) {
    const c = child
    await new Promise<void>((resolve) => {
      c.once('exit', () => resolve())
      c.kill('SIGTERM')
    })
  }
})

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
    child = spawn(process.execPath, ['--conditions=@spkg/source', '--import', 'tsx', 'src/server.ts'], {
      cwd: API_DIR,
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'development', PGLITE_DIR: 'memory://', PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout?.on('data', (d) => {
      stdout += d
    })
    child.stderr?.on('data', (d) => {
      stderr += d
    })
    const base = await new Promise<string>((resolve, reject) => {
      const timer = setInterval(() => {
        const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout)
        if (m?.[1] && stderr.includes('curl')) {
          clearInterval(timer)
          resolve(m[1])
        }
      }, 50)
      child?.once('exit', (code) => {
        clearInterval(timer)
        reject(new Error(`server exited with ${code}: ${stderr.slice(-2000)}`))
      })
    })
    const lines = stderr.split('\n')
    const line = (role: string) => lines.find((l) => l.trim().startsWith(role) && l.includes('curl'))
    expect(line('creator')).toBeDefined()
    expect(line('reader')).toBeDefined()

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
    const health = await (await fetch(`${base}/api/health/auth`)).json()
    expect(health.status).toBe('ok')
  }, 120_000)
})
