/**
 * `createClient`: the platform API client. Requests go through the interceptor chain (`token`, `retry`,
 * `auth-errors`), answers are parsed JSON validated with the shared schemas of `@spkg/api-contract`, and every
 * failure is an {@link ApiClientError}.
 */
import type { ErrorBody } from '@spkg/api-contract'
import type { StateDriver } from '@spkg/state'
import type { z } from 'zod'
import { ApiClientError, parseRetryAfter } from './errors'
import { type ClientEventDetail, emit } from './events'
import { createInterceptorChain, type InterceptorChain, type RequestContext } from './interceptors'
import { createOfflineQueue, type OfflineQueue } from './offline-queue'
import type { RawAnswer, RequestOptions } from './request-types'
import {
  DEFAULT_RETRY,
  defaultSleep,
  isRetryable,
  type RetryOption,
  resolveRetry,
  retryDelay,
  type Sleeper,
} from './retry'

/** Where the default `getToken` reads the access token in a browser: this `sessionStorage` item. */
export const TOKEN_STORAGE_KEY = 'spkg.access-token'

/** Returns the current access token, or nothing for an anonymous request. */
export type GetToken = () => string | null | undefined | Promise<string | null | undefined>

/** Options of {@link createClient}. */
export interface ClientOptions {
  /** The API origin (and prefix, if any): `https://spkg.example`. */
  baseUrl: string | URL
  /**
   * The access token. Default: in a browser, the `sessionStorage` item {@link TOKEN_STORAGE_KEY}; elsewhere none.
   */
  getToken?: GetToken
  /** @default globalThis.fetch */
  fetch?: typeof fetch
  /** Default retry policy: a count or `{ count, delays }`. @default 2 retries after 1 s then 2 s */
  retry?: RetryOption
  /** Durable storage of the offline write queue (a `@spkg/state` driver). @default memory */
  storage?: StateDriver
  /** Waits between retries. @default setTimeout */
  sleep?: Sleeper
  /**
   * Online/offline source: `window` in a browser (its `online`/`offline` events and `navigator.onLine`); `null`
   * turns tracking off. @default globalThis when it has `addEventListener` and `navigator.onLine`
   */
  connectivity?: ConnectivitySource | null
}

/** What online/offline tracking listens to. */
export interface ConnectivitySource {
  addEventListener(type: 'online' | 'offline', listener: () => void): void
  removeEventListener(type: 'online' | 'offline', listener: () => void): void
  readonly navigator?: { readonly onLine?: boolean }
}

export type { RawAnswer, RequestOptions }

/** The client core that the typed endpoint groups build on. */
export interface ApiClient {
  /** The API origin and prefix, without a trailing slash. */
  readonly baseUrl: string
  /** The client's events (see `ClientEventType`). */
  readonly events: EventTarget
  /** The public interceptor chain. */
  readonly interceptors: InterceptorChain
  /** Online/offline state and the durable write queue. */
  readonly offline: OfflineQueue
  /** Sends a request through the chain and resolves to the parsed JSON body (undefined for 204). */
  request<T = unknown>(method: string, path: string, options?: RequestOptions): Promise<T>
  /** As {@link ApiClient.request}, with the status and headers. */
  requestRaw(method: string, path: string, options?: RequestOptions): Promise<RawAnswer>
  /** As {@link ApiClient.request}, the answer validated with `schema` (else `client/invalid-response`). */
  requestParsed<S extends z.ZodType>(
    schema: S,
    method: string,
    path: string,
    options?: RequestOptions,
  ): Promise<z.infer<S>>
  /**
   * A `fetch` through the interceptor chain (token, retry, auth-error events) that resolves to the raw `Response`;
   * no answer rejects with a `TypeError`, as `fetch` does. Relative URLs are resolved against `baseUrl`.
   */
  fetch(input: string | URL, init?: RequestInit): Promise<Response>
  /** Whether `network-error` events are suppressed (the app shows its offline banner). */
  setOfflineBannerShown(shown: boolean): void
  /** Stops online/offline tracking and tab coordination. */
  close(): void
}

/**
 * The API's error body, checked by hand (`ErrorBodySchema`'s rule) so that the core needs no schema library: a
 * player that makes raw requests loads no zod.
 */
function asErrorBody(json: unknown): ErrorBody | undefined {
  if (json === null || typeof json !== 'object') return undefined
  const { statusCode, code, message } = json as Record<string, unknown>
  if (!Number.isInteger(statusCode) || typeof message !== 'string') return undefined
  if (code !== undefined && typeof code !== 'string') return undefined
  return code === undefined
    ? { statusCode: statusCode as number, message }
    : { statusCode: statusCode as number, code, message }
}

