/**
 * Step 8, the parts: `manifest.parts` in order (file names never order them). The first is the
 * entry and must be a `.sty` present in the archive and valid UTF-8 (`pkg/no-entry`, fatal); a
 * missing later part is `pkg/missing-part` (error) and is left out. A flat archive plays its
 * entry alone.
 */
import { createDiagnostic, type Diagnostic } from '@spkg/manifest'
import { entryOf, type Opening } from '../opening'
import { MANIFEST_PATH } from './03-layout'

/** The entry part and the parts in play order, with the findings pushed. */
export function resolveParts(o: Opening): { entry: string | undefined; parts: string[] } {
  const { diagnostics } = o
  const has = (path: string) => o.store.files.has(path)
  const entry = entryOf(o)
  const parts: string[] = []
  if (o.layout === 'flat') parts.push(entry!)
  else {
    const listed = o.manifest?.parts ?? []
    listed.forEach((part, i) => {
      if (i === 0) return
      if (has(part.file)) parts.push(part.file)
      else diagnostics.push(finding.missingPart(part.file, i))
    })
    if (entry === undefined) diagnostics.push(finding.noParts())
    else if (!entry.endsWith('.sty')) diagnostics.push(finding.notStory(entry))
    else if (!has(entry)) diagnostics.push(finding.missingEntry(entry))
    else parts.unshift(entry)
  }
  // An entry story that is not UTF-8 text cannot be played: there is no usable entry.
  if (entry?.endsWith('.sty') && has(entry) && hasInvalidText(diagnostics, entry))
    diagnostics.push(finding.entryNotText(entry, o.layout))
  return { entry, parts }
}

/** True when `path` was found not to be UTF-8 text (step 5). */
const hasInvalidText = (diagnostics: readonly Diagnostic[], path: string) =>
  diagnostics.some((d) => d.code === 'pkg/invalid-text' && d.path === path)

/** The wording of {@link resolveParts}' findings. */
const finding = {
  missingPart: (file: string, i: number) =>
    createDiagnostic(
      'pkg/missing-part',
      `Part "${file}" is listed in manifest.parts but missing from the archive.`,
      {
        path: file,
        field: `/parts/${i}/file`,
      },
    ),
  noParts: () =>
    createDiagnostic('pkg/no-entry', 'manifest.json lists no parts, so the package has no entry story.', {
      path: MANIFEST_PATH,
      field: '/parts',
    }),
  notStory: (entry: string) =>
    createDiagnostic(
      'pkg/no-entry',
      `The first part "${entry}" is not a .sty story file, so it cannot be the entry.`,
      {
        path: entry,
        field: '/parts/0/file',
      },
    ),
  missingEntry: (entry: string) =>
    createDiagnostic(
      'pkg/no-entry',
      `The entry part "${entry}" (first of manifest.parts) is missing from the archive.`,
      { path: entry, field: '/parts/0/file' },
    ),
  entryNotText: (entry: string, layout: Opening['layout']) =>
    createDiagnostic(
      'pkg/no-entry',
      `The entry part "${entry}" is not valid UTF-8 text, so it cannot be played.`,
      {
        path: entry,
        ...(layout === 'packaged' ? { field: '/parts/0/file' } : {}),
      },
    ),
}
