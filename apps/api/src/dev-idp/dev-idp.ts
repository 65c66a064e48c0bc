/**
 * A development OpenID provider (oidc-provider) on loopback, so that `pnpm start` without `OIDC_ISSUER` gives a
 * working, explorable API, and so that the tests get real RS256 tokens from a real provider.
 *
 * It follows the SPEC's identity-provider settings: PKCE with S256 required, implicit flow disabled (response type
 * `code` only), refresh-token rotation, 15-minute access tokens, RS256 JWT access tokens carrying the roles claim.
 * Tokens per role come from the `client_credentials` grant of one client per role (`dev-reader`, `dev-creator`,
 * `dev-moderator`, `dev-administrator`; `sub` is the client id). The browser client `spkg-web` uses the
 * authorization-code flow with PKCE (the provider's development login page accepts any user name; the user names
 * `reader`, `creator`, `moderator` and `administrator` get that role). Each role client's token carries the role it is
 * named after (`dev-reader` the role `reader`, so that `PUT /api/auth/profiles/reader` works on a fresh start). Never for production: it refuses `production: true`.
 */
/// <reference path="./oidc-provider.d.ts" />
import { generateKeyPairSync, randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { importOidcProvider } from './load-provider'

const Provider = await importOidcProvider()

/** The development roles and the client that mints tokens for each. */
export const DEV_ROLES: Record<string, string[]> = {
  'dev-reader': ['reader'],
  'dev-creator': ['creator'],
  'dev-moderator': ['moderator'],
  'dev-administrator': ['administrator'],
}

/**
 * The resource indicator the development clients ask for. oidc-provider wants an absolute URI there; the token's
 * `aud` is the configured audience whatever its form.
 */
export const DEV_RESOURCE = 'urn:spkg:api'

/**
 * The default callbacks of the browser client `spkg-web`: a Vite dev server's `/callback`, and the web player served
 * at `/` of the API (apps/player). The port is not compared: loopback addresses on any port are accepted.
 */
export const DEV_WEB_REDIRECT_URIS: readonly string[] = [
  'http://127.0.0.1:5173/callback',
  'http://127.0.0.1/',
  'http://localhost/',
]

/** `uri` without its port when it is an http:// loopback address, else undefined. */
function loopbackWithoutPort(uri: string): string | undefined {
  const u = URL.parse(uri)
  if (u?.protocol !== 'http:' || !['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname)) return undefined
  u.port = ''
  return u.origin
}

/** Options of {@link createDevIdp} and {@link startDevIdp}. */
export interface DevIdpOptions {
  /** The API's expected audience (`OIDC_AUDIENCE`). @default 'spkg-api' */
  audience?: string
  /** Dot path of the roles claim (`OIDC_ROLES_CLAIM`). @default 'roles' */
  rolesClaim?: string
  /** Access token lifetime, seconds. @default 900 */
  accessTokenTtl?: number
  /** Extra clients (`client_id` to roles) besides {@link DEV_ROLES}; tests use one per user. */
  clients?: Record<string, string[]>
  /** Signing key (private RSA JWK with `kid`); generated when absent. */
  signingKey?: Record<string, unknown>
  /**
   * Redirect URIs of the browser client `spkg-web`, matched on any loopback port (RFC 8252 section 7.3), so the
   * player works whatever `PORT` the API listens on. @default {@link DEV_WEB_REDIRECT_URIS}
   */
  webRedirectUris?: string[]
  /** Must be false: the development provider refuses to run in production. */
  production?: boolean
}

/** A development provider, not listening by itself (see {@link startDevIdp}). */
export interface DevIdp {
  issuer: string
  audience: string
  /** Secrets of the role clients (random per start). */
  clients: Record<string, { secret: string; roles: string[] }>
  /** The provider's request handler. */
  callback: (req: IncomingMessage, res: ServerResponse) => void
  /** Obtains an access token for a client through the real token endpoint (client_credentials). */
  mintToken(clientId: string): Promise<string>
}

/** A started development provider. */
export interface StartedDevIdp extends DevIdp {
  server: Server
  close(): Promise<void>
}

/** Writes `value` at the claim path: a name with `/` or `:` is one claim, else a dot path. */
function claimAt(path: string, value: unknown): Record<string, unknown> {
  if (/[/:]/.test(path)) return { [path]: value }
  return path
    .split('.')
    .reduceRight<Record<string, unknown>>((inner, key) => ({ [key]: inner }), value as never)
}

/** Generates an RS256 signing key as a private JWK. */
export function generateSigningKey(kid = `dev-${randomBytes(6).toString('hex')}`): Record<string, unknown> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  return { ...privateKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' }
}

/**
 * Creates a development provider for a known issuer URL, without listening (the caller serves `callback` there).
 *
 * @example
 * const idp = createDevIdp('http://127.0.0.1:4000', { audience: 'spkg-api' })
 * createServer(idp.callback).listen(4000, '127.0.0.1')
 */
export function createDevIdp(issuer: string, options: DevIdpOptions = {}): DevIdp {
  if (options.production) throw new Error('The development identity provider never runs in production')
  if (!/^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/.test(issuer)) {
    throw new Error('The development identity provider only runs on a loopback http:// issuer')
  }
  const audience = options.audience ?? 'spkg-api'
  const rolesClaim = options.rolesClaim ?? 'roles'
  const ttl = options.accessTokenTtl ?? 900
  const roles: Record<string, string[]> = { ...DEV_ROLES, ...options.clients }
  const clients = Object.fromEntries(
    Object.entries(roles).map(([id, r]) => [id, { secret: randomBytes(18).toString('base64url'), roles: r }]),
  )
  const accountRoles = (accountId: string | undefined) =>
    accountId && ['reader', 'creator', 'moderator', 'administrator'].includes(accountId) ? [accountId] : []

  const provider = new Provider(issuer, {
    jwks: { keys: [options.signingKey ?? generateSigningKey()] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    clients: [
      ...Object.entries(clients).map(([client_id, c]) => ({
        client_id,
        client_secret: c.secret,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
      })),
      {
        client_id: 'spkg-web',
        // 'native': oidc-provider then matches loopback redirect URIs on any port (and always asks for consent).
        application_type: 'native',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: options.webRedirectUris ?? [...DEV_WEB_REDIRECT_URIS],
      },
    ],
    // The browser client exchanges its code from the page: CORS for the origins of its callbacks, on any port.
    clientBasedCORS: (_ctx: unknown, origin: string, client: { redirectUris: string[] }) => {
      const bare = loopbackWithoutPort(origin)
      return bare !== undefined && client.redirectUris.some((uri) => loopbackWithoutPort(uri) === bare)
    },
    responseTypes: ['code'],
    pkce: { required: () => true },
    rotateRefreshToken: true,
    scopes: ['openid', 'offline_access', 'api'],
    ttl: { AccessToken: ttl, ClientCredentials: ttl },
    features: {
      devInteractions: { enabled: true },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => DEV_RESOURCE,
        useGrantedResource: () => true,
        getResourceServerInfo: () => ({
          scope: 'api',
          audience,
          accessTokenTTL: ttl,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
    extraTokenClaims: (_ctx: unknown, token: { clientId?: string; accountId?: string }) =>
      claimAt(
        rolesClaim,
        token.accountId ? accountRoles(token.accountId) : (roles[token.clientId ?? ''] ?? []),
      ),
  })

  const mintToken = async (clientId: string): Promise<string> => {
    const client = clients[clientId]
    if (!client) throw new Error(`Unknown development client "${clientId}"`)
    const response = await fetch(`${issuer}/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${clientId}:${client.secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', resource: DEV_RESOURCE, scope: 'api' }),
      signal: AbortSignal.timeout(10_000),
    })
    const body = (await response.json()) as { access_token?: string; error?: string }
    if (!response.ok || !body.access_token)
      throw new Error(`token request failed: ${body.error ?? response.status}`)
    return body.access_token
  }

  return { issuer, audience, clients, callback: provider.callback(), mintToken }
}

/**
 * Starts the development provider on 127.0.0.1 (a free port unless `port` is given).
 *
 * @example
 * const idp = await startDevIdp({ audience: config.oidc.audience, rolesClaim: config.oidc.rolesClaim })
 * const token = await idp.mintToken('dev-creator')
 * await idp.close()
 */
export async function startDevIdp(options: DevIdpOptions & { port?: number } = {}): Promise<StartedDevIdp> {
  if (options.production) throw new Error('The development identity provider never runs in production')
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined
  const server = createServer((req, res) => {
    if (handler) handler(req, res)
    else res.writeHead(503).end()
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const idp = createDevIdp(`http://127.0.0.1:${port}`, options)
  handler = idp.callback
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  return { ...idp, server, close }
}

/** How to obtain a token per role from a started development provider (printed by the server at start). */
export function devIdpInstructions(idp: DevIdp): string {
  const lines = [
    `Development identity provider at ${idp.issuer} (loopback only; never used in production).`,
    'Get an access token for a role (15 minutes), then call the API with "Authorization: Bearer <token>":',
  ]
  for (const [id, c] of Object.entries(idp.clients)) {
    if (!(id in DEV_ROLES)) continue
    lines.push(
      `  ${(c.roles[0] ?? 'reader').padEnd(13)} curl -s -u ${id}:${c.secret} -d grant_type=client_credentials -d resource=${DEV_RESOURCE} -d scope=api ${idp.issuer}/token`,
    )
  }
  lines.push(`Browser client "spkg-web": authorization code + PKCE (S256) at ${idp.issuer}/auth`)
  lines.push(
    "oidc-provider's warnings above (in-memory adapter, development interactions) are expected: this provider is for development only and keeps nothing across restarts.",
  )
  return lines.join('\n')
}
