import type { OpenOptions } from '@spkg/reader'

/**
 * Configuration of a repository import. These come from the embedder (or `spkg`'s environment
 * variables), never from the URL a user gives.
 */
export interface RepoImportOptions {
  /** The host users' URLs name, with a port if it is not 443. @default 'github.com' */
  repoHost?: string
  /** The host API requests go to (ref resolution, zipball). @default 'api.github.com' */
  repoApiHost?: string
  /** The hosts a zipball may be redirected to. @default ['codeload.github.com'] */
  downloadHosts?: readonly string[]
  /** A token for private repositories or higher rate limits: sent to the API host only, never across a redirect. */
  token?: string
  /** The whole import (every request and the download) must finish within this. @default 60000 */
  timeoutMs?: number
  /**
   * When the time of {@link timeoutMs} started before this call (a caller that spent part of it on
   * requests of its own): the `Date.now()` at which it runs out. The `repo/timeout` message still
   * names `timeoutMs`, the limit the user set.
   */
  deadline?: number
  /** The download is abandoned when no byte arrives for this long. @default 15000 */
  stallTimeoutMs?: number
  /** Compressed bytes the download may have; more is `pkg/too-large`. @default 53477376 (the 50 MiB package limit plus 1 MiB) */
  maxDownloadBytes?: number
  /** The fetch to use. In Node, `@spkg/repo-import/node` supplies one with the address guard. @default globalThis.fetch */
  fetch?: typeof fetch
  /** Aborts the import; the promise then rejects with the signal's reason. */
  signal?: AbortSignal
  /** The clock rate-limit messages count from. @default Date.now */
  now?: () => number
}

/** Options of `importRepository`: the configuration plus the reader's own options. */
export interface ImportRepositoryOptions extends RepoImportOptions, Omit<OpenOptions, 'signal'> {}

/** What was loaded, so a caller can pin it: the commit is the one the zipball was made from. */
export interface RepositorySource {
  owner: string
  repo: string
  /** The ref of the URL (`tree/<ref>`), or null for the default branch. */
  ref: string | null
  /** The commit id: the full one when the host names it, else the short one of the wrapper folder; null if neither. */
  commit: string | null
}
