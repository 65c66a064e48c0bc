/**
 * The loaded package object: lookups over the verified entries, text decoding, media blob URLs
 * and the story source.
 */
import { type Diagnostic, type NamesMap, SpkgError, type StorySource } from '@spkg/manifest'
import { decodeText, type EntryStore } from './entry-store'
import { mimeTypeOf } from './mime'
import type { SpkgPackage } from './types'

/** Everything the open pipeline settled: the package's own fields, and what its methods read. */
export interface PackageParts
  extends Pick<
    SpkgPackage,
    | 'manifest'
    | 'layout'
    | 'type'
    | 'entry'
    | 'parts'
    | 'assets'
    | 'entries'
    | 'session'
    | 'signature'
    | 'diagnostics'
    | 'hashes'
  > {
  /** The names map of a minified package, when it is one (step 11). */
  names?: NamesMap
  modules: Array<{ path: string; source: string }>
  store: EntryStore
}

/** True where `blob:` URLs serve media: a page or a worker, not Node. */
function blobUrlsAvailable(): boolean {
  const g = globalThis as { document?: unknown; WorkerGlobalScope?: unknown }
  return (
    (g.document !== undefined || g.WorkerGlobalScope !== undefined) &&
    typeof URL.createObjectURL === 'function' &&
    typeof Blob !== 'undefined'
  )
}

/** Builds the {@link SpkgPackage} over a verified store. */
export function createPackage(p: PackageParts): SpkgPackage {
  const { store } = p
  const urls = new Map<string, string>()
  let closed = false
  const readText = (path: string): string => {
    const out: Diagnostic[] = []
    const text = decodeText(store.read(path), path, out)
    if (text === undefined) throw new SpkgError('pkg/invalid-text', out[0]!.message, { diagnostics: out })
    return text
  }
  const pkg: SpkgPackage = {
    manifest: p.manifest,
    layout: p.layout,
    type: p.type,
    entry: p.entry,
    parts: p.parts,
    assets: p.assets,
    entries: p.entries,
    session: p.session,
    modules: p.modules,
    signature: p.signature,
    diagnostics: p.diagnostics,
    has: (path) => store.files.has(path),
    readBytes: async (path) => store.read(path),
    entryView: async (path) => store.read(path, true),
    hashes: p.hashes,
    readText: async (path) => readText(path),
    mediaUrl(path) {
      if (closed || !store.files.has(path) || !blobUrlsAvailable()) return undefined
      let url = urls.get(path)
      if (!url) {
        const data = store.read(path)
        url = URL.createObjectURL(new Blob([data as Uint8Array<ArrayBuffer>], { type: mimeTypeOf(path) }))
        urls.set(path, url)
      }
      return url
    },
    storySource(): StorySource {
      const parts = new Set(p.parts)
      return {
        id: p.manifest?.id ?? p.entry,
        ...(p.manifest?.version !== undefined ? { version: p.manifest.version } : {}),
        ...(p.manifest?.story_lang !== undefined ? { lang: p.manifest.story_lang } : {}),
        parts: p.parts,
        readPart: async (path) => (parts.has(path) ? readText(path) : undefined),
        hasAsset: (path) => store.files.has(path),
        ...(p.session ? { session: p.session } : {}),
        modules: p.modules,
        requires: p.manifest?.requires ?? [],
        ...(p.manifest?.storage ? { storage: p.manifest.storage } : {}),
        diagnostics: p.diagnostics,
        ...(p.names ? { names: p.names } : {}),
      }
    },
    close() {
      if (closed) return
      closed = true
      for (const url of urls.values()) URL.revokeObjectURL(url)
      urls.clear()
      store.release()
    },
  }
  return pkg
}
