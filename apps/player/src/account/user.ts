/**
 * The signed-in user as the player shows it, read from the access token's claims (a JWT): the token is already in the
 * page and the API trusts exactly these claims, so no profile request is needed to name the reader.
 */

/** Who is signed in. */
export interface AccountUser {
  /** The token's `sub`: the user id the API keys progress by. */
  id: string
  /** What the header shows: `name`, `preferred_username`, `email`, else `sub`. */
  name: string
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined)

/** Decodes the payload of a JWT without checking it (the API checks it); undefined when it is not one. */
export function decodeJwtPayload(token: string): Record<string, unknown> | undefined {
  const part = token.split('.')[1]
  if (!part || token.split('.').length !== 3) return undefined
  try {
    const b64 = part.replace(/-/g, '+').replace(/_/g, '/')
    const bytes = Uint8Array.from(atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4)), (c) => c.charCodeAt(0))
    const payload: unknown = JSON.parse(new TextDecoder().decode(bytes))
    return payload && typeof payload === 'object' && !Array.isArray(payload)
      ? (payload as Record<string, unknown>)
      : undefined
  } catch {
    return undefined
  }
}

/** The user named by an access token; undefined when the token is not a JWT with a `sub`. */
export function userFromToken(token: string | undefined): AccountUser | undefined {
  if (!token) return undefined
  const claims = decodeJwtPayload(token)
  const id = text(claims?.sub)
  if (!claims || !id) return undefined
  return { id, name: text(claims.name) ?? text(claims.preferred_username) ?? text(claims.email) ?? id }
}
