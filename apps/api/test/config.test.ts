import { describe, expect, it } from 'vitest'
import { loadConfig } from '../src/config'
import { configIssues } from './helpers/config-issues'

describe('loadConfig', () => {
  it('has a default for everything outside production', () => {
    const c = loadConfig({})
    expect(c).toMatchObject({
      host: '127.0.0.1',
      port: 3000,
      nodeEnv: 'development',
      isProduction: false,
      databaseUrl: undefined,
      pgliteDir: '.data/pglite',
      redisUrl: undefined,
      oidc: { issuer: undefined, audience: 'spkg-api', rolesClaim: 'roles' },
      cors: { origins: [] },
      publicUrl: 'http://127.0.0.1:3000',
      trustProxy: false,
      authEventsRetentionDays: 90,
    })
    expect(Object.isFrozen(c) && Object.isFrozen(c.oidc)).toBe(true)
  })

  it('has connection timeouts, each settable, the headers and keep-alive ones not above the request timeout', () => {
    expect(loadConfig({}).timeouts).toEqual({
      requestMs: 30_000,
      headersMs: 10_000,
      keepAliveMs: 5_000,
      connectionMs: 70_000,
      shutdownMs: 10_000,
    })
    expect(
      loadConfig({
        REQUEST_TIMEOUT_MS: '60000',
        HEADERS_TIMEOUT_MS: '20000',
        KEEP_ALIVE_TIMEOUT_MS: '59000',
        CONNECTION_TIMEOUT_MS: '95000',
        SHUTDOWN_TIMEOUT_MS: '2000',
      }).timeouts,
    ).toEqual({
      requestMs: 60_000,
      headersMs: 20_000,
      keepAliveMs: 59_000,
      connectionMs: 95_000,
      shutdownMs: 2000,
    })
    expect(
      configIssues({
        REQUEST_TIMEOUT_MS: '5000',
        HEADERS_TIMEOUT_MS: '6000',
        KEEP_ALIVE_TIMEOUT_MS: '7000',
      }),
    ).toEqual([
      'HEADERS_TIMEOUT_MS: must be at most REQUEST_TIMEOUT_MS (5000)',
      'KEEP_ALIVE_TIMEOUT_MS: must be at most REQUEST_TIMEOUT_MS (5000)',
    ])
    expect(configIssues({ REQUEST_TIMEOUT_MS: '10', SHUTDOWN_TIMEOUT_MS: 'soon' })).toEqual([
      'REQUEST_TIMEOUT_MS: must be at least 100',
      'SHUTDOWN_TIMEOUT_MS: must be an integer from 100 to 600000',
    ])
  })

  it('refuses a connection timeout that would cut an upload off before its answer', () => {
    // The connection is idle from the end of the body to the answer: the wait for a validation place, the
    // validation, storing. The former defaults (30 s against a 60 s validation) closed it first.
    const why =
      "an upload's connection is idle while its package waits for and takes its validation, and would be closed before its answer"
    const noImport = { REPO_IMPORT: 'false' }
    expect(
      configIssues({ ...noImport, CONNECTION_TIMEOUT_MS: '30000', VALIDATION_TIMEOUT_MS: '60000' }),
    ).toEqual([
      `CONNECTION_TIMEOUT_MS: must be more than VALIDATION_QUEUE_WAIT_MS + VALIDATION_TIMEOUT_MS (80000): ${why}`,
    ])
    const small = { ...noImport, VALIDATION_TIMEOUT_MS: '1000', VALIDATION_QUEUE_WAIT_MS: '500' }
    expect(configIssues({ ...small, CONNECTION_TIMEOUT_MS: '1500' })).toEqual([
      `CONNECTION_TIMEOUT_MS: must be more than VALIDATION_QUEUE_WAIT_MS + VALIDATION_TIMEOUT_MS (1500): ${why}`,
    ])
    expect(loadConfig({ ...small, CONNECTION_TIMEOUT_MS: '1501' }).publishing).toMatchObject({
      timeoutMs: 1000,
      queueWaitMs: 500,
    })
    // The defaults are consistent, with 20 s left for storing the package after its validation.
    const d = loadConfig({})
    expect(d.timeouts.connectionMs - d.publishing.queueWaitMs - d.publishing.timeoutMs).toBe(20_000)
  })

  it('refuses a connection timeout that would cut an import off during its download', () => {
    // An import's connection is idle while the repository downloads (REPO_TIMEOUT_MS), then as an upload's.
    const why =
      "while repository import is on: an import's connection is idle while the repository downloads and its package " +
      'is checked, and would be closed before its answer (or set REPO_IMPORT=false)'
    const small = {
      VALIDATION_TIMEOUT_MS: '1000',
      VALIDATION_QUEUE_WAIT_MS: '500',
      CONNECTION_TIMEOUT_MS: '4000',
    }
    expect(configIssues({ ...small, REPO_TIMEOUT_MS: '2500' })).toEqual([
      `CONNECTION_TIMEOUT_MS: must be more than REPO_TIMEOUT_MS + VALIDATION_QUEUE_WAIT_MS + VALIDATION_TIMEOUT_MS (4000) ${why}`,
    ])
    expect(loadConfig({ ...small, REPO_TIMEOUT_MS: '2499' }).repo.timeoutMs).toBe(2499)
    expect(configIssues({ ...small, REPO_TIMEOUT_MS: '2500', REPO_IMPORT: 'false' })).toEqual([])
    // The defaults leave 5 s for storing an import after its download and validation.
    const d = loadConfig({})
    expect(
      d.timeouts.connectionMs - d.repo.timeoutMs - d.publishing.queueWaitMs - d.publishing.timeoutMs,
    ).toBe(5_000)
  })

  it('reads every variable', () => {
    const c = loadConfig({
      HOST: '0.0.0.0',
      PORT: '8080',
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://u@db:5432/spkg',
      REDIS_URL: 'redis://cache:6379',
      OIDC_ISSUER: 'https://id.example.org/realms/spkg/',
      OIDC_AUDIENCE: 'spkg',
      OIDC_ROLES_CLAIM: 'realm_access.roles',
      CORS_ORIGINS: 'https://app.example.org, https://admin.example.org/',
      AUTH_URL: 'https://id.example.org',
      FILES_URL: 'https://files.example.org',
      ERRORS_URL: 'https://errors.example.org',
      PUBLIC_URL: 'https://api.example.org',
      TRUST_PROXY: '2',
      AUTH_EVENTS_RETENTION_DAYS: '30',
    })
    expect(c).toMatchObject({
      host: '0.0.0.0',
      port: 8080,
      isProduction: true,
      oidc: {
        issuer: 'https://id.example.org/realms/spkg',
        audience: 'spkg',
        rolesClaim: 'realm_access.roles',
      },
      cors: { origins: ['https://app.example.org', 'https://admin.example.org'] },
      csp: {
        authUrl: 'https://id.example.org',
        filesUrl: 'https://files.example.org',
        errorsUrl: 'https://errors.example.org',
      },
      publicUrl: 'https://api.example.org',
      trustProxy: 2,
      authEventsRetentionDays: 30,
    })
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true)
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
    ])
  })

  it('lists one line per bad setting, naming it', () => {
    expect(
      configIssues({
        PORT: '70000',
        NODE_ENV: 'staging',
        DATABASE_URL: 'mysql://x',
        OIDC_ISSUER: 'not a url',
        CORS_ORIGINS: 'https://ok.example.org,nope',
        AUTH_EVENTS_RETENTION_DAYS: '0',
        TRUST_PROXY: 'maybe?',
      }),
    ).toEqual([
      'PORT: must be at most 65535',
      'NODE_ENV: must be one of development, production, test',
      'DATABASE_URL: must be an absolute postgres:// URL',
      'OIDC_ISSUER: must be an absolute http(s) URL',
      'CORS_ORIGINS: must be a comma-separated list of origins such as https://app.example.org',
      'TRUST_PROXY: must be true, false, a hop count or a comma-separated list of proxy addresses/CIDRs',
      'AUTH_EVENTS_RETENTION_DAYS: must be at least 1',
    ])
  })

  it('requires OIDC_ISSUER and DATABASE_URL in production, and an https issuer', () => {
    expect(configIssues({ NODE_ENV: 'production' })).toEqual([
      'OIDC_ISSUER: is required in production',
      'DATABASE_URL: is required in production',
    ])
    expect(
      configIssues({
        NODE_ENV: 'production',
        OIDC_ISSUER: 'http://id.example.org',
        DATABASE_URL: 'postgres://db/spkg',
      }),
    ).toEqual(['OIDC_ISSUER: must be an https:// URL in production'])
    expect(loadConfig({ OIDC_ISSUER: 'http://127.0.0.1:4000' }).oidc.issuer).toBe('http://127.0.0.1:4000')
  })

  it('multiplies the throttles by RATE_LIMIT_MAX_FACTOR outside production only', () => {
    expect(loadConfig({}).rateLimitMaxFactor).toBe(1)
    expect(loadConfig({ NODE_ENV: 'test', RATE_LIMIT_MAX_FACTOR: '10' }).rateLimitMaxFactor).toBe(10)
    expect(configIssues({ RATE_LIMIT_MAX_FACTOR: '0' })).toEqual([
      'RATE_LIMIT_MAX_FACTOR: must be at least 1',
    ])
    expect(configIssues({ RATE_LIMIT_MAX_FACTOR: '2.5' })).toEqual([
      'RATE_LIMIT_MAX_FACTOR: must be an integer from 1 to 10000000',
    ])
    const production = {
      NODE_ENV: 'production',
      OIDC_ISSUER: 'https://id.example.org',
      DATABASE_URL: 'postgres://db/spkg',
    }
    expect(loadConfig({ ...production, RATE_LIMIT_MAX_FACTOR: '1' }).rateLimitMaxFactor).toBe(1)
    expect(configIssues({ ...production, RATE_LIMIT_MAX_FACTOR: '100' })).toEqual([
      'RATE_LIMIT_MAX_FACTOR: must be 1 in production (the SPEC limits apply)',
    ])
  })

  it('ConfigError prints one line per problem', () => {
    expect(() => loadConfig({ PORT: 'x' })).toThrow(
      'Invalid configuration:\n  PORT: must be an integer from 0 to 65535',
    )
  })
})
