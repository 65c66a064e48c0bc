/**
 * The `cloud` storage of `@spkg/state` on the platform API's progress endpoints (`/api/progress/:storyId`), through
 * the client's interceptor chain: the signed-in reader's token, retries of reads, auth-error events.
 */
import { SpkgError } from '@spkg/manifest'
import type { StateDriver } from '@spkg/state'
import { createHttpDriver } from '@spkg/state/drivers/http'
import type { ApiClient } from './client'

/**
 * A `StateDriver` over `/api/progress` for `storage: 'cloud'` (pass it as `selectStateDriver(storage, { cloud })`).
 * Revisions are the API's; a stale write is `state/conflict`; an unconditional save over an existing state is
 * written once over the revision the API's 428 names (so `save(…, { force: true })` works).
 */
export function createCloudDriver(client: Pick<ApiClient, 'fetch' | 'baseUrl'>): StateDriver {
  const driver = createHttpDriver({
    baseUrl: `${client.baseUrl}/api/progress`,
    fetch: client.fetch as typeof fetch,
  })
  return {
    ...driver,
    name: 'cloud',
    set(key, value, options) {
      // The API's revisions are integers: any other expected revision cannot be the stored one.
      const expected = options?.ifRevision
      if (typeof expected === 'string' && !/^\d{1,9}$/.test(expected)) {
        const message = `cloud: the save of "${key}" expected revision ${expected}, which the API never gives`
        return Promise.reject(new SpkgError('state/conflict', message))
      }
      return driver.set(key, value, options)
    },
  }
}
