/**
 * Layout detection, exactly as the SPEC's table: packaged (root `manifest.json`) or flat (root
 * `.sty` files, no manifest); an archive wrapped in one folder gets its own error.
 */
import { createDiagnostic, type Diagnostic } from '@spkg/manifest'
import { compareCodePoints, type ZipEntry } from '@spkg/zip'

/** The root manifest path of the packaged layout. */
export const MANIFEST_PATH = 'manifest.json'

/** What {@link detectLayout} found. */
export interface LayoutResult {
  layout?: 'packaged' | 'flat'
  /** The flat layout's entry: the lowest root `*.sty` by code point. */
  flatEntry?: string
  /** The packaged layout's `manifest.json` entry. */
  manifest?: ZipEntry
  diagnostics: Diagnostic[]
}

/**
 * Decides the layout from the archive's entries (system clutter is left out; directories keep
 * their trailing `/`). Fatal `pkg/wrapped-layout` or `pkg/no-entry` when neither layout fits.
 *
 * @example
 * detectLayout(directory.entries).layout // 'packaged' with a root manifest.json
 */
export function detectLayout(entries: readonly ZipEntry[]): LayoutResult {
  const diagnostics: Diagnostic[] = []
  // One pass, no callback or copy per entry (this runs cold on every open and peek).
  let manifest: ZipEntry | undefined
  const rootStories: string[] = []
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i]!
    if (e.ignored || e.isDirectory) continue
    const n = e.name
    if (n === MANIFEST_PATH) manifest = e
    else if (n.endsWith('.sty') && !n.includes('/')) rootStories.push(n)
  }
  if (manifest && rootStories.length === 0) return { layout: 'packaged', manifest, diagnostics }
  return otherLayouts(entries, manifest, rootStories, diagnostics)
}

/** {@link detectLayout} past the usual package (a manifest and no story file at the root). */
function otherLayouts(
  entries: readonly ZipEntry[],
  manifest: ZipEntry | undefined,
  rootStories: string[],
  diagnostics: Diagnostic[],
): LayoutResult {
  rootStories.sort(compareCodePoints)
  if (manifest) {
    for (const s of rootStories) diagnostics.push(report.mixed(s))
    return { layout: 'packaged', manifest, diagnostics }
  }
  if (rootStories.length > 0) {
    for (const e of entries)
      if (!e.ignored && !e.isDirectory && e.name.includes('/')) diagnostics.push(report.misplaced(e.name))
    return { layout: 'flat', flatEntry: rootStories[0], diagnostics }
  }
  return neither(
    entries.filter((e) => !e.ignored).map((e) => e.name),
    diagnostics,
  )
}

/** The wording of the layout findings, compiled only when one is made. */
const report = {
  mixed: (s: string) =>
    createDiagnostic(
      'pkg/mixed-layout',
      `"${s}" sits at the root next to manifest.json; the manifest decides which parts play.`,
      { path: s },
    ),
  misplaced: (f: string) =>
    createDiagnostic(
      'pkg/misplaced-file',
      `"${f}" is in a folder, but a flat archive (no manifest.json) keeps its files at the root.`,
      { path: f },
    ),
}

/** Neither layout fits: one folder wrapping everything, or no entry at all (both fatal). */
function neither(names: readonly string[], diagnostics: Diagnostic[]): LayoutResult {
  const tops = new Set(names.map((n) => n.split('/')[0]))
  if (names.length > 0 && tops.size === 1 && names.every((n) => n.includes('/'))) {
    const [top] = tops
    diagnostics.push(
      createDiagnostic(
        'pkg/wrapped-layout',
        `Every entry sits inside the folder "${top}/": zip the folder's contents, not the folder itself, so manifest.json (or the .sty files) sit at the archive root.`,
      ),
    )
    return { diagnostics }
  }
  diagnostics.push(
    createDiagnostic(
      'pkg/no-entry',
      names.length === 0
        ? 'The archive is empty: a package needs manifest.json or a .sty file at its root.'
        : 'The archive has neither manifest.json nor a .sty file at its root, so it has no entry story.',
    ),
  )
  return { diagnostics }
}
