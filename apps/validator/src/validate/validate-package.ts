/**
 * `spkg validate` on bytes: everything the reader checks (it opens the package exactly as a
 * player would) plus the author checks, gathered into one report.
 */
import { checkManifestBounds, type Diagnostic, hasErrors, hasFatal, type Manifest } from '@spkg/manifest'
import { openPackage, peekPackage, type SpkgPackage } from '@spkg/reader/node'
import { translateDiagnosticNames } from '@spkg/story'
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
  /** At most `maxDiagnostics` findings ({@link DEFAULT_MAX_DIAGNOSTICS}), the most severe first kept, in their order. */
  diagnostics: Diagnostic[]
  /** What was left out of `diagnostics`: how many, and how many of each code. Absent when nothing was. */
  omitted?: OmittedDiagnostics
}

/** The findings a capped report leaves out: their number, and their number per code. */
export interface OmittedDiagnostics {
  count: number
  byCode: Record<string, number>
}

/** The findings one report carries by default: a package naming 400,000 missing parts answers with 200 and a count. */
export const DEFAULT_MAX_DIAGNOSTICS = 200

const SEVERITY_RANK = { fatal: 0, error: 1, warning: 2, info: 3 } as const

/**
 * At most `max` of `diagnostics`: the most severe kept (fatal, error, warning, info; the first ones
 * of a severity before the later ones), in their original order, and a count of the rest by code.
 * `loads` and `valid` are decided on the whole list before it is capped.
 *
 * @example
 * capDiagnostics(found, 200) // { diagnostics: [...200], omitted: { count: 399_801, byCode: { 'pkg/missing-part': 399_801 } } }
 */
export function capDiagnostics(
  diagnostics: readonly Diagnostic[],
  max: number,
): { diagnostics: Diagnostic[]; omitted?: OmittedDiagnostics } {
  if (diagnostics.length <= max) return { diagnostics: [...diagnostics] }
  const limit = Math.max(0, Math.floor(max))
  const order = diagnostics.map((_, i) => i)
  order.sort(
    (a, b) => SEVERITY_RANK[diagnostics[a]!.severity] - SEVERITY_RANK[diagnostics[b]!.severity] || a - b,
  )
  const kept = new Set(order.slice(0, limit))
  const byCode: Record<string, number> = {}
  for (const i of order.slice(limit)) {
    const code = diagnostics[i]!.code
    byCode[code] = (byCode[code] ?? 0) + 1
  }
  return {
    diagnostics: diagnostics.filter((_, i) => kept.has(i)),
    omitted: { count: diagnostics.length - kept.size, byCode },
  }
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
   * The most findings the report carries ({@link DEFAULT_MAX_DIAGNOSTICS} by default; `Infinity` for
   * all): the rest are counted in `omitted`.
   */
  maxDiagnostics?: number
  /**
   * Called with the opened package after the checks, before it is closed (`spkg sign` reads the
   * files it re-packs here instead of opening the package a second time). Not called when refused.
   */
  onOpened?: (pkg: SpkgPackage) => Promise<void>
  /**
   * The story-language version to read the story at instead of the manifest's (`spkg validate
   * --lang` on a folder or a `.sty` whose manifest, if any, declares none).
   */
  storyLang?: string
}

/**
 * The verified bytes of a story file, or undefined when it cannot be read. Bytes that are not
 * UTF-8 go to the story checker too, which reports `story/encoding` at the first bad byte's line
 * and column (the reader's `pkg/invalid-text` has no position). A BOM is left for the story
 * parser, which ignores it.
 */
async function readStoryBytes(pkg: SpkgPackage, path: string): Promise<Uint8Array | undefined> {
  try {
    return await pkg.readBytes(path)
  } catch {
    return undefined
  }
}

/** The parts (as bytes) and modules of an opened package, by path. */
async function partTexts(pkg: SpkgPackage): Promise<Map<string, string | Uint8Array>> {
  // Story files stay bytes (off the JavaScript heap) until the checker decodes them one by one.
  const texts = new Map<string, string | Uint8Array>()
  for (const path of pkg.parts) {
    const bytes = await readStoryBytes(pkg, path)
    if (bytes) texts.set(path, bytes)
  }
  for (const m of pkg.modules) texts.set(m.path, m.source)
  return texts
}

/**
 * The story checks `spkg validate` runs on an opened package (`checkStory` on every `.sty` of
 * the archive, listed or not, and every module): the `story/…` diagnostics, with line and column.
 * `spkg play` reports the same before play starts. `texts` are the parts and modules already read
 * ({@link partTexts}). Never throws on bad input.
 *
 * @example
 * const findings = await packageStoryChecks(opened.package)
 */
export async function packageStoryChecks(
  pkg: SpkgPackage,
  texts?: ReadonlyMap<string, string | Uint8Array>,
  /** The version to read the story at instead of its manifest's (`--lang` on a folder or `.sty`). */
  storyLang?: string,
): Promise<Diagnostic[]> {
  const all = new Map(texts ?? (await partTexts(pkg)))
  // checkStory wants every .sty of the archive, not only the listed parts.
  for (const e of pkg.entries) {
    if (!e.path.endsWith('.sty') || all.has(e.path)) continue
    const bytes = await readStoryBytes(pkg, e.path)
    if (bytes) all.set(e.path, bytes)
  }
  const found = storyChecks({
    parts: new Map([...all].filter(([p]) => p.endsWith('.sty'))),
    order: pkg.parts,
    modules: new Map(pkg.modules.map((m) => [m.path, m.source] as const)),
    files: pkg.entries.map((e) => e.path),
    layout: pkg.layout,
    ...(pkg.manifest ? { manifest: pkg.manifest } : {}),
    ...(pkg.session ? { session: pkg.session } : {}),
    ...(storyLang !== undefined ? { storyLang } : {}),
  })
  // A minified package's findings name the author's variables and ids (lines are the minified file's).
  const names = pkg.storySource().names
  return names ? found.map((d) => translateDiagnosticNames(d, names)) : found
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
  const report = await validateUncapped(bytes, options)
  const capped = capDiagnostics(report.diagnostics, options.maxDiagnostics ?? DEFAULT_MAX_DIAGNOSTICS)
  return { ...report, ...capped }
}

async function validateUncapped(
  bytes: Uint8Array | Blob,
  options: ValidateOptions,
): Promise<ValidationReport> {
  const before = options.before ?? []
  // Every bound of docs/manifest-limits.md: the validator is where publishing policy is enforced.
  const key = {
    manifestBounds: checkManifestBounds,
    ...(options.decryptionKey ? { decryptionKey: options.decryptionKey } : {}),
  }
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
    const texts = await partTexts(pkg)
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
    const story = await packageStoryChecks(pkg, texts, options.storyLang)
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
