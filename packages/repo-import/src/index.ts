/**
 * @spkg/repo-import: loads a story package from a public repository (`https://github.com/<owner>/<repo>`
 * or `.../tree/<ref>`) as if it were a `.spkg`: the zipball is downloaded within the configured
 * hosts and budgets, its wrapper folder removed, and the result opened by `@spkg/reader` with every
 * one of its checks. Web APIs only; in Node, use `@spkg/repo-import/node` for the DNS-rebinding guard.
 */
import { openPackage } from '@spkg/reader'
import type { ImportResult } from './import-repository'
import { importWith } from './import-repository'
import type { ImportRepositoryOptions } from './options'

export type { FetchArchiveResult } from './fetch-repository-archive'
export { fetchRepositoryArchive } from './fetch-repository-archive'
export { DEFAULT_DOWNLOAD_HOSTS, DEFAULT_REPO_API_HOST, DEFAULT_REPO_HOST } from './hosts'
export type { ImportResult } from './import-repository'
export type { ImportRepositoryOptions, RepoImportOptions, RepositorySource } from './options'
export type { ParseRepoUrlResult, RepoLocation } from './parse-repo-url'
export { parseRepoUrl } from './parse-repo-url'
export { IGNORED_FILES, IGNORED_FOLDERS } from './unwrap-zipball'

/**
 * Loads a package from a repository URL: {@link fetchRepositoryArchive}, then `openPackage` of
 * `@spkg/reader` on the repository root. Never rejects on bad input (only when `options.signal`
 * aborts): a refused URL, a failing host or a refused package is `{ ok: false, diagnostics }`.
 *
 * @example
 * const result = await importRepository('https://github.com/owner/story/tree/v1.2')
 * if (result.ok) console.log(result.source.commit, result.package.manifest?.title)
 */
export function importRepository(url: string, options: ImportRepositoryOptions = {}): Promise<ImportResult> {
  return importWith(url, options, openPackage)
}
