/**
 * The repository URL rules: a pure parser, kept apart from the code that downloads (as giget's
 * `parseGitURI`). Exactly two shapes are accepted, checked on the raw text before any URL
 * normalisation could hide a `..`, a `%2F` or a look-alike host:
 * `https://{repoHost}/<owner>/<repo>` and `https://{repoHost}/<owner>/<repo>/tree/<ref>`.
 */
import { createDiagnostic, type Diagnostic } from '@spkg/manifest'
import { DEFAULT_REPO_HOST, normalizeHost } from './hosts'

/** A repository URL taken apart by {@link parseRepoUrl}. */
export interface RepoLocation {
  owner: string
  repo: string
  /** The ref after `/tree/` (may contain `/`); absent for the default branch. */
  ref?: string
}

/** The outcome of {@link parseRepoUrl}: the location, or the `repo/invalid-url` diagnostic. */
export type ParseRepoUrlResult = ({ ok: true } & RepoLocation) | { ok: false; diagnostic: Diagnostic }

/** GitHub's user and organisation names: ASCII letters, digits and single inner hyphens, at most 39. */
const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/
/** GitHub's repository names: ASCII letters, digits, `.`, `_`, `-`, at most 100 (not `.` or `..`). */
const REPO = /^[A-Za-z0-9._-]{1,100}$/
/** One segment of a ref: a safe subset of git's ref-name rules (no `~^:?*[\`, space, `@{`, control). */
const REF_SEGMENT = /^[A-Za-z0-9_+-][A-Za-z0-9._+-]{0,99}$/
/** Refs with more segments than this are refused (each may cost an API request to resolve). */
export const MAX_REF_SEGMENTS = 8

/**
 * Parses a repository URL given by a user. Never throws; a refusal is `repo/invalid-url` with a
 * message naming the accepted shapes and what was wrong.
 *
 * @example
 * const r = parseRepoUrl('https://github.com/owner/story/tree/v1.2')
 * if (r.ok) console.log(r.owner, r.repo, r.ref) // owner story v1.2
 */
export function parseRepoUrl(url: string, options: { repoHost?: string } = {}): ParseRepoUrlResult {
  const host = normalizeHost(options.repoHost ?? DEFAULT_REPO_HOST)
  const shapes = `https://${host}/<owner>/<repo> or https://${host}/<owner>/<repo>/tree/<ref>`
  const refuse = (why: string): ParseRepoUrlResult => ({
    ok: false,
    diagnostic: createDiagnostic('repo/invalid-url', `not a repository URL (${why}); give ${shapes}`),
  })
  if (typeof url !== 'string') return refuse('not a string')
  if (url.length > 2048) return refuse('longer than 2048 characters')
  if (/[\u0000-\u0020\u007f-\uffff\\]/.test(url)) return refuse('spaces, control, non-ASCII or \\ characters')
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)(.*)$/.exec(url)
  if (!m) return refuse('not an absolute URL')
  const [, scheme, authority, path, rest] = m as unknown as [string, string, string, string, string]
  if (scheme.toLowerCase() !== 'https') return refuse(`the scheme is ${scheme}:, only https: is accepted`)
  if (authority.includes('@')) return refuse('user information before the host is not accepted')
  if (authority.toLowerCase() !== host)
    return refuse(
      `the host is '${authority}'; only '${host}' is accepted${/\.$/.test(authority) ? ' (no trailing dot)' : ''}`,
    )
  if (rest !== '') return refuse('a query or fragment is not accepted')
  if (path.includes('%')) return refuse('percent-encoded characters are not accepted')
  if (path === '' || path === '/') return refuse('the owner and repository names are missing')
  const segments = path.split('/').slice(1)
  if (segments.some((s) => s === '')) return refuse('empty path segments are not accepted')
  if (segments.some((s) => s === '.' || s === '..')) return refuse("'.' and '..' segments are not accepted")
  const [owner, repo, tree, ...ref] = segments as [string, string?, string?, ...string[]]
  if (repo === undefined) return refuse('the repository name is missing')
  if (!OWNER.test(owner)) return refuse(`'${owner}' is not a valid owner name`)
  if (!REPO.test(repo) || repo.endsWith('.git'))
    return refuse(`'${repo}' is not a valid repository name${repo.endsWith('.git') ? ' (drop .git)' : ''}`)
  if (tree === undefined) return { ok: true, owner, repo }
  if (tree !== 'tree' || ref.length === 0) return refuse(`only /tree/<ref> may follow the repository name`)
  if (ref.length > MAX_REF_SEGMENTS) return refuse(`a ref of more than ${MAX_REF_SEGMENTS} segments`)
  const bad = ref.find((s) => !REF_SEGMENT.test(s) || s.endsWith('.lock') || s.endsWith('.'))
  if (bad !== undefined) return refuse(`'${bad}' is not a valid ref segment`)
  return { ok: true, owner, repo, ref: ref.join('/') }
}
