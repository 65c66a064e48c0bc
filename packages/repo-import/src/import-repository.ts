import type { Diagnostic } from '@spkg/manifest'
import type { OpenOptions, OpenResult, PackageInput, SpkgPackage } from '@spkg/reader'
import { fetchRepositoryArchive } from './fetch-repository-archive'
import type { ImportRepositoryOptions, RepositorySource } from './options'

/** The outcome of `importRepository`: `openPackage`'s result plus what was loaded. */
export type ImportResult =
  | { ok: true; package: SpkgPackage; diagnostics: Diagnostic[]; source: RepositorySource }
  | { ok: false; diagnostics: Diagnostic[]; source?: RepositorySource }

/** Downloads and unwraps with `fetchArchive`, then opens the result with `open` (the web or the Node reader). */
export async function importWith(
  url: string,
  options: ImportRepositoryOptions,
  open: (input: PackageInput, options: OpenOptions) => Promise<OpenResult>,
  fetchArchive: typeof fetchRepositoryArchive = fetchRepositoryArchive,
): Promise<ImportResult> {
  const got = await fetchArchive(url, options)
  if (!got.ok) return got
  const opened = await open(got.bytes, options)
  const diagnostics = [...got.diagnostics, ...opened.diagnostics]
  return opened.ok
    ? { ok: true, package: opened.package, diagnostics, source: got.source }
    : { ok: false, diagnostics, source: got.source }
}
