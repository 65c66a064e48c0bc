/**
 * `REPO_TOKEN` is used for public repositories only. The import route names whatever owner and
 * repository the caller gives; a token that reads private repositories would otherwise let any creator import them.
 * Before the token goes with a download, {@link checkPublicRepository} asks the host's API for the repository's
 * metadata (`GET https://<REPO_API_HOST>/repos/<owner>/<repo>`) and goes on only when it answers `private: false`
 * (and, when present, `visibility: "public"`; GitHub's `internal` repositories are refused).
 *
 * The metadata request carries the token: the decision rests on the host's `private` flag, which the token cannot
 * change, and the token's rate limit (GitHub: 5,000 an hour) applies instead of the anonymous one (60 an hour per
 * address, which a handful of creators would use up). A private repository the token reads and a repository that
 * does not exist get the same answer, so the refusal tells the caller nothing about private repositories. A
 * redirect (a renamed repository) is refused too: the caller gives the current address.
 */
import type { PublicDiagnostic } from './publish-package'

/** Options of {@link checkPublicRepository}. */
export interface VisibilityOptions {
  /** REPO_API_HOST (host[:port]). */
  apiHost: string
  /** REPO_HOST, for messages. */
  repoHost: string
  token: string
  fetch: typeof fetch
  signal: AbortSignal
  /** The metadata request must answer within this. @default 15000 */
  timeoutMs?: number
}

/** The diagnostic code of a repository that is not public while REPO_TOKEN is set. */
export const NOT_PUBLIC_CODE = 'api/repository-not-public'

/** Metadata bodies larger than this are refused (GitHub's are about 6 KB). */
const MAX_METADATA_BYTES = 1_048_576

const fatal = (code: string, message: string): PublicDiagnostic => ({
  code,
  severity: 'fatal',
  message,
  path: null,
})

/**
 * Null when `owner/repo` is a public repository of the host; else the diagnostic to refuse the import with
 * (`api/repository-not-public`, `repo/rate-limited` or `repo/fetch-failed`). Never throws, except when `signal`
 * aborts.
 *
 * @example
 * const refused = await checkPublicRepository({ owner: 'o', repo: 'story' }, { apiHost, repoHost, token, fetch, signal })
 */
export async function checkPublicRepository(
  loc: { owner: string; repo: string },
  options: VisibilityOptions,
): Promise<PublicDiagnostic | null> {
  const name = `${loc.owner}/${loc.repo}`
  const notPublic = fatal(
    NOT_PUBLIC_CODE,
    `${name} is not a public repository on ${options.repoHost} (or it does not exist): this platform imports public repositories only`,
  )
  const timeoutMs = options.timeoutMs ?? 15_000
  const signal = AbortSignal.any([options.signal, AbortSignal.timeout(timeoutMs)])
  let res: Response
  let body: string
  try {
    res = await options.fetch(`https://${options.apiHost}/repos/${name}`, {
      headers: {
        accept: 'application/vnd.github+json',
        'x-github-api-version': '2022-11-28',
        authorization: `Bearer ${options.token}`,
      },
      redirect: 'manual',
      signal,
    })
    body = await boundedText(res)
  } catch (err) {
    options.signal.throwIfAborted()
    const why = signal.aborted ? `no answer within ${timeoutMs} ms` : (err as Error)?.message
    return fatal(
      'repo/fetch-failed',
      `the repository host could not be asked whether ${name} is public: ${why}`,
    )
  }
  if (res.status === 404 || (res.status >= 300 && res.status < 400)) return notPublic
  const h = res.headers
  if (
    res.status === 429 ||
    ((res.status === 401 || res.status === 403) &&
      (h.get('x-ratelimit-remaining') === '0' || h.has('retry-after')))
  )
    return fatal(
      'repo/rate-limited',
      `${options.apiHost} refused the request for its rate limit; retry later`,
    )
  if (res.status !== 200)
    return fatal('repo/fetch-failed', `${options.apiHost} answered ${res.status} for ${name}`)
  let meta: { private?: unknown; visibility?: unknown }
  try {
    meta = JSON.parse(body) as typeof meta
  } catch {
    return fatal('repo/fetch-failed', `${options.apiHost} answered ${name}'s metadata with no JSON`)
  }
  if (meta?.private !== false) return notPublic
  if (meta.visibility !== undefined && meta.visibility !== 'public') return notPublic
  return null
}

/** The body as text, refused past {@link MAX_METADATA_BYTES}. */
async function boundedText(res: Response): Promise<string> {
  if (!res.body) return ''
  const reader = res.body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    total += value.length
    if (total > MAX_METADATA_BYTES) {
      await reader.cancel().catch(() => {})
      throw new Error(`the metadata answer is larger than ${MAX_METADATA_BYTES} bytes`)
    }
    chunks.push(value)
  }
  return Buffer.concat(chunks).toString('utf8')
}
