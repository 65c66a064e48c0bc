/**
 * Downloads a repository's zipball within the configured hosts and budgets, and unwraps it:
 * ref resolution through the API, redirects followed by hand (at most 3, HTTPS, allow-listed
 * hosts), the token sent to the API host only, the compressed size counted as it arrives, a total
 * and a stall timeout. Web APIs only; the DNS-rebinding guard is the Node fetch of `./node`.
 */
import { createDiagnostic, type Diagnostic, type DiagnosticCode, LIMITS } from '@spkg/manifest'
import { ADDRESS_REFUSED } from './address-refused'
import { DEFAULT_DOWNLOAD_HOSTS, DEFAULT_REPO_API_HOST, DEFAULT_REPO_HOST, normalizeHost } from './hosts'
import type { RepoImportOptions, RepositorySource } from './options'
import { parseRepoUrl, type RepoLocation } from './parse-repo-url'
import { unwrapZipball } from './unwrap-zipball'

/** The outcome of {@link fetchRepositoryArchive}. */
export type FetchArchiveResult =
  | {
      ok: true
      /** The archive of the repository root (wrapper folder and ignored files removed), for `@spkg/reader`. */
      bytes: Uint8Array
      source: RepositorySource
      /** `repo/ignored-file` (info) for each file left out. */
      diagnostics: Diagnostic[]
    }
  | { ok: false; diagnostics: Diagnostic[] }

const MAX_HOPS = 3
const DEFAULT_TIMEOUT_MS = 60_000
const DEFAULT_STALL_MS = 15_000
/** The package limit plus room for the names of the wrapper folder and the files left out. */
const DEFAULT_MAX_DOWNLOAD = LIMITS.maxUncompressedBytes + 1_048_576

class Refusal extends Error {
  constructor(readonly diagnostic: Diagnostic) {
    super(diagnostic.message)
  }
}
const refuse = (code: DiagnosticCode, message: string) => new Refusal(createDiagnostic(code, message))

/** A URL as shown in a message: no credentials, query or fragment (a signed download URL's token). */
const shown = (u: URL) => `${u.protocol}//${u.host}${u.pathname}`

function later<T>(ms: number, run: () => T): ReturnType<typeof setTimeout> {
  const t = setTimeout(run, ms)
  ;(t as { unref?: () => void }).unref?.()
  return t
}

/**
 * Downloads `url`'s zipball and returns the archive of the repository root, with `source`
 * naming the commit it was made from. Never rejects on bad input or a failing host (only when
 * `options.signal` aborts); every failure is a `repo/*` (or `pkg/too-large`, `pkg/not-zip`)
 * diagnostic that never carries the token.
 *
 * @example
 * const got = await fetchRepositoryArchive('https://github.com/owner/story/tree/v1.2')
 * if (got.ok) await store(got.source.commit, got.bytes)
 */
export async function fetchRepositoryArchive(
  url: string,
  options: RepoImportOptions = {},
): Promise<FetchArchiveResult> {
  options.signal?.throwIfAborted()
  const repoHost = normalizeHost(options.repoHost ?? DEFAULT_REPO_HOST)
  const parsed = parseRepoUrl(url, { repoHost })
  if (!parsed.ok) return { ok: false, diagnostics: [parsed.diagnostic] }
  const loader = new Loader(parsed, options)
  try {
    return await loader.run()
  } catch (e) {
    if (options.signal?.aborted) throw options.signal.reason
    return { ok: false, diagnostics: [loader.explain(e)] }
  } finally {
    loader.dispose()
  }
}

class Loader {
  private readonly apiHost: string
  private readonly allowed: Set<string>
  private readonly doFetch: typeof fetch
  private readonly controller = new AbortController()
  private readonly total: ReturnType<typeof setTimeout>
  private timedOut: string | undefined
  private readonly onAbort = () => this.controller.abort(this.options.signal?.reason)

  constructor(
    private readonly loc: RepoLocation,
    private readonly options: RepoImportOptions,
  ) {
    this.apiHost = normalizeHost(options.repoApiHost ?? DEFAULT_REPO_API_HOST)
    this.allowed = new Set([
      this.apiHost,
      ...(options.downloadHosts ?? DEFAULT_DOWNLOAD_HOSTS).map(normalizeHost),
    ])
    this.doFetch = options.fetch ?? globalThis.fetch.bind(globalThis)
    options.signal?.addEventListener('abort', this.onAbort, { once: true })
    const ms = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
    const left = options.deadline === undefined ? ms : Math.max(1, options.deadline - Date.now())
    this.total = later(left, () => this.timeOut(`the import took longer than ${ms} ms`))
  }

  dispose(): void {
    clearTimeout(this.total)
    this.options.signal?.removeEventListener('abort', this.onAbort)
  }

