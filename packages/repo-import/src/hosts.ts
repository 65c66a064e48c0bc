/**
 * Host names of the configuration: the defaults (GitHub), and the one normal form they are
 * compared in (lower case; a port kept when one is named).
 */

/** The repository host users' URLs name. */
export const DEFAULT_REPO_HOST = 'github.com'
/** The host the API requests (ref resolution, zipball) go to. */
export const DEFAULT_REPO_API_HOST = 'api.github.com'
/** The hosts a zipball download may be redirected to. */
export const DEFAULT_DOWNLOAD_HOSTS: readonly string[] = ['codeload.github.com']

/**
 * A configured host in its normal form. A configuration value is the embedder's, not a user's:
 * a value that is not `name` or `name:port` is a programming error (`TypeError`).
 */
export function normalizeHost(host: string): string {
  const h = host.trim().toLowerCase()
  if (!/^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*(?::[0-9]{1,5})?$/.test(h))
    throw new TypeError(`repository host '${host}' is not a host name with an optional port`)
  return h
}
