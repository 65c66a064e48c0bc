/**
 * Where the player signs in: the identity provider the API trusts, the public client id, and the callback.
 *
 * The issuer comes from the API itself (`GET /api/health/auth` names the issuer whose tokens it accepts), so one
 * build of the player works against any deployment; a build can pin it with `VITE_SPKG_OIDC_ISSUER`. The client id is
 * `spkg-web` (the development provider's browser client) unless `VITE_SPKG_OIDC_CLIENT_ID` says otherwise. The
 * callback is the player's only document, `/` of its origin: the provider sends the browser back there with `code`
 * and `state` in the query, and the hash route the reader was on is restored afterwards.
 */

/** What `createAuth` needs, resolved for this page. */
export interface AuthConfig {
  issuer: string
  clientId: string
  redirectUri: string
  /** Extra authorisation parameters (`resource`), from `VITE_SPKG_OIDC_RESOURCE`. */
  extraParams?: Record<string, string>
}

/** Build-time settings (Vite's `import.meta.env`), all optional. */
export interface AuthEnv {
  VITE_SPKG_OIDC_ISSUER?: string | undefined
  VITE_SPKG_OIDC_CLIENT_ID?: string | undefined
  VITE_SPKG_OIDC_RESOURCE?: string | undefined
}

/** The public client id of the browser player at the development provider. */
export const DEFAULT_CLIENT_ID = 'spkg-web'

/**
 * Resolves the sign-in settings; undefined when the API names no identity provider (sign-in is then unavailable and
 * the header says so). Never throws: an unreachable API also gives undefined (offline start).
 *
 * @example
 * const config = await resolveAuthConfig({ origin: location.origin, fetch, env: import.meta.env })
 */
export async function resolveAuthConfig(options: {
  origin: string
  fetch: (input: string, init?: RequestInit) => Promise<Response>
  env?: AuthEnv
}): Promise<AuthConfig | undefined> {
  const env = options.env ?? {}
  let issuer = env.VITE_SPKG_OIDC_ISSUER?.trim() || undefined
  if (!issuer) {
    try {
      const res = await options.fetch(`${options.origin}/api/health/auth`, {
        headers: { accept: 'application/json' },
      })
      const body = (await res.json()) as { issuer?: unknown }
      if (typeof body.issuer === 'string' && /^https?:\/\//.test(body.issuer)) issuer = body.issuer
    } catch {
      return undefined
    }
  }
  if (!issuer) return undefined
  const resource = env.VITE_SPKG_OIDC_RESOURCE?.trim()
  return {
    issuer,
    clientId: env.VITE_SPKG_OIDC_CLIENT_ID?.trim() || DEFAULT_CLIENT_ID,
    redirectUri: `${options.origin}/`,
    ...(resource && { extraParams: { resource } }),
  }
}
