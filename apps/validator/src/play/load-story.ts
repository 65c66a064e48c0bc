/**
 * What `spkg play` plays, and what it says before play starts. Every input becomes a package
 * opened through `@spkg/reader`, so a folder, one `.sty` file and the `.spkg` packed from them
 * play alike (`requires`, `.xty` discovery, instruction packages, `--host-namespace`):
 * - a `.spkg` (or `.spkg.enc`) is opened as it is;
 * - a folder is built exactly as `spkg pack` builds it (same code: a manifest without `parts`, or
 *   no manifest and `.sty` files under `story/`, plays), in memory, with entries stored and, when
 *   the manifest has no `id`, a stable id derived from the folder's path (so `--save` and
 *   `--resume` work on a draft);
 * - one `.sty` file is the flat package of that file with the `.xty` modules and the media files
 *   beside it (not those in subfolders, nor other parts).
 * - a repository URL is downloaded by `spkg play` and its archive played ({@link loadStoryBytes}).
 * Then the story checks of `spkg validate` run on the package (`story/…` with line and column).
 */
import { createHash } from 'node:crypto'
import { stat } from 'node:fs/promises'
import { dirname } from 'node:path'
import { checkManifestBounds, type Diagnostic, type JsonValue } from '@spkg/manifest'
import {
  isProgressivePackage,
  type OpenOptions,
  openPackage,
  openPackageFile,
  openPackageUrl,
  type SpkgPackage,
  type StorySource,
} from '@spkg/reader/node'
import type { StoryLang } from '@spkg/story'
import { IOFailure } from '../cli-types'
import { packFolder, packStoryFile } from '../pack/pack-folder'
import { mergeDiagnostics } from '../validate/author-checks'
import { withCliAdvice } from '../validate/decryption-key'
import { packageStoryChecks } from '../validate/validate-package'
import { checkLangInput } from './story-lang'

/** Options of {@link loadStory}. */
export interface LoadStoryOptions {
  /** Replaces the story's own `session.json` values (`--session`). */
  session?: Record<string, JsonValue>
  /** The key of an encrypted package (`--decryption-key`). */
  decryptionKey?: Uint8Array
  /** Host namespaces registered as an embedder would (`--host-namespace`). */
  hostNamespaces?: string[]
  /**
   * The story-language version to read a folder or `.sty` at (`--lang`), checked by
   * {@link checkLangInput} against the folder's manifest (which wins) before anything is read.
   */
  lang?: StoryLang
}

/** The outcome of {@link loadStory}. */
export interface LoadedStory {
  /** The opened package: close it when play is over. Absent when the reader refused it. */
  package?: SpkgPackage
  /** The story to play (absent when refused). */
  source?: StorySource
  /**
   * Everything found before play: building the folder, opening the package (`pkg/…`,
   * `manifest/…`), then the story checks (`story/…`), in that order.
   */
  diagnostics: Diagnostic[]
}

/**
 * A UUID that is always the same for one folder (the manifest `id` of a draft that has none):
 * saved states of the draft resume, and no two folders share one.
 */
function folderId(root: string): string {
  const h = createHash('sha256').update(`spkg play ${root}`).digest('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`
}

/**
 * Loads `path` as a story: see the module comment. Never throws on bad input: what stops play is
 * a diagnostic (a fatal one leaves `source` undefined).
 *
 * @throws IOFailure when the path does not exist or is not a file or folder
 * @example
 * const loaded = await loadStory('/stories/inn', { hostNamespaces: ['host'] })
 * if (loaded.source) createStoryRun(loaded.source)
 */
export async function loadStory(path: string, options: LoadStoryOptions = {}): Promise<LoadedStory> {
  let isFile: boolean
  try {
    const info = await stat(path)
    isFile = info.isFile()
    if (!isFile && !info.isDirectory())
      throw new IOFailure(`cannot read '${path}': not a story file, package or folder`, 'pkg/fetch-failed')
  } catch (e) {
    if (e instanceof IOFailure) throw e
    throw new IOFailure(`cannot read '${path}': no such file or directory`, 'pkg/fetch-failed')
  }
  if (options.lang)
    await checkLangInput(
      options.lang,
      !isFile ? { kind: 'folder', path } : path.endsWith('.sty') ? { kind: 'sty' } : { kind: 'package' },
    )
  const open = openOptions(options)
  let before: Diagnostic[] = []
  let opened: Awaited<ReturnType<typeof openPackage>>
  if (isFile && !path.endsWith('.sty')) opened = await openPackageFile(path, open)
  else {
    const root = isFile ? dirname(path) : path
    const build = { idWhenAbsent: folderId(root), compress: false }
    // One .sty: that file, with the modules and media beside it.
    const packed = isFile ? await packStoryFile(path, { build }) : await packFolder(root, path, { build })
    before = packed.diagnostics
    if (!packed.bytes) return { diagnostics: before }
    opened = await openPackage(packed.bytes, open)
  }
  return finishLoad(opened, before, options)
}

function openOptions(options: LoadStoryOptions): OpenOptions {
  return {
    hostNamespaces: options.hostNamespaces ?? [],
    // spkg play reports what spkg validate would: every bound of docs/manifest-limits.md.
    manifestBounds: checkManifestBounds,
    ...(options.decryptionKey ? { decryptionKey: options.decryptionKey } : {}),
  }
}

/**
 * Loads a story from the bytes of an archive (a repository's, unwrapped), after the findings
 * `before` (the files the repository import left out). Never throws on bad input.
 */
export async function loadStoryBytes(
  bytes: Uint8Array,
  before: Diagnostic[],
  options: LoadStoryOptions = {},
): Promise<LoadedStory> {
  return finishLoad(await openPackage(bytes, openOptions(options)), before, options)
}

/**
 * Loads a story from a package URL as a reader does (`openPackageUrl`: HTTP ranges, and
 * progressively when the manifest says `loading: 'progressive'`). A progressive package skips the
 * story checks across parts (they would fetch every part); its parts arrive as the story enters
 * them. `onBytes` counts the bytes received. Never throws on bad input.
 */
export async function loadStoryUrl(
  url: string,
  options: LoadStoryOptions & { onBytes?: (bytes: number) => void } = {},
): Promise<LoadedStory> {
  const opened = await openPackageUrl(url, {
    ...openOptions(options),
    ...(options.onBytes ? { onBytes: options.onBytes } : {}),
  })
  if (!opened.ok || !isProgressivePackage(opened.package)) return finishLoad(opened, [], options)
  const pkg = opened.package
  const source = pkg.storySource()
  return {
    package: pkg,
    source: options.session ? { ...source, session: options.session } : source,
    diagnostics: [...opened.diagnostics],
  }
}

async function finishLoad(
  opened: Awaited<ReturnType<typeof openPackage>>,
  before: Diagnostic[],
  options: LoadStoryOptions,
): Promise<LoadedStory> {
  if (!opened.ok) return { diagnostics: mergeDiagnostics(before, withCliAdvice(opened.diagnostics)) }
  const pkg = opened.package
  const diagnostics = mergeDiagnostics(before, opened.diagnostics)
  diagnostics.push(...(await packageStoryChecks(pkg, undefined, options.lang)))
  const read = pkg.storySource()
  // `--lang`: the folder or .sty is read at that version (its manifest, if any, declared none or the same)
  const source = options.lang ? { ...read, lang: options.lang } : read
  return {
    package: pkg,
    source: options.session ? { ...source, session: options.session } : source,
    diagnostics,
  }
}
