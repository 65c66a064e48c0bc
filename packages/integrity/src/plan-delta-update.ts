/**
 * Delta updates (draft in the SPEC): compare an installed package's `integrity` map with the
 * next version's and list exactly what to fetch. The local cache is keyed by hash, so a renamed
 * or duplicated file costs nothing. `manifest.json` and `META-PKG/*` are outside `integrity`: the
 * updater always fetches and verifies them first (signature → checksum → manifest → integrity).
 */
import { checkArchivePath, createDiagnostic, type Diagnostic, toPointer } from '@spkg/manifest'
import { compareUtf8 } from './checksum-file'
import { entriesOf, isOutsideIntegrity } from './internal/paths'
import { normalizeDigest } from './normalize-digest'

/** What to do to turn the installed files into the next version. */
export interface DeltaPlan {
  /** Next-version paths whose bytes are not installed under any path: fetch and verify each. */
  download: string[]
  /** Next-version paths whose bytes are already installed (`from`, the same path when unchanged). */
  reuse: { path: string; from: string }[]
  /** Installed paths absent from the next version: delete them after copying the `reuse` entries. */
  remove: string[]
  /** True when the next manifest has no `integrity`: no delta is possible, fetch the whole package. */
  fullDownload: boolean
  diagnostics: Diagnostic[]
}

/**
 * Plans a delta update. Applying it (copy `reuse`, delete `remove`, fetch `download`) yields
 * exactly the paths of `next.integrity`. Never throws on bad input: an unusable next hash is
 * downloaded (and reported), an unusable installed hash is simply not reused. Every path is a
 * file name the host will write or delete, so a next path that is not a safe archive path
 * (`../x`, `/etc/x`, `C:/x`, a backslash...) is left out of the plan and reported as
 * `pkg/unsafe-path` (fatal: refuse the update); an unsafe installed path is never read or removed.
 *
 * @param installed the installed package's `integrity` map (path → SHA-256, hex or SRI)
 * @param next the new manifest (only `integrity` is read)
 * @example
 * planDeltaUpdate({ 'a.sty': h1, 'b.sty': h2 }, { integrity: { 'a.sty': h1, 'c.sty': h2 } })
 * // { download: [], reuse: [{ path: 'a.sty', from: 'a.sty' }, { path: 'c.sty', from: 'b.sty' }],
 * //   remove: ['b.sty'], fullDownload: false, diagnostics: [] }
 */
export function planDeltaUpdate(
  installed: Readonly<Record<string, string>> | ReadonlyMap<string, string>,
  next: { integrity?: Readonly<Record<string, string>> },
): DeltaPlan {
  const plan: DeltaPlan = { download: [], reuse: [], remove: [], fullDownload: false, diagnostics: [] }
  const have = new Map<string, string>()
  const byHash = new Map<string, string>()
  const installedPaths = (installed && typeof installed === 'object' ? [...entriesOf(installed)] : [])
    .filter(([path]) => checkArchivePath(path) === undefined)
    .sort((a, b) => compareUtf8(a[0], b[0]))
  for (const [path, value] of installedPaths) {
    const hex = normalizeDigest(value)
    if (hex === undefined || isOutsideIntegrity(path)) continue
    have.set(path, hex)
    if (!byHash.has(hex)) byHash.set(hex, path)
  }
  if (!next?.integrity || typeof next.integrity !== 'object') {
    plan.fullDownload = true
    return plan
  }
  const wanted = new Set<string>()
  const nextEntries = [...entriesOf(next.integrity)].sort((a, b) => compareUtf8(a[0], b[0]))
  for (const [path, value] of nextEntries) {
    if (isOutsideIntegrity(path)) continue
    const unsafe = checkArchivePath(path)
    if (unsafe !== undefined) {
      plan.diagnostics.push(
        createDiagnostic(
          'pkg/unsafe-path',
          `integrity path '${path}' ${unsafe}; it is left out of the plan`,
          {
            path,
            field: toPointer(['integrity', path]),
          },
        ),
      )
      continue
    }
    wanted.add(path)
    const hex = normalizeDigest(value)
    if (hex === undefined) {
      plan.diagnostics.push(
        createDiagnostic('pkg/integrity-malformed', `integrity value for '${path}' is not a SHA-256 digest`, {
          path,
          field: toPointer(['integrity', path]),
        }),
      )
      plan.download.push(path)
    } else if (have.get(path) === hex) plan.reuse.push({ path, from: path })
    else if (byHash.has(hex)) plan.reuse.push({ path, from: byHash.get(hex)! })
    else plan.download.push(path)
  }
  for (const [path] of installedPaths)
    if (!wanted.has(path) && !isOutsideIntegrity(path)) plan.remove.push(path)
  return plan
}
