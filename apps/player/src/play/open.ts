/**
 * Opening a package from any source: a File (nothing uploaded), bytes, a package URL (progressive over HTTP ranges
 * when the manifest asks for it), a catalog story (the files route), a repository URL (@spkg/repo-import).
 */
import type { Diagnostic } from '@spkg/manifest'
import { openPackage, type SpkgPackage } from '@spkg/reader'
import type { PackageSource } from '../features/context'
import { HOST_NAMESPACES } from '../features/namespaces'
import { fetchCatalogStory, packageUrlOf } from '../lib/catalog'
import type { CatalogStory } from '../lib/catalog-model'
import { USE_WASM } from '../lib/config'
import { trustedKeys } from '../lib/trust'
// Online, or from the copy kept on the device when the network is gone (docs/offline.md).
import { openPackageUrlOffline } from '../pwa/index'

/** An opened package and where it came from. */
export interface OpenedStory {
  pkg: SpkgPackage
  source: PackageSource
  /** The catalog record, when opened from the catalog. */
  catalog?: CatalogStory
  /** Milliseconds from the start of the open to the verified package. */
  openMs: number
}

export type OpenOutcome =
  | { ok: true; story: OpenedStory; diagnostics: Diagnostic[] }
  | { ok: false; diagnostics: Diagnostic[]; catalog?: CatalogStory }

const readerOptions = () => {
  const keys = trustedKeys()
  return { wasm: USE_WASM, ...(keys.length ? { trustedKeys: keys } : {}) }
}

function failure(code: string, message: string): Diagnostic {
  return { code, severity: 'fatal', message } as Diagnostic
}

/** The title to show: the manifest's, the catalog's, else the file name or the entry part's name (flat). */
export function storyTitle(story: OpenedStory): string {
  const m = story.pkg.manifest
  if (m?.title) return m.title
  if (story.catalog?.title) return story.catalog.title
  if (story.source.kind === 'file') return story.source.file.name.replace(/\.(spkg|zip)$/i, '')
  if (story.source.kind === 'bytes') return story.source.name.replace(/\.(spkg|zip)$/i, '')
  return story.pkg.entry.replace(/^.*\//, '').replace(/\.sty$/, '')
}

/** Opens a package; never rejects (a failure is diagnostics, with a stable code). */
export async function openSource(source: PackageSource, signal?: AbortSignal): Promise<OpenOutcome> {
  const t0 = performance.now()
  const opts = { ...readerOptions(), hostNamespaces: [...HOST_NAMESPACES], ...(signal ? { signal } : {}) }
  let catalog: CatalogStory | undefined
  try {
    let result: Awaited<ReturnType<typeof openPackage>>
    switch (source.kind) {
      case 'file':
        result = await openPackage(source.file, opts)
        break
      case 'bytes':
        result = await openPackage(source.bytes, opts)
        break
      case 'url':
        result = await openPackageUrlOffline(source.url, opts)
        break
      case 'catalog': {
        catalog = await fetchCatalogStory(source.slug, signal)
        const url = packageUrlOf(catalog)
        if (!url)
          return {
            ok: false,
            catalog,
            diagnostics: [failure('player/no-package', 'This story has no published package yet.')],
          }
        result = await openPackageUrlOffline(url, opts)
        break
      }
      case 'repo': {
        const { importRepository } = await import('@spkg/repo-import')
        result = await importRepository(source.url, opts)
        break
      }
    }
    // For measurements (README): how long the open took, named by its source.
    performance.measure('spkg-open', {
      start: t0,
      detail: { source: source.kind, ok: result.ok, wasm: USE_WASM },
    })
    if (!result.ok) return { ok: false, diagnostics: result.diagnostics, ...(catalog ? { catalog } : {}) }
    return {
      ok: true,
      diagnostics: result.diagnostics,
      story: {
        pkg: result.package,
        source,
        ...(catalog ? { catalog } : {}),
        openMs: performance.now() - t0,
      },
    }
  } catch (e) {
    if (signal?.aborted) throw e
    const code = (e as { code?: string }).code
    return {
      ok: false,
      diagnostics: [
        failure(
          typeof code === 'string' ? code : 'player/open-failed',
          e instanceof Error ? e.message : String(e),
        ),
      ],
      ...(catalog ? { catalog } : {}),
    }
  }
}

/** Plain-words explanation of a refusal code (the diagnostic's own message follows it). */
export function explainCode(code: string): string {
  const known: Record<string, string> = {
    'pkg/unsafe-path': 'The archive tries to write files outside itself (an unsafe path). It was not opened.',
    'pkg/integrity-mismatch':
      'A file does not match the checksum the package declares: it was changed or damaged.',
    'pkg/integrity-malformed': 'The package asks for verification but its checksums are not valid.',
    'pkg/too-large': 'The package is larger than a story package may be (or expands to more than the limit).',
    'pkg/too-many-entries': 'The archive holds more files than a story package may.',
    'pkg/corrupt-archive': 'This is not a readable ZIP archive.',
    'pkg/corrupt-entry': 'A file in the archive is damaged.',
    'pkg/no-entry': 'The archive has no story in it (no manifest.json and no .sty file at its root).',
    'pkg/wrapped-layout': 'Everything is inside one folder: zip the folder’s contents, not the folder.',
    'pkg/fetch-failed': 'The package could not be downloaded.',
    'pkg/remote-changed': 'The package changed on the server while it was being read.',
    'pkg/duplicate-entry': 'The archive holds the same file twice.',
    'pkg/header-mismatch': 'The archive’s records disagree with each other.',
    'pkg/unexpected-data': 'The archive holds data outside its files.',
    'pkg/unsupported-entry': 'The archive uses a feature story packages may not use.',
    'pkg/unsupported-requires': 'The story needs a host extension this player does not have.',
    'pkg/missing-extension': 'An extension module the story lists is missing.',
    'pkg/key-required': 'This package is encrypted and needs a key.',
    'pkg/decrypt-failed': 'This encrypted package could not be decrypted.',
    'repo/invalid-url': 'This is not a repository address the player can load.',
    'player/no-package': 'The story has no published package yet.',
    'player/catalog-failed': 'The catalog could not be reached.',
  }
  return (
    known[code] ??
    (code.startsWith('manifest/') ? 'The package’s manifest is not valid.' : 'The package was refused.')
  )
}
