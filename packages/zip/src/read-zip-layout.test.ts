import { buildArchive, type EntrySpec } from '@spkg/test-utils'
import { describe, expect, it } from 'vitest'
import { readZipDirectory } from './read-zip-directory'
import { readZipLayout } from './read-zip-layout'

const file = (name: string, data = 'x', more: Partial<EntrySpec> = {}): EntrySpec => ({ name, data, ...more })
const fatal = (r: ReturnType<typeof readZipLayout>) =>
  r.diagnostics.filter((d) => d.severity === 'fatal').map((d) => [d.code, d.path])

describe('readZipLayout', () => {
  it('reads a sound archive as readZipDirectory does', () => {
    const bytes = buildArchive([
      file('a.txt', 'alpha', { dataDescriptor: true }),
      file('dir/', ''),
      file('dir/b'),
    ])
    expect(readZipLayout(bytes)).toEqual(readZipDirectory(bytes))
  })

  it('keeps the directory when only single entries are at fault, each finding naming its entry', () => {
    const bytes = buildArchive([
      file('w/README.md', 'docs/README.md', { unixMode: 0o120777 }),
      file('w/Assets/'),
      file('w/assets/'),
      file('w/../x'),
      file('w/secret', 'x', { flags: 1 }),
      file('w/ok.txt'),
    ])
    expect(readZipDirectory(bytes).directory).toBeUndefined()
    const r = readZipLayout(bytes)
    expect(r.directory?.entries.map((e) => e.name)).toEqual([
      'w/README.md',
      'w/Assets/',
      'w/assets/',
      'w/../x',
      'w/secret',
      'w/ok.txt',
    ])
    expect(r.directory?.entries.every((e) => e.dataOffset > 0 && e.end >= e.dataOffset)).toBe(true)
    expect(fatal(r)).toEqual([
      ['pkg/unsafe-path', 'w/README.md'],
      ['pkg/unsafe-path', 'w/../x'],
      ['pkg/unsupported-entry', 'w/secret'],
    ])
  })

  it('refuses what the layout cannot be checked without, and a broken layout', () => {
    const malformedExtra = buildArchive([file('a', 'x', { extra: Uint8Array.of(1, 2, 3) }), file('b')])
    const renamed = buildArchive([file('a', 'x', { local: { name: 'b' } })])
    const prepended = buildArchive([file('a')], { prepend: new Uint8Array(8) })
    const truncated = buildArchive([file('a')]).subarray(0, 30)
    const overlapping = buildArchive([file('a', 'aaaa'), file('b', 'bbbb', { offset: 0 })])
    for (const [bytes, code] of [
      [malformedExtra, 'pkg/corrupt-archive'],
      [renamed, 'pkg/header-mismatch'],
      [prepended, 'pkg/unexpected-data'],
      [truncated, 'pkg/corrupt-archive'],
      [overlapping, 'pkg/overlapping-entries'],
    ] as const) {
      const r = readZipLayout(bytes)
      expect(r.directory).toBeUndefined()
      expect(r.diagnostics.map((d) => d.code)).toContain(code)
    }
  })

  it('applies its limits', () => {
    const bytes = buildArchive([file('a', 'x', { size: 2000 }), file('b')])
    expect(fatal(readZipLayout(bytes, { maxEntries: 1 }))).toEqual([['pkg/too-many-entries', undefined]])
    expect(fatal(readZipLayout(bytes, { maxUncompressedBytes: 1000 }))).toEqual([
      ['pkg/too-large', undefined],
    ])
    expect(readZipLayout(bytes, { maxUncompressedBytes: Number.POSITIVE_INFINITY }).directory).toBeDefined()
  })
})
