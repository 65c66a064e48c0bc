/**
 * `spkg` with a repository URL: the configuration comes from the environment only
 * (`SPKG_REPO_HOST`, `SPKG_REPO_API_HOST`, `SPKG_REPO_DOWNLOAD_HOSTS`, `SPKG_REPO_TOKEN`,
 * `SPKG_REPO_ALLOW_PRIVATE_ADDRESSES=1`; `NODE_EXTRA_CA_CERTS` adds a CA), and the download goes
 * through `@spkg/repo-import/node` with its address guard.
 */
import { readFileSync } from 'node:fs'
import { DEFAULT_REPO_HOST, type FetchArchiveResult, type RepoImportOptions } from '@spkg/repo-import'
import { fetchRepositoryArchive, type NodeRepoOptions } from '@spkg/repo-import/node'
import { type CliIO, IOFailure, UsageError } from './cli-types'

/** The repository host `spkg` takes URLs of (`SPKG_REPO_HOST`, default `github.com`), lower case, port kept. */
export function configuredRepoHost(io: CliIO): string {
  return (io.env.SPKG_REPO_HOST?.trim() || DEFAULT_REPO_HOST).toLowerCase()
}

/** The import options the environment sets. */
export function repositoryOptions(io: CliIO): RepoImportOptions & NodeRepoOptions {
  const env = io.env
  const options: RepoImportOptions & NodeRepoOptions = { repoHost: configuredRepoHost(io) }
  if (env.SPKG_REPO_API_HOST?.trim()) options.repoApiHost = env.SPKG_REPO_API_HOST.trim()
  if (env.SPKG_REPO_DOWNLOAD_HOSTS?.trim())
    options.downloadHosts = env.SPKG_REPO_DOWNLOAD_HOSTS.split(',')
      .map((h) => h.trim())
      .filter((h) => h !== '')
  if (env.SPKG_REPO_TOKEN) options.token = env.SPKG_REPO_TOKEN
  if (env.SPKG_REPO_ALLOW_PRIVATE_ADDRESSES === '1') options.allowPrivateAddresses = true
  const caFile = env.NODE_EXTRA_CA_CERTS
  if (caFile) {
    // Node reads it at startup only; read here too, so an in-process run with another env sees it.
    try {
      options.ca = readFileSync(caFile, 'utf8')
    } catch {
      throw new IOFailure(`cannot read NODE_EXTRA_CA_CERTS '${caFile}'`)
    }
  }
  return options
}

/**
 * Downloads and unwraps a repository (`repo/*` diagnostics on failure, `repo/ignored-file` infos
 * on success). Throws `UsageError` when an `SPKG_REPO_*` host is not a host name.
 */
export async function readRepository(io: CliIO, url: string): Promise<FetchArchiveResult> {
  const options = repositoryOptions(io)
  try {
    return await fetchRepositoryArchive(url, options)
  } catch (e) {
    if (e instanceof TypeError && /host/.test(e.message))
      throw new UsageError(
        `${e.message} (check SPKG_REPO_HOST, SPKG_REPO_API_HOST, SPKG_REPO_DOWNLOAD_HOSTS)`,
      )
    throw e
  }
}
