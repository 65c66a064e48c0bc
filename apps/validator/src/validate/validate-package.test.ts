// biome-ignore-all lint/suspicious/noTemplateCurlyInString: story sources use ${} interpolation
import { buildPackage } from '@spkg/test-utils'
import { describe, expect, it } from 'vitest'
import { validatePackageBytes } from './validate-package'

/** Findings about story text and references, as `path[:line:column] code` (the manifest's own left out). */
const OTHER = new Set(['manifest/normalized', 'pkg/non-canonical-manifest', 'pkg/deflated-media'])
const at = (ds: { code: string; path?: string; line?: number; column?: number }[]) =>
  ds
    .filter((d) => !OTHER.has(d.code))
    .map((d) => `${d.path}${d.line ? `:${d.line}:${d.column}` : ''} ${d.code}`)

describe('validatePackageBytes on story text', () => {
  it('checks parts with a BOM at the right columns, and text that is not UTF-8 with its position', async () => {
    const bytes = buildPackage({
      manifest: { title: 'Texts', cover: 'assets/cover.webp' },
      parts: {
        'story/0001-a.sty': '\ufeff# Inn\n${gold}\n',
        'story/0002-b.sty': new Uint8Array([0x23, 0x20, 0xff, 0x0a]),
      },
      assets: { 'assets/cover.webp': 'img' },
      files: { 'story/extra.sty': new Uint8Array([0xc3, 0x28]) },
    })
    const report = await validatePackageBytes(bytes)
    expect(at(report.diagnostics)).toEqual([
      'story/0001-a.sty pkg/text-bom',
      'story/0002-b.sty pkg/invalid-text',
      'story/extra.sty pkg/invalid-text',
      'story/extra.sty pkg/unreferenced-file',
      'story/0001-a.sty:2:3 story/undeclared',
      // The reader's finding has no position; the story checks give the first bad byte's.
      'story/0002-b.sty:1:3 story/encoding',
      'story/extra.sty:1:1 story/encoding',
      'story/extra.sty:1:1 story/unreachable',
    ])
  })

  it('finds media named only in story text, whatever its script', async () => {
    const bytes = buildPackage({
      manifest: { title: 'Media', cover: 'assets/cover.webp' },
      parts: { 'story/0001-a.sty': '\ufeffThe sign says assets/café-ñ.webp.\n' },
      assets: { 'assets/cover.webp': 'img' },
      files: { 'assets/café-ñ.webp': 'a', 'assets/café-n.webp': 'b' },
    })
    const report = await validatePackageBytes(bytes)
    expect(at(report.diagnostics)).toEqual([
      'story/0001-a.sty pkg/text-bom',
      'assets/café-n.webp pkg/unreferenced-file',
    ])
  })
})
