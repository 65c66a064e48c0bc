/**
 * Security headers and cross-origin rules (SPEC: Response security headers, Authentication / Cross-origin rules).
 *
 * Register this plugin BEFORE the auth plugin: CORS must answer preflights and decorate 401 answers, or a browser
 * sees a 401 as a network error (status 0) and the client's login redirect never fires.
 */
import cors from '@fastify/cors'
import helmet from '@fastify/helmet'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { Config } from '../config'

/** The rate-limit tiers whose headers browsers may read (see the rate-limit plugin). */
export const RATE_LIMIT_TIERS = ['short', 'long'] as const

/** Response headers exposed to cross-origin scripts: `Retry-After` and the per-tier rate-limit headers. */
export const EXPOSED_HEADERS: readonly string[] = [
  'Retry-After',
  ...RATE_LIMIT_TIERS.flatMap((t) => [
    `X-RateLimit-Limit-${t}`,
    `X-RateLimit-Remaining-${t}`,
    `X-RateLimit-Reset-${t}`,
  ]),
]

/** The part of the API configuration this plugin reads (structurally a subset of `Config`). */
export interface SecurityOptions {
  cors: { origins: readonly string[] }
  csp: {
    authUrl?: string | undefined
    filesUrl?: string | undefined
    errorsUrl?: string | undefined
    fontCssHost: string
    fontHost: string
  }
  /** Absolute address of the API; `Reporting-Endpoints` points at `<publicUrl>/api/csp-report`. */
  publicUrl: string
  /**
   * `NODE_ENV=production`. Outside production the policy leaves out `upgrade-insecure-requests`: the development
   * server speaks plain http, and on any address but loopback browsers would rewrite the docs' scripts and styles to
   * https and show a blank page. @default true (the SPEC's policy)
   */
  isProduction?: boolean
}

/**
 * The slice of the configuration the plugin is given: these four settings and nothing else, so that what it reads
 * is what its options type says.
 */
export function securitySettings(
  config: Pick<Config, 'cors' | 'csp' | 'publicUrl' | 'isProduction'>,
): SecurityOptions {
  const { cors, csp, publicUrl, isProduction } = config
  return { cors, csp, publicUrl, isProduction }
}

const present = (...values: (string | undefined)[]): string[] =>
  values.filter((v): v is string => typeof v === 'string' && v.length > 0)

/**
 * Builds the SPEC's content security policy directives, in the SPEC's order, with the configured URLs filled in
 * (an unset URL is left out rather than written as an empty source). `upgradeInsecureRequests: false` (outside
 * production) leaves that one directive out.
 *
 * @example
 * buildCspDirectives({ authUrl: 'https://id.example', fontCssHost: 'https://f.css', fontHost: 'https://f' })
 * // { defaultSrc: ["'self'"], ..., connectSrc: ["'self'", 'https://id.example'], ... }
 */
export function buildCspDirectives(
  csp: SecurityOptions['csp'],
  { upgradeInsecureRequests = true }: { upgradeInsecureRequests?: boolean } = {},
): Record<string, string[]> {
  const directives: Record<string, string[]> = {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'", ...present(csp.fontCssHost)],
    fontSrc: ["'self'", ...present(csp.fontHost)],
    imgSrc: ["'self'", 'data:', 'blob:', ...present(csp.filesUrl)],
    connectSrc: ["'self'", ...present(csp.authUrl, csp.filesUrl, csp.errorsUrl)],
    frameSrc: ["'self'", ...present(csp.authUrl)],
    frameAncestors: ["'self'"],
    objectSrc: ["'none'"],
    workerSrc: ["'self'", 'blob:'],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    upgradeInsecureRequests: [],
    reportUri: ['/api/csp-report'],
    reportTo: ['csp-endpoint'],
  }
  if (!upgradeInsecureRequests) delete directives.upgradeInsecureRequests
  return directives
}

/** A preflight needs `Origin` and `Access-Control-Request-Method` (the CORS plugin's own refusal is text/plain). */
const invalidPreflight = () =>
  Object.assign(
    new Error('Invalid preflight request: the Origin and Access-Control-Request-Method headers are required'),
    { statusCode: 400, code: 'VALIDATION_FAILED' },
  )

async function security(app: FastifyInstance, opts: SecurityOptions): Promise<void> {
  await app.register(cors, {
    origin: [...opts.cors.origins],
    credentials: true,
    maxAge: 7200,
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Content-Type', 'Authorization'],
    exposedHeaders: [...EXPOSED_HEADERS],
    // The plugin answers preflights inside its onRequest hook, before any later hook; continuing lets the
    // rate-limit plugin count them (by IP) and the hook below answer them, with the API's error body when invalid.
    preflightContinue: true,
    strictPreflight: false,
  })
  // Every OPTIONS request is a preflight (the CORS plugin's `OPTIONS *` route): 204 with the preflight headers the
  // CORS plugin set, or 400 in the API's error body when it lacks Origin or Access-Control-Request-Method.
  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'OPTIONS') return
    if (!request.headers.origin || !request.headers['access-control-request-method']) throw invalidPreflight()
    reply.code(204).header('content-length', '0')
  })
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: buildCspDirectives(opts.csp, { upgradeInsecureRequests: opts.isProduction !== false }),
    },
  })
  const reportingEndpoints = `csp-endpoint="${opts.publicUrl.replace(/\/+$/, '')}/api/csp-report"`
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('Reporting-Endpoints', reportingEndpoints)
  })
}

/**
 * CORS from the configured origin list (methods GET POST PUT PATCH DELETE OPTIONS, headers `Content-Type` and
 * `Authorization`, credentials, preflight max age 7200, the rate-limit and `Retry-After` headers exposed; a preflight
 * without `Origin` or `Access-Control-Request-Method` is a 400 in the API's error body), helmet with the SPEC's CSP
 * (`report-uri /api/csp-report`, `report-to csp-endpoint`; outside production without `upgrade-insecure-requests`)
 * and a `Reporting-Endpoints` header.
 *
 * @example
 * await app.register(securityPlugin, securitySettings(config)) // before authPlugin
 */
export const securityPlugin = fp(security, { name: 'spkg-security', fastify: '5.x' })
