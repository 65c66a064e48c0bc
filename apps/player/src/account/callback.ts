/**
 * The sign-in callback: the provider sends the browser back to `/` of the player with the authorisation response in
 * the query (`code` and `state`, or `error`). These helpers recognise that address, and give the clean address to
 * show once it is handled (the query removed, the hash route the reader was on restored).
 */

const RESPONSE_PARAMS = ['code', 'state', 'iss', 'error', 'error_description', 'error_uri', 'session_state']

/** Whether `url` carries an authorisation response (`state` with `code` or `error`). */
export function isAuthCallback(url: string | URL): boolean {
  const u = new URL(String(url))
  return u.searchParams.has('state') && (u.searchParams.has('code') || u.searchParams.has('error'))
}

/** The error the provider sent back (`error`, `error_description`), if any. */
export function callbackError(url: string | URL): string | undefined {
  const u = new URL(String(url))
  const error = u.searchParams.get('error')
  if (!error) return undefined
  const description = u.searchParams.get('error_description')
  return description ? `${error}: ${description}` : error
}

/** `url` without the authorisation response in its query, with `hash` (a route such as `#/story/x`) when given. */
export function cleanCallbackUrl(url: string | URL, hash?: string): string {
  const u = new URL(String(url))
  for (const p of RESPONSE_PARAMS) u.searchParams.delete(p)
  if (hash !== undefined) u.hash = hash.startsWith('#') || hash === '' ? hash : `#${hash}`
  return u.href
}

/**
 * The page address the loop protection of `@spkg/client/auth` compares with the callback: the callback only when the
 * page really carries an authorisation response, else an address that is never the callback. The player has one
 * document, `/`, which is also its callback; without this, `login()` would refuse to leave any page of the player.
 */
export function loopProtectionUrl(url: string | URL): string {
  return isAuthCallback(url) ? String(url) : 'about:player'
}
