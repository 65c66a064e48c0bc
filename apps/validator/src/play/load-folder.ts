/**
 * Reads a story folder (or one `.sty` file) from disk into a `StorySource` for `spkg play`:
 * with `manifest.json`, parts in `manifest.parts` order and extensions in `manifest.extensions`
 * order (else `extensions/*.xty` by code point); without one, a flat story whose one part is the
 * first `*.sty` by code point, with `*.xty` modules beside it.
 */
import { readdir, readFile, stat } from 'node:fs/promises'
import { basename, dirname, join, relative, sep } from 'node:path'
import {
  createDiagnostic,
  type Diagnostic,
  hasFatal,
  type JsonValue,
  parseManifestText,
  parseSessionText,
} from '@spkg/manifest'
import type { StorySource } from '@spkg/reader'
import { IOFailure } from '../cli-types'

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

async function readText(file: string): Promise<string | undefined> {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(await readFile(file))
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'EISDIR') {
      return undefined
    }
    if (e instanceof TypeError) return undefined
    throw e
  }
}

async function listFiles(root: string, dir = root): Promise<string[]> {
  let entries: import('node:fs').Dirent[]
  try {
    entries = await readdir(dir, { withFileTypes: true })
  } catch {
    return []
  }
  const out: string[] = []
  for (const e of entries) {
    const full = join(dir, e.name)
    if (e.isDirectory()) out.push(...(await listFiles(root, full)))
    else if (e.isFile()) out.push(relative(root, full).split(sep).join('/'))
  }
  return out
}

/** The outcome of {@link loadFolder}: the source when it can play, and the findings either way. */
export interface FolderLoad {
  source?: StorySource
  diagnostics: Diagnostic[]
}

/**
 * Loads a folder or a `.sty` file as a story.
 *
 * @throws IOFailure when the path does not exist
 */
export async function loadFolder(
  path: string,
  sessionOverride?: Record<string, JsonValue>,
): Promise<FolderLoad> {
  let isDir: boolean
  try {
    isDir = (await stat(path)).isDirectory()
  } catch {
    throw new IOFailure(`cannot read '${path}': no such file or directory`)
  }
  const root = isDir ? path : dirname(path)
  const files = (await listFiles(root)).sort(byCodePoint)
  const fileSet = new Set(files)
  const diagnostics: Diagnostic[] = []
  const manifestText = isDir ? await readText(join(root, 'manifest.json')) : undefined

  let id: string
  let version: string | undefined
  let parts: string[]
  let modulePaths: string[]
  let requires: string[] = []
  let storage: StorySource['storage']
  if (manifestText !== undefined) {
    const parsed = parseManifestText(manifestText)
    diagnostics.push(...parsed.diagnostics)
    if (!parsed.manifest || hasFatal(parsed.diagnostics)) return { diagnostics }
    const m = parsed.manifest
    id = m.id
    version = m.version
    parts = (m.parts ?? []).map((p) => p.file)
    modulePaths = m.extensions ?? files.filter((f) => f.startsWith('extensions/') && f.endsWith('.xty'))
    requires = m.requires ?? []
    storage = m.storage
  } else {
    const entry = isDir ? files.find((f) => !f.includes('/') && f.endsWith('.sty')) : basename(path)
    if (!entry) {
      diagnostics.push(createDiagnostic('pkg/no-entry', `${path} has no manifest.json and no .sty file`))
      return { diagnostics }
    }
    id = entry
    parts = [entry]
    modulePaths = files.filter((f) => !f.includes('/') && f.endsWith('.xty'))
  }
  if (parts.length === 0) {
    diagnostics.push(
      createDiagnostic('pkg/no-entry', 'the manifest lists no parts', { path: 'manifest.json' }),
    )
    return { diagnostics }
  }

  if (!fileSet.has(parts[0] ?? '')) {
    diagnostics.push(createDiagnostic('pkg/no-entry', `the entry part ${parts[0]} is not in the folder`))
    return { diagnostics }
  }
  const modules: Array<{ path: string; source: string }> = []
  for (const p of modulePaths) {
    const source = await readText(join(root, p))
    if (source === undefined) {
      diagnostics.push(
        createDiagnostic('pkg/missing-extension', `extension ${p} is not in the folder`, { path: p }),
      )
    } else modules.push({ path: p, source })
  }
  if (hasFatal(diagnostics)) return { diagnostics }

  let session: Record<string, JsonValue> | undefined = sessionOverride
  if (!session && isDir) {
    const text = await readText(join(root, 'session.json'))
    if (text !== undefined) {
      const parsed = parseSessionText(text, { path: 'session.json' })
      diagnostics.push(...parsed.diagnostics)
      session = parsed.session
    }
  }

  const source: StorySource = {
    id,
    version,
    parts,
    readPart: (p) => (fileSet.has(p) ? readText(join(root, p)) : undefined),
    hasAsset: (p) => fileSet.has(p),
    session,
    modules,
    requires,
    storage,
    diagnostics,
  }
  return { source, diagnostics }
}