  private timeOut(why: string): void {
    this.timedOut ??= why
    this.controller.abort(new Error(why))
  }

  /** The diagnostic of a failure thrown while loading. */
  explain(e: unknown): Diagnostic {
    if (this.timedOut) return createDiagnostic('repo/timeout', `${this.timedOut}; nothing was loaded`)
    if (e instanceof Refusal) return e.diagnostic
    const refused = [e, (e as { cause?: unknown })?.cause].find(
      (x) => (x as { code?: unknown })?.code === ADDRESS_REFUSED,
    )
    if (refused) return createDiagnostic('repo/address-refused', (refused as Error).message)
    const cause = (e as { cause?: { message?: string } })?.cause?.message
    const why = `${(e as Error)?.message ?? String(e)}${cause ? ` (${cause})` : ''}`
    return createDiagnostic('repo/fetch-failed', `the repository host could not be reached: ${why}`)
  }

  private get name(): string {
    return `${this.loc.owner}/${this.loc.repo}`
  }

  async run(): Promise<FetchArchiveResult> {
    let ref = this.loc.ref
    let commit: string | null = null
    if (ref?.includes('/')) ({ ref, commit } = await this.resolveRef(ref))
    const api = `https://${this.apiHost}/repos/${this.name}/zipball${ref ? `/${ref}` : ''}`
    const res = await this.request(new URL(api), 'application/vnd.github+json')
    this.checkStatus(res, ref)
    const zip = await this.readBody(res, this.options.maxDownloadBytes ?? DEFAULT_MAX_DOWNLOAD)
    const unwrapped = unwrapZipball(zip)
    if (!unwrapped.ok) return unwrapped
    commit ??= unwrapped.commentCommit ?? /-([0-9a-f]{7,40})$/.exec(unwrapped.wrapper)?.[1] ?? null
    return {
      ok: true,
      bytes: unwrapped.bytes,
      source: { owner: this.loc.owner, repo: this.loc.repo, ref: ref ?? null, commit },
      diagnostics: unwrapped.diagnostics,
    }
  }

  /** The longest leading part of `ref` that is a ref of the repository, as the host reads `tree/<ref>`. */
  private async resolveRef(ref: string): Promise<{ ref: string; commit: string | null }> {
    const segments = ref.split('/')
    for (let k = segments.length; k >= 1; k--) {
      const candidate = segments.slice(0, k).join('/')
      const url = new URL(`https://${this.apiHost}/repos/${this.name}/commits/${candidate}`)
      const res = await this.request(url, 'application/vnd.github.sha')
      if (res.status === 404 || res.status === 422) {
        await res.body?.cancel()
        continue
      }
      this.checkStatus(res, candidate)
      const sha = new TextDecoder().decode(await this.readBody(res, 1024)).trim()
      if (k < segments.length)
        throw refuse(
          'repo/invalid-url',
          `'${candidate}' is a ref of ${this.name} and '${segments.slice(k).join('/')}' a folder in it; only a whole repository is loaded (give .../tree/${candidate})`,
        )
      return { ref: candidate, commit: /^[0-9a-f]{40}$/.test(sha) ? sha : null }
    }
    throw refuse(
      'repo/not-found',
      `${this.name} has no ref '${ref}' on ${this.options.repoHost ?? DEFAULT_REPO_HOST}, or the repository is private`,
    )
  }

  /** One GET, following redirects by hand: see the module comment. */
  private async request(url: URL, accept: string): Promise<Response> {
    let current = url
    for (let hop = 0; ; hop++) {
      const headers: Record<string, string> = { accept, 'x-github-api-version': '2022-11-28' }
      // The token goes to the API host only, and never across a redirect.
      if (hop === 0 && this.options.token && current.host === this.apiHost)
        headers.authorization = `Bearer ${this.options.token}`
      const res = await this.doFetch(current.href, {
        headers,
        redirect: 'manual',
        signal: this.controller.signal,
      })
      if (res.type === 'opaqueredirect') return this.followInBrowser(current, accept)
      if (res.status < 300 || res.status > 399 || res.status === 304) return res
      await res.body?.cancel()
      const location = res.headers.get('location')
      if (location === null)
        throw refuse('repo/fetch-failed', `${current.host} answered ${res.status} without a Location header`)
      if (hop >= MAX_HOPS)
        throw refuse(
          'repo/redirect-refused',
          `more than ${MAX_HOPS} redirects from ${shown(url)}; the next was not requested`,
        )
      let next: URL
      try {
        next = new URL(location, current)
      } catch {
        throw refuse(
          'repo/redirect-refused',
          `${current.host} redirected to a malformed URL; it was not requested`,
        )
      }
      this.checkTarget(next)
      current = next
    }
  }

