import { defineCodes } from './types'

/** Codes of loading a package from a repository (owned by @spkg/repo-import). */
export const REPO_CODES = defineCodes({
  'repo/invalid-url': {
    severity: 'fatal',
    description:
      'the repository URL is not `https://{repo_host}/<owner>/<repo>` or `https://{repo_host}/<owner>/<repo>/tree/<ref>`; nothing was requested',
  },
  'repo/not-found': {
    severity: 'fatal',
    description: 'the repository host answered 404: the repository or ref does not exist, or is private',
  },
  'repo/rate-limited': {
    severity: 'fatal',
    description: 'the repository host refused the request for its rate limit; the message says when to retry',
  },
  'repo/fetch-failed': {
    severity: 'fatal',
    description: 'the repository download failed: a network error or an unexpected status from the host',
  },
  'repo/timeout': {
    severity: 'fatal',
    description:
      'the repository download took longer than the total timeout, or stalled past the stall timeout',
  },
  'repo/redirect-refused': {
    severity: 'fatal',
    description:
      'the host redirected to a URL that is not HTTPS, not on the download-host allow-list, or past 3 hops; it was not requested',
  },
  'repo/address-refused': {
    severity: 'fatal',
    description:
      'an allowed host name resolved to a loopback, private, link-local or metadata address (DNS-rebinding guard); no connection was made',
  },
  'repo/unexpected-layout': {
    severity: 'fatal',
    description: 'the downloaded archive does not have exactly one top folder (the wrapper the host adds)',
  },
  'repo/ignored-file': {
    severity: 'info',
    description:
      'a repository file a package does not carry (`.github/`, `README.md`, `LICENSE`...) was left out',
  },
})
