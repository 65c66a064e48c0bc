import { defineCodes, fatal, info } from './types'

/** Codes of loading a package from a repository (owned by @spkg/repo-import). */
export const REPO_CODES = defineCodes({
  'repo/invalid-url': fatal(
    'the repository URL is not `https://{repo_host}/<owner>/<repo>` or `https://{repo_host}/<owner>/<repo>/tree/<ref>`; nothing was requested',
  ),
  'repo/not-found': fatal(
    'the repository host answered 404: the repository or ref does not exist, or is private',
  ),
  'repo/rate-limited': fatal(
    'the repository host refused the request for its rate limit; the message says when to retry',
  ),
  'repo/fetch-failed': fatal(
    'the repository download failed: a network error or an unexpected status from the host',
  ),
  'repo/timeout': fatal(
    'the repository download took longer than the total timeout, or stalled past the stall timeout',
  ),
  'repo/redirect-refused': fatal(
    'the host redirected to a URL that is not HTTPS, not on the download-host allow-list, or past 3 hops; it was not requested',
  ),
  'repo/address-refused': fatal(
    'an allowed host name resolved to a loopback, private, link-local or metadata address (DNS-rebinding guard); no connection was made',
  ),
  'repo/unexpected-layout': fatal(
    'the downloaded archive does not have exactly one top folder (the wrapper the host adds)',
  ),
  'repo/ignored-file': info(
    'a repository file a package does not carry (`.github/`, `README.md`, `LICENSE`...) was left out',
  ),
})
