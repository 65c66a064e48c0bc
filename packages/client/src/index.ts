/**
 * @spkg/client: the platform API client (isomorphic: `fetch`, `AbortSignal`, `EventTarget`).
 */
import { type ApiClient, type ClientOptions, createApiClient } from './client'
import { createCloudDriver } from './cloud-driver'
import { type Endpoints, endpoints } from './endpoints'

/** A client: the core (`request`, `events`, `interceptors`, `offline`) and the typed endpoint groups. */
export type Client = ApiClient & Endpoints

/**
 * Creates a client of the platform API.
 *
 * @example
 * const client = createClient({ baseUrl: 'https://spkg.example', getToken: () => token })
 * const page = await client.catalog.stories({ page: 1, limit: 20 })
 */
export function createClient(options: ClientOptions): Client {
  const core = createApiClient(options)
  return Object.assign(core, endpoints(core))
}

export type {
  ApiClient,
  ClientOptions,
  ConnectivitySource,
  GetToken,
  RawAnswer,
  RequestOptions,
} from './client'
export { TOKEN_STORAGE_KEY } from './client'
export type { CatalogQuery, Endpoints, SaveProgressOptions, SaveProgressResult } from './endpoints'
export { ApiClientError, type ApiClientErrorCode, isApiClientError, parseRetryAfter } from './errors'
export type { ClientEventDetail, ClientEventType } from './events'
export type {
  Interceptor,
  InterceptorChain,
  InterceptorPosition,
  Next,
  RequestContext,
} from './interceptors'
export type { OfflineQueue, QueuedWrite, ReplayReport } from './offline-queue'
export {
  DEFAULT_RETRY,
  RETRY_METHODS,
  RETRY_STATUSES,
  type RetryOption,
  type RetryPolicy,
  type Sleeper,
} from './retry'
export { createCloudDriver }
