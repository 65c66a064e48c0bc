/**
 * The development identity provider follows the SPEC's provider settings: RS256 JWT access tokens for 15 minutes
 * with the roles claim at the configured path, PKCE S256 required, no implicit flow, refresh tokens offered; it
 * refuses production and non-loopback issuers, and prints how to get a token per role.
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createDevIdp,
  DEV_ROLES,
  devIdpInstructions,
  type StartedDevIdp,
  startDevIdp,
} from '../../src/dev-idp/dev-idp.ts'
import { isRuntimeWarning, RUNTIME_WARNING } from '../../src/dev-idp/load-provider.ts'

let idp: StartedDevIdp

beforeAll(async () => {
  idp = await startDevIdp({ audience: 'spkg-api', rolesClaim: 'realm_access.roles' })
}, 60_000)

afterAll(async () => {
  await idp?.close()
})

const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'))

describe('development identity provider', () => {
  it('mints RS256 JWT access tokens for 15 minutes with the roles at the configured claim path', async () => {
    const [header, payload] = (await idp.mintToken('dev-creator'))
      .split('.')
      .map((p, i) => (i < 2 ? decode(p) : p))
    expect(header.alg).toBe('RS256')
    expect(typeof header.kid).toBe('string')
    expect(payload).toMatchObject({ sub: 'dev-creator', iss: idp.issuer, aud: 'spkg-api' })
    expect(payload.exp - payload.iat).toBe(900)
    expect(payload.realm_access.roles).toEqual(['creator'])
    const reader = decode((await idp.mintToken('dev-reader')).split('.')[1] as string)
    expect(reader.realm_access.roles).toEqual(['reader'])
  })

  it('publishes code flow only, PKCE S256 only, and the refresh-token grant', async () => {
    const doc = await (await fetch(`${idp.issuer}/.well-known/openid-configuration`)).json()
    expect(doc.issuer).toBe(idp.issuer)
    expect(doc.response_types_supported).toEqual(['code'])
    expect(doc.code_challenge_methods_supported).toEqual(['S256'])
    expect(doc.grant_types_supported).toContain('refresh_token')
    expect(doc.jwks_uri).toBe(`${idp.issuer}/jwks`)
  })

  it('refuses an authorization request without PKCE and an implicit-flow request', async () => {
    const redirect = 'http://127.0.0.1:5173/callback'
    const base = `${idp.issuer}/auth?client_id=spkg-web&redirect_uri=${encodeURIComponent(redirect)}&scope=openid`
    const noPkce = await fetch(`${base}&response_type=code`, { redirect: 'manual' })
    expect(noPkce.headers.get('location') ?? '').toContain('error=invalid_request')
    const implicit = await fetch(`${base}&response_type=${encodeURIComponent('id_token token')}&nonce=n`, {
      redirect: 'manual',
    })
    const text = `${implicit.headers.get('location') ?? ''} ${await implicit.text()}`
    expect(text).toMatch(/unsupported_response_type|invalid_request|unauthorized_client/)
    const withPkce = await fetch(
      `${base}&response_type=code&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256`,
      { redirect: 'manual' },
    )
    expect(withPkce.headers.get('location') ?? '').not.toContain('error=')
  })

  it('accepts the player at / of any loopback port for spkg-web, with CORS for its token request', async () => {
    const authorize = (redirect: string) =>
      fetch(
        `${idp.issuer}/auth?client_id=spkg-web&redirect_uri=${encodeURIComponent(redirect)}&scope=openid` +
          `&response_type=code&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256`,
        { redirect: 'manual' },
      )
    for (const redirect of ['http://127.0.0.1:3000/', 'http://127.0.0.1:41234/', 'http://localhost:8080/']) {
      const res = await authorize(redirect)
      expect(res.status).toBe(303)
      expect(res.headers.get('location') ?? '').not.toContain('error=')
    }
    const foreign = await authorize('http://player.example/')
    expect(`${foreign.headers.get('location') ?? ''} ${await foreign.text()}`).toMatch(/redirect_uri/)
    const preflight = (origin: string) =>
      fetch(`${idp.issuer}/token`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST' },
      })
    const token = (origin: string) =>
      fetch(`${idp.issuer}/token`, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'authorization_code', code: 'x', client_id: 'spkg-web' }),
      })
    expect(
      (await preflight('http://127.0.0.1:41234')).headers.get('access-control-allow-origin'),
    ).toBeTruthy()
    expect((await token('http://127.0.0.1:41234')).headers.get('access-control-allow-origin')).toBe(
      'http://127.0.0.1:41234',
    )
    expect((await token('http://player.example')).headers.get('access-control-allow-origin')).toBeNull()
  })

  it('refuses production and non-loopback issuers', () => {
    expect(() => createDevIdp('http://127.0.0.1:9', { production: true })).toThrow(/production/)
    expect(() => createDevIdp('http://id.example.org')).toThrow(/loopback/)
    expect(() => createDevIdp('https://127.0.0.1:9')).toThrow(/loopback/)
  })

  it('prints a token command for every role', () => {
    const text = devIdpInstructions(idp)
    for (const [client, roles] of Object.entries(DEV_ROLES)) {
      expect(text).toContain(`-u ${client}:${idp.clients[client]?.secret}`)
      expect(text).toContain(roles[0] ?? 'reader')
    }
    expect(text).toContain(`${idp.issuer}/token`)
    expect(text).toMatch(/warnings above .* are expected/)
  })
})

describe('oidc-provider runtime notice', () => {
  const API_DIR = fileURLToPath(new URL('../..', import.meta.url))
  /** stderr of a fresh Node process that imports `specifier` from apps/api. */
  const stderrOfImport = (specifier: string) =>
    spawnSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', `await import(${JSON.stringify(specifier)})`],
      {
        cwd: API_DIR,
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '' },
        timeout: 60_000,
      },
    )

  it('recognises exactly the runtime line, coloured or not', () => {
    expect(isRuntimeWarning([RUNTIME_WARNING])).toBe(true)
    expect(isRuntimeWarning([`\u001b[31;1m${RUNTIME_WARNING}\u001b[0m`])).toBe(true)
    expect(
      isRuntimeWarning(['oidc-provider WARNING: a quick start development-only in-memory adapter is used']),
    ).toBe(false)
    expect(isRuntimeWarning([RUNTIME_WARNING, 'more'])).toBe(false)
  })

  it('is not printed when the development provider loads (it is when oidc-provider is imported directly on Node 20)', () => {
    const direct = stderrOfImport('oidc-provider')
    expect(direct.status).toBe(0)
    // On Node 20 oidc-provider 9 prints the notice itself (so the next assertion can fail); on 22+ it does not.
    if (process.versions.node.startsWith('20.')) expect(direct.stderr).toContain(RUNTIME_WARNING)
    const dev = stderrOfImport('./src/dev-idp/dev-idp.ts')
    expect(dev.status).toBe(0)
    expect(dev.stderr).not.toContain('Unsupported runtime')
  }, 60_000)
})
