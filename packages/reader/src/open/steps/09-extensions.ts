/**
 * Step 9, the extension modules (`.xty`): in `manifest.extensions` order, where a listed module
 * missing from the archive is `pkg/missing-extension` (fatal); without the field, every `.xty` by
 * code point. Loading a module never activates it (only a story's `{use}` does).
 */
import { createDiagnostic } from '@spkg/manifest'
import { compareCodePoints, type ZipEntry } from '@spkg/zip'
import { decodeText } from '../entry-store'
import type { Opening } from '../opening'

/** The modules in load order with their source text, with the findings pushed. */
export function loadExtensions(
  o: Opening,
  visible: readonly ZipEntry[],
): Array<{ path: string; source: string }> {
  const { store } = o
  const modules: Array<{ path: string; source: string }> = []
  const paths =
    o.manifest?.extensions ??
    visible
      .map((e) => e.name)
      .filter((n) => n.endsWith('.xty'))
      .sort(compareCodePoints)
  paths.forEach((path, i) => {
    if (!store.files.has(path)) {
      o.diagnostics.push(
        createDiagnostic(
          'pkg/missing-extension',
          `Extension "${path}" is listed in manifest.extensions but missing from the archive.`,
          { path, field: `/extensions/${i}` },
        ),
      )
      return
    }
    // A module that is not UTF-8 was reported by step 5; it is left out.
    const source = decodeText(store.read(path), path, [])
    if (source !== undefined) modules.push({ path, source })
  })
  return modules
}
