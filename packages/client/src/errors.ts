/**
 * The client's one error type: every failed request rejects with an {@link ApiClientError} whose `code` is stable.
 */
import type { ErrorBody } from '@spkg/api-contract'

/** Stable codes of {@link ApiClientError}. */
export type ApiClientErrorCode =
  /** The server answered a non-2xx status; `status` and `body` say which. */
  | 'client/http'
  /** No answer: the network failed (status 0). */
  | 'client/network'
  /** The request was aborted by its signal. */
  | 'client/aborted'
  /** A 2xx answer outside the API's contract (not JSON, or not the shared schema). */
  | 'client/invalid-response'
  /** A queued write was refused for a stale revision and could not be merged. */
  | 'client/conflict'
  /** The request itself is unusable (a bad path or option). */
  | 'client/bad-request'

/** Why a request failed. */
export class ApiClientError extends Error {
  readonly code: ApiClientErrorCode
  /** HTTP status; 0 when there was no answer. */
  readonly status: number
  /** The API's error body (`{ statusCode, code?, message }`) when the answer had one. */
  readonly body: ErrorBody | undefined
  /** Seconds to wait, from `Retry-After` (429 and 503). */
  readonly retryAfter: number | undefined
  readonly method: string
  readonly path: string
  constructor(
    code: ApiClientErrorCode,
    message: string,
    init: {
      status?: number
      body?: ErrorBody
      retryAfter?: number
      method: string
      path: string
      cause?: unknown
    },
  ) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause })
    this.name = 'ApiClientError'
    this.code = code
    this.status = init.status ?? 0
    this.body = init.body
    this.retryAfter = init.retryAfter
    this.method = init.method
    this.path = init.path
  }
}

/** Whether `e` is an {@link ApiClientError}, optionally of one code. */
export function isApiClientError(e: unknown, code?: ApiClientErrorCode): e is ApiClientError {
  return e instanceof ApiClientError && (code === undefined || e.code === code)
}

/** Seconds of a `Retry-After` header (delta-seconds or an HTTP date), or undefined. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (!value) return undefined
  const v = value.trim()
  if (/^\d{1,10}$/.test(v)) return Number(v)
  const at = Date.parse(v)
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000))
}
