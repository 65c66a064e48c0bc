/**
 * The events a client dispatches on `client.events` (an `EventTarget`); each is a `CustomEvent` whose `detail` is a
 * {@link ClientEventDetail}.
 */

/** Names of the client's events. */
export type ClientEventType =
  /** 401: sign in again (the auth module then starts the identity provider's login). */
  | 'auth-required'
  /** 403: the caller lacks the right. */
  | 'forbidden'
  /** 429: throttled; `detail.retryAfter` is the wait in seconds. */
  | 'rate-limited'
  /** No answer (status 0); not sent while the app shows its offline banner. */
  | 'network-error'
  /** 500 and above; `detail.message` is the error body's message. */
  | 'server-error'
  /** The connection is back (after `offline`); the queue is being replayed. */
  | 'reconnected'
  /** The connection is gone. */
  | 'offline'
  /** A queued write was refused for a stale revision and not merged; `detail.queued` holds it, nothing is lost. */
  | 'conflict'
  /** The session ended (here or in another tab). */
  | 'logout'

/** The `detail` of a client event. */
export interface ClientEventDetail {
  status: number
  method: string
  path: string
  /** 429 (and 503 with `Retry-After`): seconds to wait. */
  retryAfter?: number
  /** The error body's `code`, when there was one. */
  code?: string
  /** The error body's `message` (server errors: the extracted detail). */
  message?: string
  /** `conflict`: the queued write that was not applied. */
  queued?: unknown
}

/** Dispatches a client event. */
export function emit(target: EventTarget, type: ClientEventType, detail: ClientEventDetail): void {
  target.dispatchEvent(new CustomEvent<ClientEventDetail>(type, { detail }))
}
