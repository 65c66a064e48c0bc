/**
 * `@spkg/repo-import/node`: the same import with Node's guard against DNS rebinding (connections
 * to loopback, private, link-local and metadata addresses are refused unless
 * `allowPrivateAddresses` is set) and the faster Node reader.
 */
import { openPackage } from '@spkg/reader/node'
import { type FetchArchiveResult, fetchRepositoryArchive as fetchArchive } from './fetch-repository-archive'
import { type ImportResult, importWith } from './import-repository'
import { createGuardedFetch } from './node/guarded-fetch'
import type { ImportRepositoryOptions, RepoImportOptions } from './options'

export type { GuardedFetchOptions } from './node/guarded-fetch'
export { createGuardedFetch, isPrivateAddress } from './node/guarded-fetch'

/** Node options: the configuration plus the address guard's. */
export interface NodeRepoOptions {
  /** Lets allowed host names resolve to loopback and private addresses (tests, a private host). @default false */
  allowPrivateAddresses?: boolean
  /** Extra CA certificates (PEM) to trust besides Node's. */
  ca?: string | string[]
}

function withGuard<T extends RepoImportOptions>(options: T & NodeRepoOptions): T {
  if (options.fetch) return options
  return {
    ...options,
    fetch: createGuardedFetch({
      allowPrivateAddresses: options.allowPrivateAddresses === true,
      ...(options.ca ? { ca: options.ca } : {}),
    }),
  }
}

/**
 * `fetchRepositoryArchive` of the main entry, with the guarded fetch unless `options.fetch` is given.
 *
 * @example
 * const got = await fetchRepositoryArchive('https://github.com/owner/story/tree/v1.2')
 */
export function fetchRepositoryArchive(
  url: string,
  options: RepoImportOptions & NodeRepoOptions = {},
): Promise<FetchArchiveResult> {
  return fetchArchive(url, withGuard(options))
}

/**
 * `importRepository` of the main entry, with the guarded fetch (unless `options.fetch` is given)
 * and `@spkg/reader/node`.
 *
 * @example
 * const result = await importRepository('https://github.com/owner/story', { token: process.env.GITHUB_TOKEN })
 */
export function importRepository(
  url: string,
  options: ImportRepositoryOptions & NodeRepoOptions = {},
): Promise<ImportResult> {
  return importWith(url, withGuard(options), openPackage)
}
