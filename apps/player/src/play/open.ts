/**
 * Opening a package from any source: a File (nothing uploaded), bytes, a package URL (progressive over HTTP ranges
 * when the manifest asks for it), a catalog story (the files route), a repository URL (@spkg/repo-import).
 */
import type { Diagnostic } from '@spkg/manifest'
import { openPackage, type SpkgPackage } from '@spkg/reader'
// The Ed25519 fallback for browsers without WebCrypto Ed25519 (Chrome/Edge < 137, Firefox < 129,
// Safari < 17): opt-in in @spkg/reader, on here; a lazy chunk only those browsers download.
import { nobleEd25519 } from '@spkg/reader/ed25519-noble'
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
  return { wasm: USE_WASM, ed25519Fallback: nobleEd25519, ...(keys.length ? { trustedKeys: keys } : {}) }
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
