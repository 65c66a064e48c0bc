/**
 * `spkg validate` on bytes: everything the reader checks (it opens the package exactly as a
 * player would) plus the author checks, gathered into one report.
 */
import { isUtf8 } from 'node:buffer'
import { type Diagnostic, hasErrors, hasFatal, type Manifest } from '@spkg/manifest'
import { openPackage, peekPackage, type SpkgPackage } from '@spkg/reader/node'
import { authorChecks, mergeDiagnostics } from './author-checks'
import { withCliAdvice } from './decryption-key'
import { secretKeyFindings } from './secret-key'
import { storyChecks } from './story-checks'

/** The result of validating a package, as `--format json` prints it. */
export interface ValidationReport {
  /** A reader would open it: no fatal diagnostic. */
  loads: boolean
  /** No fatal and no error diagnostic. */
  valid: boolean
  layout: 'packaged' | 'flat' | null
  type: 'story' | 'instruction' | null
  entry: string | null
  parts: string[]
  /** The canonical manifest, or null (flat layout, or no readable manifest). Filled from the quick look when refused. */
  manifest: Manifest | null
  diagnostics: Diagnostic[]
}

/** Options of {@link validatePackageBytes}. */
export interface ValidateOptions {
  /** signify public-key texts or `ed25519:` fingerprints the embedder would trust. */
  trustedKeys?: string[]
  /** Host-extension namespaces an embedder would register. */
  hostNamespaces?: string[]
  /** The key of an encrypted package (`.spkg.enc`). */
  decryptionKey?: Uint8Array
  /** Findings from before the bytes existed (`spkg pack`'s), reported first. */
  before?: readonly Diagnostic[]
  /** The bytes were just built by `spkg pack`: their manifest is canonical by construction. */
  built?: boolean
  /**
   * Called with the opened package after the checks, before it is closed (`spkg sign` reads the
   * files it re-packs here instead of opening the package a second time). Not called when refused.
   */
  onOpened?: (pkg: SpkgPackage) => Promise<void>
}

/**
 * The verified bytes of a text file, or undefined when it is missing or not UTF-8 (which the
 * reader reports for parts). A BOM is left for the story parser, which ignores it.
 */
async function readUtf8(pkg: SpkgPackage, path: string): Promise<Uint8Array | undefined> {
  try {
    const bytes = await pkg.readBytes(path)
    return isUtf8(bytes) ? bytes : undefined
  } catch {
    return undefined
  }
}

/**
 * Opens `bytes` as a reader would and adds the author checks. Never throws on bad input.
 *
 * @example
 * const report = await validatePackageBytes(bytes, { trustedKeys: [pubText] })
 * report.valid // true when there is no error and no fatal problem
 */
export async function validatePackageBytes(
  bytes: Uint8Array | Blob,
  options: ValidateOptions = {},
): Promise<ValidationReport> {
  const before = options.before ?? []
  const key = options.decryptionKey ? { decryptionKey: options.decryptionKey } : {}
  const opened = await openPackage(bytes, {
    trustedKeys: options.trustedKeys ?? [],
    hostNamespaces: options.hostNamespaces ?? [],
    ...key,
  })
  if (!opened.ok) {
    const diagnostics = mergeDiagnostics(before, withCliAdvice(opened.diagnostics))
    // Refused: still say what the archive claims to be when its directory and manifest can be read.
    const peek = await peekPackage(bytes, key)
    const manifest = peek.ok ? (peek.manifest ?? null) : null
    return {
      loads: false,
      valid: false,
      layout: peek.ok ? peek.layout : null,
      type: peek.ok ? peek.type : null,
      entry: peek.ok ? (peek.entry ?? null) : null,
      parts: manifest?.parts?.map((p) => p.file) ?? [],
      manifest,
      diagnostics,
    }
  }
  const pkg = opened.package
  try {
    // Story files stay bytes (off the JavaScript heap) until the checker decodes them one by one.
    const texts = new Map<string, string | Uint8Array>()
    for (const path of pkg.parts) {
      const bytes = await readUtf8(pkg, path)
      if (bytes) texts.set(path, bytes)
    }
    for (const m of pkg.modules) texts.set(m.path, m.source)
    let manifestText: string | undefined
    if (!options.built && pkg.layout === 'packaged' && pkg.has('manifest.json')) {
      try {
        manifestText = await pkg.readText('manifest.json')
      } catch {
        manifestText = undefined
      }
    }
    const author = authorChecks({
      layout: pkg.layout,
      ...(pkg.manifest ? { manifest: pkg.manifest } : {}),
      ...(manifestText !== undefined ? { manifestText } : {}),
      entries: pkg.entries.map((e) => ({ path: e.path, method: e.method === 'stored' ? 0 : 8 })),
      entry: pkg.entry,
      texts,
    })
    let diagnostics = mergeDiagnostics(before, opened.diagnostics)
    diagnostics.push(...(await secretKeyFindings(pkg)))
    diagnostics = mergeDiagnostics(diagnostics, author)
    // checkStory wants every .sty of the archive, not only the listed parts.
    for (const e of pkg.entries) {
      if (!e.path.endsWith('.sty') || texts.has(e.path)) continue
      // Not UTF-8: the reader reported it for parts; an unlisted file is not played.
      const bytes = await readUtf8(pkg, e.path)
      if (bytes) texts.set(e.path, bytes)
    }
    const story = storyChecks({
      parts: new Map([...texts].filter(([p]) => p.endsWith('.sty'))),
      order: pkg.parts,
      modules: new Map(pkg.modules.map((m) => [m.path, m.source] as const)),
      files: pkg.entries.map((e) => e.path),
      layout: pkg.layout,
      ...(pkg.manifest ? { manifest: pkg.manifest } : {}),
      ...(pkg.session ? { session: pkg.session } : {}),
    })
    diagnostics = [...diagnostics, ...story]
    await options.onOpened?.(pkg)
    return {
      loads: !hasFatal(diagnostics),
      valid: !hasErrors(diagnostics),
      layout: pkg.layout,
      type: pkg.type,
      entry: pkg.entry,
      parts: pkg.parts,
      manifest: pkg.manifest ?? null,
      diagnostics,
    }
  } finally {
    pkg.close()
  }
}
