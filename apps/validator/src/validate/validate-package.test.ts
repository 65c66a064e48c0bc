// biome-ignore-all lint/suspicious/noTemplateCurlyInString: story sources use ${} interpolation
import { buildPackage } from '@spkg/test-utils'
import { describe, expect, it } from 'vitest'
import { DEFAULT_MAX_DIAGNOSTICS, validatePackageBytes } from './validate-package'

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

describe('validatePackageBytes caps its findings', () => {
  // 1,000 undeclared variables (errors, each its own finding) after a warning and two infos.
  const undeclared = Array.from({ length: 1000 }, (_, i) => `\${v${i}}`).join('\n')
  const bytes = buildPackage({
    manifest: { title: 'Many', cover: 'assets/cover.webp' },
    parts: { 'story/0001-a.sty': `# A\n${undeclared}\n` },
    assets: { 'assets/cover.webp': 'img' },
  })
  const key = (d: { code: string; path?: string; line?: number }) => `${d.code} ${d.path}:${d.line}`

  it('keeps the 200 most severe, in the order found, and counts the rest by code', async () => {
    const all = await validatePackageBytes(bytes, { maxDiagnostics: Number.POSITIVE_INFINITY })
    expect(all.omitted).toBeUndefined()
    expect(all.diagnostics.filter((d) => d.code === 'story/undeclared')).toHaveLength(1000)
    expect(all.diagnostics.slice(0, 3).map((d) => d.severity)).toEqual(['info', 'info', 'warning'])
    const report = await validatePackageBytes(bytes)
    expect(report.diagnostics).toHaveLength(DEFAULT_MAX_DIAGNOSTICS)
    // The warning and infos found first give way to the errors found after them.
    expect(report.diagnostics.map(key)).toEqual(
      all.diagnostics
        .filter((d) => d.code === 'story/undeclared')
        .slice(0, DEFAULT_MAX_DIAGNOSTICS)
        .map(key),
    )
    expect(report.omitted).toEqual({
      count: all.diagnostics.length - DEFAULT_MAX_DIAGNOSTICS,
      byCode: {
        'manifest/normalized': 1,
        'pkg/non-canonical-manifest': 1,
        'pkg/deflated-media': 1,
        'story/undeclared': 800,
      },
    })
    // The verdict is the whole list's.
    expect([report.loads, report.valid]).toEqual([true, false])
  })

  it('takes another cap', async () => {
    const one = await validatePackageBytes(bytes, { maxDiagnostics: 1 })
    expect(one.diagnostics.map(key)).toEqual(['story/undeclared story/0001-a.sty:2'])
    expect(one.omitted?.count).toBe(1002)
    const some = await validatePackageBytes(bytes, { maxDiagnostics: 1002 })
    expect(some.diagnostics.map((d) => d.severity).filter((s) => s !== 'error')).toEqual(['info', 'warning'])
    expect(some.omitted).toEqual({ count: 1, byCode: { 'pkg/non-canonical-manifest': 1 } })
  })
})

describe('validatePackageBytes holds the manifest to every bound (docs/manifest-limits.md)', () => {
  it('reports manifest/too-long at /description, which a reader by default does not check', async () => {
    const report = await validatePackageBytes(buildPackage({ manifest: { description: 'd'.repeat(20_000) } }))
    expect(report.diagnostics).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'manifest/too-long', severity: 'error', field: '/description' }),
      ]),
    )
    expect(report.valid).toBe(false)
  })

  it('refuses 10,001 keys (manifest/too-large) and a version that is a path (manifest/invalid-version)', async () => {
    const x = Object.fromEntries(Array.from({ length: 10_001 }, (_, i) => [`k${i}`, 0]))
    const many = await validatePackageBytes(buildPackage({ manifest: { x } }))
    expect(many.loads).toBe(false)
    expect(many.diagnostics.map((d) => d.code)).toContain('manifest/too-large')
    const version = await validatePackageBytes(buildPackage({ manifest: { version: '../../x' } }))
    expect(version.diagnostics.map((d) => d.code)).toContain('manifest/invalid-version')
  })
})
