/**
 * The package side of minification (`spkg pack --minify`, `spkg unminify`): the story sources of a
 * package's files (archive path → bytes) minified with `@spkg/story`'s `minifyStory`, the names
 * map at `META-PKG/names.json`, and back. Never renames anything a reader sees.
 */
import type { Manifest } from '@spkg/manifest'
import {
  MinifyError,
  minifyStory,
  type NamesMap,
  readingLang,
  type StoryFile,
  type StoryLang,
  unminifyStory,
} from '@spkg/story'

/** Where `spkg pack --minify` writes the names map (SPEC, manifest `build.names_map`). */
export const NAMES_MAP_PATH = 'META-PKG/names.json'

const decoder = new TextDecoder('utf-8', { fatal: true })
const encoder = new TextEncoder()
const isSource = (p: string) => p.endsWith('.sty') || p.endsWith('.xty')

function sources(files: ReadonlyMap<string, Uint8Array>): StoryFile[] {
  const out: StoryFile[] = []
  for (const [path, bytes] of files) {
    if (!isSource(path)) continue
    let text: string
    try {
      text = decoder.decode(bytes)
    } catch {
      throw new MinifyError('minify/invalid-story', `${path} is not UTF-8 text`, path)
    }
    out.push({ path, text })
  }
  return out
}

/** The top-level keys of `session.json` (they become story variables: never renamed). */
function sessionKeys(files: ReadonlyMap<string, Uint8Array>): string[] {
  const bytes = files.get('session.json')
  if (!bytes) return []
  try {
    const value = JSON.parse(decoder.decode(bytes)) as unknown
    return value && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : []
  } catch {
    return []
  }
}

/** The manifest's `story_lang`, the version the sources are read at (absent or unreadable: 1.0). */
function manifestLang(files: ReadonlyMap<string, Uint8Array>): StoryLang {
  const bytes = files.get('manifest.json')
  if (!bytes) return '1.0'
  try {
    const value = JSON.parse(decoder.decode(bytes)) as { story_lang?: unknown } | null
    return typeof value?.story_lang === 'string' ? readingLang(value.story_lang) : '1.0'
  } catch {
    return '1.0'
  }
}

/**
 * Minifies the sources among `files`: returns the files with the sources replaced (the manifest's
 * `integrity` dropped, the builder recomputes it) and the names map's bytes.
 *
 * @throws MinifyError when a source has errors or could not be minified safely
 */
export function minifyPackageFiles(files: ReadonlyMap<string, Uint8Array>): {
  files: Map<string, Uint8Array>
  namesMap: Uint8Array
  names: NamesMap
} {
  const { files: minified, names } = minifyStory(sources(files), {
    keep: sessionKeys(files),
    lang: manifestLang(files),
  })
  const out = new Map(files)
  for (const f of minified) out.set(f.path, encoder.encode(f.text))
  const manifest = out.get('manifest.json')
  if (manifest) {
    const value = JSON.parse(decoder.decode(manifest)) as Record<string, unknown>
    delete value.integrity
    out.set('manifest.json', encoder.encode(`${JSON.stringify(value, null, 2)}\n`))
  }
  return { files: out, namesMap: namesMapBytes(names), names }
}

/** The names map as the package stores it: compact JSON (it is read by programs, not people). */
const namesMapBytes = (names: NamesMap) => encoder.encode(`${JSON.stringify(names)}\n`)

/** The manifest of a minified package: `build` says so and where the names map is. */
export function markMinified(manifest: Manifest): Manifest {
  return { ...manifest, build: { ...(manifest.build ?? {}), minified: true, names_map: NAMES_MAP_PATH } }
}

/**
 * The files of a story folder restored from a minified package's files: sources unminified, the
 * names map and the signature files left out, `build`, `integrity` and the signature fields
 * removed from the manifest (packing recomputes them).
 *
 * @throws MinifyError `minify/bad-names-map` when the package has no readable names map
 */
export function unminifyPackageFiles(files: ReadonlyMap<string, Uint8Array>): Map<string, Uint8Array> {
  const manifestBytes = files.get('manifest.json')
  let manifest: Record<string, unknown> | undefined
  if (manifestBytes) manifest = JSON.parse(decoder.decode(manifestBytes)) as Record<string, unknown>
  const build = manifest?.build as { names_map?: unknown } | undefined
  const mapPath = typeof build?.names_map === 'string' ? build.names_map : NAMES_MAP_PATH
  const mapBytes = files.get(mapPath)
  if (!mapBytes)
    throw new MinifyError(
      'minify/bad-names-map',
      `the package has no names map (${mapPath}): it is not minified`,
    )
  let names: NamesMap
  try {
    names = JSON.parse(decoder.decode(mapBytes)) as NamesMap
  } catch {
    throw new MinifyError('minify/bad-names-map', `${mapPath} is not JSON`)
  }
  const restored = unminifyStory(sources(files), names, { lang: manifestLang(files) })
  const out = new Map<string, Uint8Array>()
  for (const [path, bytes] of files) if (!path.startsWith('META-PKG/')) out.set(path, bytes)
  for (const f of restored) out.set(f.path, encoder.encode(f.text))
  if (manifest) {
    for (const k of ['build', 'integrity', 'signed', 'signature']) delete manifest[k]
    out.set('manifest.json', encoder.encode(`${JSON.stringify(manifest, null, 2)}\n`))
  }
  return out
}