  /** Refuses a redirect target off the rules; `after`: words it for a browser that already followed it. */
  private checkTarget(next: URL, after = false): void {
    const done = after ? 'the browser followed a redirect to' : 'a redirect to'
    const verdict = after ? 'its answer was refused' : 'it was refused and not requested'
    if (next.protocol !== 'https:')
      throw refuse(
        'repo/redirect-refused',
        `${done} ${next.protocol} (${shown(next)}); ${verdict}: HTTPS only`,
      )
    if (next.username !== '' || next.password !== '')
      throw refuse('repo/redirect-refused', `${done} a URL carrying credentials (${shown(next)}); ${verdict}`)
    if (!this.allowed.has(next.host))
      throw refuse(
        'repo/redirect-refused',
        `${done} ${next.host} (${shown(next)}); ${verdict}: the download hosts are ${[...this.allowed].join(', ')}`,
      )
  }

  /**
   * Browsers hide a redirect's Location from scripts (`redirect: 'manual'` gives an opaque
   * answer), so there the browser follows the redirects itself and only the final URL can be
   * checked: its answer is refused unless it is HTTPS on an allowed host. No token is sent.
   */
  private async followInBrowser(url: URL, accept: string): Promise<Response> {
    const res = await this.doFetch(url.href, {
      headers: { accept },
      redirect: 'follow',
      signal: this.controller.signal,
    })
    let final: URL
    try {
      final = new URL(res.url)
    } catch {
      await res.body?.cancel()
      throw refuse(
        'repo/redirect-refused',
        'the browser followed a redirect to a URL it does not name; refused',
      )
    }
    try {
      this.checkTarget(final, true)
    } catch (e) {
      await res.body?.cancel()
      throw e
    }
    return res
  }

  private checkStatus(res: Response, ref: string | undefined): void {
    if (res.ok) return
    void res.body?.cancel()
    const at = ref ? ` at '${ref}'` : ''
    const host = this.options.repoHost ?? DEFAULT_REPO_HOST
    if (res.status === 404)
      throw refuse('repo/not-found', `${this.name}${at} was not found on ${host}, or it is private`)
    const h = res.headers
    const limited =
      res.status === 429 ||
      ((res.status === 401 || res.status === 403) &&
        (h.get('x-ratelimit-remaining') === '0' || h.has('retry-after')))
    if (limited)
      throw refuse(
        'repo/rate-limited',
        `${this.apiHost} refused the request for its rate limit; ${this.retryAfter(h)}`,
      )
    throw refuse('repo/fetch-failed', `${this.apiHost} answered ${res.status} for ${this.name}${at}`)
  }

  private retryAfter(h: Headers): string {
    const now = (this.options.now ?? Date.now)()
    let at: number | undefined
    const after = h.get('retry-after')?.trim()
    if (after && /^\d+$/.test(after)) at = now + Number(after) * 1000
    else if (after && !Number.isNaN(Date.parse(after))) at = Date.parse(after)
    const reset = h.get('x-ratelimit-reset')?.trim()
    if (at === undefined && reset && /^\d+$/.test(reset)) at = Number(reset) * 1000
    if (at === undefined) return 'retry later'
    const seconds = Math.max(0, Math.ceil((at - now) / 1000))
    return `retry in ${seconds} s (at ${new Date(at).toISOString()})`
  }

  /** The body, counted as it arrives: refused past `max`, and abandoned when it stalls. */
  private async readBody(res: Response, max: number): Promise<Uint8Array> {
    const length = res.headers.get('content-length')
    if (length !== null && /^\d+$/.test(length.trim()) && Number(length) > max) {
      await res.body?.cancel()
      throw refuse(
        'pkg/too-large',
        `the repository download is ${length.trim()} bytes, more than the ${max} allowed; it was not read`,
      )
    }
    if (!res.body) return new Uint8Array(0)
    const reader = res.body.getReader()
    const stallMs = this.options.stallTimeoutMs ?? DEFAULT_STALL_MS
    let stall: ReturnType<typeof setTimeout> | undefined
    const arm = () => {
      clearTimeout(stall)
      stall = later(stallMs, () => {
        this.timeOut(`the download stalled: no data for ${stallMs} ms`)
        void reader.cancel().catch(() => {})
      })
    }
    const chunks: Uint8Array[] = []
    let total = 0
    try {
      arm()
      for (;;) {
        const { done, value } = await reader.read()
        if (this.timedOut) throw new Error(this.timedOut)
        if (done) break
        total += value.length
        if (total > max) {
          await reader.cancel().catch(() => {})
          throw refuse(
            'pkg/too-large',
            `the repository download went past ${max} bytes; it was abandoned there`,
          )
        }
        chunks.push(value)
        arm()
      }
    } finally {
      clearTimeout(stall)
    }
    const out = new Uint8Array(total)
    let o = 0
    for (const c of chunks) {
      out.set(c, o)
      o += c.length
    }
    return out
  }
}
