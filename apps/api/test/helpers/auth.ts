/**
 * Test harness for the auth, security and rate-limit plugins: a real oidc-provider on loopback behind a switchable
 * front (key-set endpoint up, down or hanging; request counts), PGlite with the auth tables, forged tokens signed
 * with node:crypto, and a small Fastify app carrying the three plugins and an error handler shaped like the API's.
 */
import { createPrivateKey, createSign, generateKeyPairSync } from 'node:crypto'
import { createServer, type Server, STATUS_CODES } from 'node:http'
import type { AddressInfo } from 'node:net'
import { PGlite } from '@electric-sql/pglite'
import { drizzle } from 'drizzle-orm/pglite'
import Fastify, { type FastifyInstance } from 'fastify'
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod'
import { createDevIdp, type DevIdp, generateSigningKey } from '../../src/dev-idp/dev-idp.ts'
import { type AuthDb, type AuthOptions, authPlugin } from '../../src/plugins/auth/auth-plugin.ts'
import { type RateLimitPluginOptions, rateLimitPlugin } from '../../src/plugins/rate-limit.ts'
import { type SecurityOptions, securityPlugin } from '../../src/plugins/security-headers.ts'

export const AUDIENCE = 'spkg-api'

/** A development provider behind a front whose key-set endpoint can be taken down or made to hang. */
export interface TestIdp extends DevIdp {
  signingKey: Record<string, unknown>
  counts: { discovery: number; jwks: number; other: number }
  mode: 'up' | 'down' | 'hang'
  close(): Promise<void>
}

/** Starts the real oidc-provider with one client per test user (`sub` = client id). */
export async function startTestIdp(clients: Record<string, string[]> = {}): Promise<TestIdp> {
  const signingKey = generateSigningKey('test-key-1')
  const hanging = new Set<import('node:http').ServerResponse>()
  let idp: DevIdp | undefined
  const state = { counts: { discovery: 0, jwks: 0, other: 0 }, mode: 'up' as TestIdp['mode'] }
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0]
    if (path === '/.well-known/openid-configuration') state.counts.discovery++
    else if (path === '/jwks') state.counts.jwks++
    else state.counts.other++
    if (path === '/jwks' && state.mode === 'down') return void res.writeHead(503).end('down')
    if (path === '/jwks' && state.mode === 'hang') return void hanging.add(res)
    idp?.callback(req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  idp = createDevIdp(issuer, { audience: AUDIENCE, signingKey, clients })
  const result = Object.assign(state, idp, {
    signingKey,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  })
  return result as TestIdp
}

/** An in-memory PGlite with the auth tables (same DDL as the API's migration). */
export async function createAuthDb(): Promise<{ db: AuthDb; close(): Promise<void> }> {
  const client = new PGlite()
  await client.exec(`
    create table auth_events (id bigserial primary key, kind text not null, session_id uuid,
      created_at timestamptz not null default now(), detail jsonb not null default '{}'::jsonb);
    create table auth_sessions (id uuid primary key default gen_random_uuid(), sub text not null,
      sid text not null unique, created_at timestamptz not null default now(),
      last_seen_at timestamptz not null default now(), revoked_at timestamptz);
  `)
  return { db: drizzle(client) as unknown as AuthDb, close: () => client.close() }
}

const b64url = (v: unknown) =>
  Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url')

/** Signs a JWT with RS256 and the given private JWK (or leaves it unsigned for `alg: none`). */
export function signJwt(
  header: Record<string, unknown>,
  payload: Record<string, unknown>,
  key?: Record<string, unknown>,
): string {
  const input = `${b64url(header)}.${b64url(payload)}`
  if (!key) return `${input}.`
  const signer = createSign('RSA-SHA256')
  signer.update(input)
  return `${input}.${signer.sign(createPrivateKey({ key: key as never, format: 'jwk' })).toString('base64url')}`
}

/** An attacker's own RSA key (JWK). */
export function attackerKey(): Record<string, unknown> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  return privateKey.export({ format: 'jwk' }) as Record<string, unknown>
}

/** Claims of a well-formed token for `sub` from the test provider (valid for 15 minutes). */
export function claims(
  idp: { issuer: string },
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000)
  return { sub: 'forged-user', iss: idp.issuer, aud: AUDIENCE, iat: now, exp: now + 900, roles: [], ...extra }
}

export const SECURITY: SecurityOptions = {
  cors: { origins: ['https://app.example.org'] },
  csp: {
    authUrl: 'https://id.example.org',
    filesUrl: 'https://files.example.org',
    errorsUrl: 'https://errors.example.org',
    fontCssHost: 'https://fonts.googleapis.com',
    fontHost: 'https://fonts.gstatic.com',
  },
  publicUrl: 'https://api.example.org',
}

/** Options of {@link buildTestApp}. */
export interface TestAppOptions {
  issuer: string
  db: AuthDb
  auth?: Partial<AuthOptions>
  limits?: RateLimitPluginOptions
}

/**
 * The three plugins in the API's order (security, auth, rate limit) plus test routes:
 * `GET /private` (authenticate in onRequest), `GET /creator` (requireRole in preHandler), `GET /public`,
 * `GET /health` (never throttled), `POST /me/reports` (throttle `reports`), `GET /catalog/x` (`catalog-read`).
 */
export async function buildTestApp(opts: TestAppOptions): Promise<FastifyInstance> {
  const app = Fastify({ logger: false })
  app.setErrorHandler((err, _req, reply) => {
    if (hasZodFastifySchemaValidationErrors(err)) {
      return reply.code(400).send({
        statusCode: 400,
        code: 'VALIDATION_FAILED',
        message: err.validation.map((v) => v.message).join('; '),
      })
    }
    const status = (err as { statusCode?: number }).statusCode ?? 500
    if (status >= 500)
      return reply.code(status).send({ statusCode: status, message: 'Internal server error' })
    return reply.code(status).send({
      statusCode: status,
      code: (err as { code?: string }).code,
      error: STATUS_CODES[status],
      message: (err as Error).message,
    })
  })
  await app.register(securityPlugin, SECURITY)
  await app.register(authPlugin, {
    oidc: { issuer: opts.issuer, audience: AUDIENCE, rolesClaim: 'roles' },
    db: opts.db,
    authEventsRetentionDays: 30,
    retentionIntervalMs: 0,
    ...opts.auth,
  })
  await app.register(rateLimitPlugin, opts.limits ?? {})
  // As in app.ts: the 404 handler is not a route, so it takes the limiter explicitly.
  app.setNotFoundHandler({ preHandler: app.throttleHook(undefined, 'not-found') }, (_req, reply) =>
    reply.code(404).send({ statusCode: 404, message: 'Resource not found' }),
  )
  app.get('/private', { onRequest: app.authenticate }, async (req) => ({ user: req.user }))
  app.get('/creator', { preHandler: app.requireRole('creator', 'administrator') }, async (req) => ({
    sub: req.user.sub,
  }))
  app.get('/public', async () => ({ ok: true }))
  app.get('/health', { config: { throttle: false } as never }, async () => ({ ok: true }))
  app.post(
    '/me/reports',
    { onRequest: app.authenticate, config: { throttle: 'reports' } as never },
    async () => ({
      ok: true,
    }),
  )
  app.get('/catalog/x', { config: { throttle: 'catalog-read' } as never }, async () => ({ ok: true }))
  await app.ready()
  return app
}

/** `Authorization` header for a token. */
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
