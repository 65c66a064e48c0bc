/**
 * Layout detection, exactly as the SPEC's table: packaged (root `manifest.json`) or flat (root
 * `.sty` files, no manifest); an archive wrapped in one folder gets its own error.
 */
import { createDiagnostic, type Diagnostic } from '@spkg/manifest'
import { compareCodePoints } from '../zip/check-entry-name'

/** The root manifest path of the packaged layout. */
export const MANIFEST_PATH = 'manifest.json'

/** What {@link detectLayout} found. */
export interface LayoutResult {
  layout?: 'packaged' | 'flat'
  /** The flat layout's entry: the lowest root `*.sty` by code point. */
  flatEntry?: string
  diagnostics: Diagnostic[]
}

const isRootStory = (name: string) => !name.includes('/') && name.endsWith('.sty')

/**
 * Decides the layout from the entry names (system clutter already left out; directories keep
 * their trailing `/`). Fatal `pkg/wrapped-layout` or `pkg/no-entry` when neither layout fits.
 *
 * @example
 * detectLayout(['manifest.json', 'story/0001-inn.sty']).layout // 'packaged'
 * detectLayout(['b.sty', 'a.sty']).flatEntry                   // 'a.sty'
 */
export function detectLayout(names: readonly string[]): LayoutResult {
  const diagnostics: Diagnostic[] = []
  // One pass, no callback per name (this runs cold on every open and peek).
  const files: string[] = []
  const rootStories: string[] = []
  let packaged = false
  for (let i = 0; i < names.length; i++) {
    const n = names[i]!
    if (n.endsWith('/')) continue
    files.push(n)
    if (n === MANIFEST_PATH) packaged = true
    else if (isRootStory(n)) rootStories.push(n)
  }
  rootStories.sort(compareCodePoints)
  if (packaged) {
    for (const s of rootStories) diagnostics.push(report.mixed(s))
    return { layout: 'packaged', diagnostics }
  }
  if (rootStories.length > 0) {
    for (const f of files) if (f.includes('/')) diagnostics.push(report.misplaced(f))
    return { layout: 'flat', flatEntry: rootStories[0], diagnostics }
  }
  return neither(names, diagnostics)
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
