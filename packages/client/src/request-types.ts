/**
 * The request options and the raw answer of the client core, in a leaf file: `client.ts` and
 * `offline-queue.ts` both use them, and `client.ts` imports the queue.
 */
import type { RetryOption } from './retry'

/** Options of `ApiClient.request`. */
export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined | null>
  /** JSON-serialised; a string is sent as is. */
  body?: unknown
  headers?: Record<string, string>
  /** This request's retry policy: `0` turns retries off. Ignored for POST, PUT, PATCH and DELETE. */
  retry?: RetryOption
  signal?: AbortSignal
  /** Send no bearer token. */
  anonymous?: boolean
}

/** A full answer: status, headers and the parsed body. */
export interface RawAnswer {
  status: number
  headers: Headers
  body: unknown
}
