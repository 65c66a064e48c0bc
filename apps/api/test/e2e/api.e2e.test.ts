/**
 * End to end: the real server process (src/server.ts) with tokens minted by a real OpenID provider on loopback,
 * against real PostgreSQL (`DATABASE_URL`, a fresh database per run, dropped afterwards) and Redis (`REDIS_URL`, a
 * key prefix per run, deleted afterwards) when set, else on the embedded defaults (PGlite in a temporary folder,
 * in-memory counters).
 *
 * With PostgreSQL two server processes share the database (and Redis when set): rate-limit counters shared
 * across them, a session revoked on one refused by the other. PGlite is one process per data folder, so the
 * embedded run starts one process. The report quota under 30 concurrent requests runs on two in-process
 * instances with their own connection pools on one database (PGlite: one shared handle) and the throttle raised,
 * since the 5-per-minute `reports` throttle would otherwise refuse those requests before the database sees them.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FastifyInstance } from 'fastify'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { closeDb, createDb } from '../../src/db/index.ts'
import { migrateDb } from '../../src/db/migrate.ts'
import { attackerKey, bearer, claims, signJwt, startTestIdp, type TestIdp } from '../auth/_helpers.ts'
import { createPgDatabase } from '../helpers/db.ts'

const API_DIR = fileURLToPath(new URL('../..', import.meta.url))
const ORIGIN = 'https://app.example.org'
const usePg = Boolean(process.env.DATABASE_URL)
const redisBase = process.env.REDIS_URL
const prefix = `spkg-e2e-${randomUUID()}:`
const redisUrl = redisBase
  ? `${redisBase}${redisBase.includes('?') ? '&' : '?'}keyPrefix=${prefix}`
  : undefined

interface ServerProcess {
  child: ChildProcess
  base: string
  stderr: () => string
}

let idp: TestIdp
let dbUrl: string | undefined
let dropDb: (() => Promise<void>) | undefined
let pgliteDir: string | undefined
const servers: ServerProcess[] = []

function env(): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    NODE_ENV: 'test',
    LOG_LEVEL: 'info', // the 'Server listening at' line is info
    PORT: '0',
    OIDC_ISSUER: idp.issuer,
    OIDC_AUDIENCE: 'spkg-api',
    CORS_ORIGINS: ORIGIN,
    ...(dbUrl ? { DATABASE_URL: dbUrl } : { PGLITE_DIR: pgliteDir as string }),
    ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
  }
}

async function startServer(): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--conditions=@spkg/source', '--import', 'tsx', 'src/server.ts'], {
    cwd: API_DIR,
    env: env(),
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
      if (m?.[1]) {
        clearInterval(timer)
        resolve(m[1])
      }
    }, 50)
    child.once('exit', (code) => {
      clearInterval(timer)
      reject(new Error(`server exited with ${code}: ${stderr.slice(-2000)}`))
    })
  })
  const server = { child, base, stderr: () => stderr }
  servers.push(server)
  return server
}

function stop(server: ServerProcess): Promise<void> {
  if (server.child.exitCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    server.child.once('exit', () => resolve())
    server.child.kill('SIGTERM')
  })
}

beforeAll(async () => {
  idp = await startTestIdp({ alice: ['creator'], bob: [], carol: ['administrator'], rita: [], rob: [] })
  if (usePg) {
    const created = await createPgDatabase()
    dbUrl = created.url
    dropDb = created.drop
  } else {
    pgliteDir = mkdtempSync(join(tmpdir(), 'spkg-e2e-'))
  }
  await startServer()
  if (usePg) await startServer()
}, 180_000)

afterAll(async () => {
  await Promise.all(servers.map(stop))
  await idp?.close()
  await dropDb?.()
  if (pgliteDir) rmSync(pgliteDir, { recursive: true, force: true })
  if (redisBase) {
    const r = new Redis(redisBase)
    try {
      const keys = await r.keys(`${prefix}*`)
      if (keys.length > 0) await r.del(...keys)
    } finally {
      r.disconnect()
    }
  }
}, 60_000)

const first = () => servers[0] as ServerProcess
const second = () => (servers[1] ?? servers[0]) as ServerProcess

describe(`API end to end (${usePg ? 'PostgreSQL' : 'PGlite'}, ${redisBase ? 'Redis' : 'in-memory limits'})`, () => {
  it('serves health and auth health without a token on every instance', async () => {
    for (const s of servers) {
      const health = await fetch(`${s.base}/api/health`)
      expect(health.status).toBe(200)
      const auth = await fetch(`${s.base}/api/health/auth`)
      expect(auth.status).toBe(200)
    }
  })

  it('never fetches from the identity provider to answer /api/health/auth (public and unthrottled)', async () => {
    const before = idp.counts.discovery + idp.counts.jwks
    for (let i = 0; i < 20; i++) expect((await fetch(`${first().base}/api/health/auth`)).status).toBe(200)
    expect(idp.counts.discovery + idp.counts.jwks).toBe(before)
  })

  it('accepts a provider token, refuses none with 401 carrying CORS headers, answers preflights', async () => {
    const token = await idp.mintToken('alice')
    const ok = await fetch(`${first().base}/api/stories`, { headers: bearer(token) })
    expect(ok.status).toBe(200)
    expect(ok.headers.get('content-security-policy')).toContain("default-src 'self'")
    expect(ok.headers.get('x-ratelimit-limit-short')).toBe('10')

    const anonymous = await fetch(`${first().base}/api/stories`, { headers: { origin: ORIGIN } })
    expect(anonymous.status).toBe(401)
    expect(anonymous.headers.get('access-control-allow-origin')).toBe(ORIGIN)
    expect((await anonymous.json()).statusCode).toBe(401)

    const preflight = await fetch(`${first().base}/api/stories`, {
      method: 'OPTIONS',
      headers: { origin: ORIGIN, 'access-control-request-method': 'POST' },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-max-age')).toBe('7200')
  })

  it('enforces roles: 403 for a reader creating a story', async () => {
    const res = await fetch(`${first().base}/api/stories`, {
      method: 'POST',
      headers: { ...bearer(await idp.mintToken('bob')), 'content-type': 'application/json' },
      body: JSON.stringify({ slug: 'e2e-story', title: 'T', author: 'A', genre: 'g', content: 'c' }),
    })
    expect(res.status).toBe(403)
  })

  it(`throttles per user${redisBase && usePg ? ' with counters shared by both instances' : ''}`, async () => {
    // POST /me/reports: 5 per 60 s per user, so timing on a busy machine cannot reset the window mid-test.
    const headers = { ...bearer(await idp.mintToken('rob')), 'content-type': 'application/json' }
    const statuses: number[] = []
    let last: Response | undefined
    for (let i = 0; i < 6; i++) {
      const s = i % 2 ? second() : first()
      last = await fetch(`${s.base}/me/reports`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ reason: 'spam' }),
      })
      statuses.push(last.status)
    }
    expect(statuses.slice(0, 5)).toEqual(Array(5).fill(201))
    if (redisBase || servers.length === 1) {
      expect(statuses[5]).toBe(429)
      expect(Number(last?.headers.get('retry-after'))).toBeGreaterThan(0)
      const body = (await last?.json()) as { message?: string } | undefined
      expect(body?.message).toContain('ThrottlerException')
    } else {
      expect(statuses[5]).toBe(201) // in-memory counters are per instance
    }
  })

  it('refuses, on every instance, the tokens of a session revoked on one', async () => {
    const token = await idp.mintToken('bob')
    const list = await fetch(`${first().base}/api/auth/sessions`, { headers: bearer(token) })
    const session = (await list.json()).sessions.find((s: { current: boolean }) => s.current)
    const del = await fetch(`${first().base}/api/auth/sessions/${session.id}`, {
      method: 'DELETE',
      headers: bearer(token),
    })
    expect(del.status).toBe(204)
    expect((await fetch(`${first().base}/api/stories`, { headers: bearer(token) })).status).toBe(401)
    let status = 0
    for (let i = 0; i < 40 && status !== 401; i++) {
      status = (await fetch(`${second().base}/api/stories`, { headers: bearer(token) })).status
      if (status !== 401) await new Promise((r) => setTimeout(r, 250)) // other instances re-check every 5 s
    }
    expect(status).toBe(401)
  })

  it('keeps cached keys working when the key-set endpoint goes down, and health/auth reports it', async () => {
    const token = await idp.mintToken('alice')
    expect((await fetch(`${first().base}/api/stories`, { headers: bearer(token) })).status).toBe(200)
    idp.mode = 'down'
    try {
      const fresh = signJwt({ alg: 'RS256', kid: 'test-key-1' }, claims(idp, { sub: 'zoe' }), idp.signingKey)
      expect((await fetch(`${first().base}/api/stories`, { headers: bearer(fresh) })).status).toBe(200)
      const rotated = signJwt({ alg: 'RS256', kid: 'rotated' }, claims(idp), attackerKey())
      expect((await fetch(`${first().base}/api/stories`, { headers: bearer(rotated) })).status).toBe(401)
      const health = await fetch(`${first().base}/api/health/auth`)
      const body = JSON.stringify(await health.json())
      expect(body).toMatch(/false/) // the last key-set fetch failed
    } finally {
      idp.mode = 'up'
    }
  })
})

describe('report quota across two instances sharing one database', () => {
  const instances: FastifyInstance[] = []
  let cleanup: (() => Promise<void>) | undefined

  beforeAll(async () => {
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      OIDC_ISSUER: idp.issuer,
      OIDC_AUDIENCE: 'spkg-api',
      ...(dbUrl ? { DATABASE_URL: dbUrl } : { PGLITE_DIR: 'memory://' }),
    })
    const rateLimit = { maxFactor: 100 } // the 5/min `reports` throttle would stop the test before the database
    if (dbUrl) {
      for (let i = 0; i < 2; i++) instances.push(await buildApp(config, { rateLimit }))
    } else {
      const db = await createDb(config)
      await migrateDb(db)
      for (let i = 0; i < 2; i++) instances.push(await buildApp(config, { db, rateLimit }))
      cleanup = () => closeDb(db)
    }
  }, 120_000)

  afterAll(async () => {
    for (const app of instances) await app.close()
    await cleanup?.()
  })

  it('lets exactly 10 of 30 concurrent reports by one user through; the rest are 409 REPORT_RATE_LIMITED', async () => {
    const headers = { ...bearer(await idp.mintToken('rita')), 'content-type': 'application/json' }
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        (instances[i % 2] as FastifyInstance).inject({
          method: 'POST',
          url: '/me/reports',
          headers,
          payload: { reason: 'spam', details: `e2e ${i} ${randomBytes(4).toString('hex')}` },
        }),
      ),
    )
    const statuses = results.map((r) => r.statusCode)
    expect(statuses.filter((s) => s === 201)).toHaveLength(10)
    const refused = results.filter((r) => r.statusCode === 409)
    expect(refused).toHaveLength(20)
    expect(refused[0]?.json()).toMatchObject({ statusCode: 409, code: 'REPORT_RATE_LIMITED' })
  })
})