function browserToken(): string | undefined {
  try {
    const store = (globalThis as { sessionStorage?: { getItem(k: string): string | null } }).sessionStorage
    return store?.getItem(TOKEN_STORAGE_KEY) ?? undefined
  } catch {
    return undefined
  }
}

function defaultConnectivity(): ConnectivitySource | null {
  const g = globalThis as unknown as Partial<ConnectivitySource>
  return typeof g.addEventListener === 'function' && typeof g.navigator?.onLine === 'boolean'
    ? (g as ConnectivitySource)
    : null
}

const isAbort = (e: unknown, signal: AbortSignal | undefined) =>
  signal?.aborted === true || (e instanceof Error && e.name === 'AbortError')

async function readBody(res: Response): Promise<{ json: unknown; text: string }> {
  const text = res.status === 204 || res.status === 0 ? '' : await res.text()
  if (text === '') return { json: undefined, text }
  try {
    return { json: JSON.parse(text), text }
  } catch {
    return { json: undefined, text }
  }
}

/** Creates the core client. `createClient` (index) adds the typed endpoint groups. */
export function createApiClient(options: ClientOptions): ApiClient {
  const base = new URL(String(options.baseUrl))
  const basePath = base.pathname.replace(/\/+$/, '')
  const events = new EventTarget()
  const doFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
  const getToken = options.getToken ?? browserToken
  const sleep = options.sleep ?? defaultSleep
  const policy = resolveRetry(options.retry, DEFAULT_RETRY)
  let bannerShown = false

  const tokenInterceptor = async (ctx: RequestContext, next: (c: RequestContext) => Promise<Response>) => {
    if (!ctx.anonymous && !ctx.headers.has('authorization')) {
      const token = await getToken()
      if (token) ctx.headers.set('authorization', `Bearer ${token}`)
    }
    return next(ctx)
  }

  const retryInterceptor = async (ctx: RequestContext, next: (c: RequestContext) => Promise<Response>) => {
    const count = isRetryable(ctx.method, 0) ? ctx.retry.count : 0
    for (let attempt = 0; ; attempt++) {
      ctx.attempt = attempt
      ctx.finalAttempt = attempt >= count
      const res = await next(ctx)
      if (ctx.finalAttempt || !isRetryable(ctx.method, res.status) || ctx.signal?.aborted) return res
      await res.body?.cancel().catch(() => undefined)
      await sleep(retryDelay(ctx.retry, attempt), ctx.signal)
    }
  }

  const authErrorInterceptor = async (
    ctx: RequestContext,
    next: (c: RequestContext) => Promise<Response>,
  ) => {
    const res = await next(ctx)
    const status = res.status
    if (status < 400 && status !== 0) return res
    // A failure the retry interceptor will retry is not reported; the final one is.
    if (!ctx.finalAttempt && isRetryable(ctx.method, status)) return res
    const detail: ClientEventDetail = { status, method: ctx.method, path: ctx.path }
    if (status === 0) {
      if (!bannerShown) emit(events, 'network-error', detail)
      offline.noteNetworkFailure()
      return res
    }
    const type =
      status === 401
        ? 'auth-required'
        : status === 403
          ? 'forbidden'
          : status === 429
            ? 'rate-limited'
            : status >= 500
              ? 'server-error'
              : undefined
    if (!type) return res
    const body = await res
      .clone()
      .json()
      .then(asErrorBody)
      .catch(() => undefined)
    if (body) {
      detail.message = body.message
      if (body.code) detail.code = body.code
    }
    const wait = parseRetryAfter(res.headers.get('retry-after'))
    if (wait !== undefined && (status === 429 || status === 503)) detail.retryAfter = wait
    emit(events, type, detail)
    return res
  }

  const interceptors = createInterceptorChain([
    ['token', tokenInterceptor],
    ['retry', retryInterceptor],
    ['auth-errors', authErrorInterceptor],
  ])

  const terminal = async (ctx: RequestContext): Promise<Response> => {
    try {
      return await doFetch(ctx.url, {
        method: ctx.method,
        headers: ctx.headers,
        body: ctx.body,
        signal: ctx.signal,
      })
    } catch (error) {
      if (isAbort(error, ctx.signal)) throw error
      ctx.networkError = error
      return Response.error()
    }
  }

  async function requestRaw(method: string, path: string, opts: RequestOptions = {}): Promise<RawAnswer> {
    const m = method.toUpperCase()
    if (!path.startsWith('/') || path.startsWith('//')) {
      throw new ApiClientError('client/bad-request', `the path must start with one "/": ${path}`, {
        method: m,
        path,
      })
    }
    const url = new URL(basePath + path, base)
    for (const [k, v] of Object.entries(opts.query ?? {})) {
      if (v !== undefined && v !== null) url.searchParams.set(k, String(v))
    }
    const headers = new Headers(opts.headers)
    if (!headers.has('accept')) headers.set('accept', 'application/json')
    let body: string | undefined
    if (opts.body !== undefined) {
      body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body)
      if (!headers.has('content-type')) headers.set('content-type', 'application/json')
    }
    const ctx: RequestContext = {
      method: m,
      path,
      url,
      headers,
      body,
      signal: opts.signal,
      retry: resolveRetry(opts.retry, policy),
      attempt: 0,
      finalAttempt: true,
      anonymous: opts.anonymous === true,
      networkError: undefined,
    }
    let res: Response
    try {
      res = await interceptors.run(ctx, terminal)
    } catch (error) {
      if (isAbort(error, ctx.signal)) {
        throw new ApiClientError('client/aborted', `${m} ${path} was aborted`, {
          method: m,
          path,
          cause: error,
        })
      }
      throw error
    }
    if (res.status === 0) {
      throw new ApiClientError('client/network', `${m} ${path}: no answer (network error)`, {
        method: m,
        path,
        cause: ctx.networkError,
      })
    }
    offline.noteAnswer()
    const { json, text } = await readBody(res)
    if (!res.ok) {
      const errorBody = asErrorBody(json)
      throw new ApiClientError(
        'client/http',
        `${m} ${path}: ${res.status} ${errorBody?.message ?? (res.statusText || 'error')}`,
        {
          method: m,
          path,
          status: res.status,
          ...(errorBody && { body: errorBody }),
          ...(res.headers.has('retry-after') && {
            retryAfter: parseRetryAfter(res.headers.get('retry-after')),
          }),
        },
      )
    }
    if (json === undefined && text !== '') {
      throw new ApiClientError('client/invalid-response', `${m} ${path}: the answer is not JSON`, {
        method: m,
        path,
        status: res.status,
      })
    }
    return { status: res.status, headers: res.headers, body: json }
  }

  const offline = createOfflineQueue({
    storage: options.storage,
    events,
    connectivity: options.connectivity === undefined ? defaultConnectivity() : options.connectivity,
    send: (method, path, opts) => requestRaw(method, path, opts),
  })

  async function requestParsed<S extends z.ZodType>(
    schema: S,
    method: string,
    path: string,
    opts?: RequestOptions,
  ): Promise<z.infer<S>> {
    const answer = await requestRaw(method, path, opts)
    const parsed = schema.safeParse(answer.body)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      throw new ApiClientError(
        'client/invalid-response',
        `${method.toUpperCase()} ${path}: the answer breaks the API contract at ${issue?.path.join('.') || '(root)'}: ${issue?.message}`,
        { method: method.toUpperCase(), path, status: answer.status },
      )
    }
    return parsed.data
  }

  async function chainFetch(input: string | URL, init: RequestInit = {}): Promise<Response> {
    const url = new URL(String(input), base)
    const method = (init.method ?? 'GET').toUpperCase()
    const path = url.pathname.startsWith(basePath) ? url.pathname.slice(basePath.length) || '/' : url.pathname
    const ctx: RequestContext = {
      method,
      path,
      url,
      headers: new Headers(init.headers),
      body: typeof init.body === 'string' ? init.body : undefined,
      signal: init.signal ?? undefined,
      retry: policy,
      attempt: 0,
      finalAttempt: true,
      anonymous: false,
      networkError: undefined,
    }
    if (init.body != null && typeof init.body !== 'string') {
      throw new TypeError('client.fetch sends string bodies only')
    }
    const res = await interceptors.run(ctx, terminal)
    if (res.status === 0)
      throw new TypeError(`${method} ${path}: no answer (network error)`, { cause: ctx.networkError })
    offline.noteAnswer()
    return res
  }

  return {
    baseUrl: `${base.origin}${basePath}`,
    events,
    interceptors,
    offline,
    fetch: chainFetch,
    request: async <T>(method: string, path: string, opts?: RequestOptions) =>
      (await requestRaw(method, path, opts)).body as T,
    requestRaw,
    requestParsed,
    setOfflineBannerShown(shown) {
      bannerShown = shown
    },
    close() {
      offline.close()
    },
  }
}
