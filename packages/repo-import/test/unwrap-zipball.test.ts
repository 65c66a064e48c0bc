import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { deflateRawSync } from 'node:zlib'
import { buildArchive, type EntrySpec } from '@spkg/test-utils'
import {
  boundedInflater,
  crc32,
  extractEntry,
  findEndRecord,
  readCentralRecords,
  readZipDirectory,
  type ZipDiagnostic,
} from '@spkg/zip'
import { describe, expect, it } from 'vitest'
import { unwrapZipball } from '../src/unwrap-zipball'
import { gitArchiveZipball, makeZipball, storyRepository, WRAPPER } from './zipball'

const hasTools = ['zip', 'git'].every((t) => spawnSync(t, ['--version'], { stdio: 'ignore' }).status === 0)
const W = 'owner-story-abc1234/'
const text = (b: Uint8Array | undefined) => (b ? new TextDecoder().decode(b) : b)
const codes = (r: { diagnostics: { code: string }[] }) => r.diagnostics.map((d) => d.code)

/** What the reader opens from an archive: its entries' names and contents, and the finding codes. */
function opened(bytes: Uint8Array) {
  const { directory, diagnostics } = readZipDirectory(bytes)
  const out: ZipDiagnostic[] = [...diagnostics]
  const budget = { remaining: 1 << 24, limit: 1 << 24 }
  const files = (directory?.entries ?? []).map((e) => [
    e.name,
    text(extractEntry(bytes, e, { inflater: boundedInflater, crc32 }, budget, out)),
  ])
  return { files, codes: out.map((d) => d.code) }
}

/** A zipball of `specs` (names without the wrapper), the wrapper folder's entry first. */
const zipball = (specs: EntrySpec[], options: Parameters<typeof buildArchive>[1] = {}) =>
  buildArchive(
    [{ name: W, unixMode: 0o40755 }, ...specs.map((s) => ({ ...s, name: `${W}${s.name}` }))],
    options,
  )

function unwrapped(zip: Uint8Array) {
  const r = unwrapZipball(zip)
  if (!r.ok) throw new Error(`refused: ${codes(r).join(', ')}`)
  return r
}

describe.skipIf(!hasTools)('unwrapZipball on zipballs the real tools write', () => {
  it('git archive: the root without the repository files, pinned to the commit of the comment', () => {
    const { zip, commit } = gitArchiveZipball(storyRepository())
    const r = unwrapped(zip)
    expect(r.wrapper).toBe(`owner-story-${commit.slice(0, 7)}`)
    expect(r.commentCommit).toBe(commit)
    expect(r.diagnostics.map((d) => d.path).sort()).toEqual([
      '.github/workflows/ci.yml',
      '.gitignore',
      'LICENSE',
      'README.md',
    ])
    expect(opened(r.bytes)).toEqual({
      files: [
        ['manifest.json', storyRepository()['manifest.json']],
        ['story/0001-inn.sty', storyRepository()['story/0001-inn.sty']],
      ],
      codes: [],
    })
  })

  it('Info-ZIP zip: every field of the records kept but the name, and the bytes as they were', () => {
    const zip = makeZipball({ ...storyRepository(), 'story/big.sty': 'The road forks. '.repeat(500) })
    const r = unwrapped(zip)
    expect(r.wrapper).toBe(WRAPPER)
    expect(r.commentCommit).toBeUndefined()
    const before = readCentralRecords(zip, findEndRecord(zip, [])!)!.records
    const after = readCentralRecords(r.bytes, findEndRecord(r.bytes, [])!)!.records
    expect(after.map((a) => text(a.name)).sort()).toEqual([
      'manifest.json',
      'story/0001-inn.sty',
      'story/big.sty',
    ])
    for (const a of after) {
      const b = before.find((x) => text(x.name) === `${WRAPPER}/${text(a.name)}`)!
      const { name: _a, extra: _ae, offset: _ao, ...kept } = a
      const { name: _b, extra: _be, offset: _bo, ...was } = b
      expect(kept).toEqual(was)
      expect(a.extra).toEqual(new Uint8Array(0)) // extra fields (times, Unix ids) are dropped
    }
    expect(opened(r.bytes).codes).toEqual([])
  })
})

/** `git archive` of a repository of `files` whose README.md is a link to docs/README.md. */
function linkedReadmeZipball(files: Record<string, string>): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), 'spkg-link-'))
  for (const [path, data] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), data)
  }
  symlinkSync('docs/README.md', join(dir, 'README.md'))
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.org', ...args], { cwd: dir })
  git('init', '-q')
  git('add', '-A')
  git('commit', '-q', '-m', 'release')
  return new Uint8Array(git('archive', '--format=zip', `--prefix=${W}`, 'HEAD'))
}

describe.skipIf(!hasTools)('unwrapZipball and the entries it leaves out', () => {
  it('loads a repository whose README.md is a link and whose folders differ only in case', () => {
    const { 'README.md': _, ...files } = storyRepository() as Record<string, string>
    const zip = linkedReadmeZipball({
      ...files,
      'docs/README.md': '# The Inn\n',
      'assets/a.txt': 'a',
      'Assets/b.txt': 'b',
    })
    // Either would refuse the download were the link and the folder entries kept.
    expect(readZipDirectory(zip).diagnostics.map((d) => d.code)).toEqual(['pkg/unsafe-path'])
    const folders = zipball([
      { name: 'assets/', data: '' },
      { name: 'assets/a.txt', data: 'a' },
      { name: 'Assets/', data: '' },
      { name: 'Assets/b.txt', data: 'b' },
    ])
    expect(readZipDirectory(folders).diagnostics.map((d) => d.code)).toEqual(['pkg/duplicate-entry'])
    expect(opened(unwrapped(folders).bytes).codes).toEqual([])
    const r = unwrapped(zip)
    expect(r.diagnostics.map((d) => d.path)).toContain('README.md')
    expect(opened(r.bytes).codes).toEqual([])
    expect(opened(r.bytes).files.map(([name]) => name)).toEqual(
      expect.arrayContaining(['Assets/b.txt', 'assets/a.txt', 'docs/README.md']),
    )
  })

  it('leaves names that collide among kept entries to the reader', () => {
    const zip = zipball([
      { name: 'story/Inn.sty', data: 'a' },
      { name: 'story/inn.sty', data: 'b' },
    ])
    const r = unwrapped(zip)
    expect(opened(r.bytes).codes).toEqual(['pkg/duplicate-entry'])
  })
})

describe('unwrapZipball on hostile zipballs', () => {
  it('keeps a CP437 name (no UTF-8 flag) as written: the reader decodes and flags it as before', () => {
    const name = Uint8Array.of(...new TextEncoder().encode(W), 0x81, 0x62, 0x65, 0x72, 0x2e, 0x74) // "über.t"
    const zip = buildArchive([{ name: W }, { name, data: 'cp437', flags: 0 }])
    const r = unwrapped(zip)
    expect(opened(r.bytes)).toEqual({ files: [['über.t', 'cp437']], codes: ['pkg/cp437-name'] })
    expect(readZipDirectory(r.bytes).directory!.entries[0]!.flags & 0x800).toBe(0)
  })

  it('refuses a symbolic link, naming it from the repository root', () => {
    const r = unwrapZipball(zipball([{ name: 'story/link.sty', data: '/etc/passwd', unixMode: 0o120777 }]))
    expect(r.ok).toBe(false)
    expect(r.diagnostics.map((d) => [d.code, d.path, d.severity])).toEqual([
      ['pkg/unsafe-path', 'story/link.sty', 'fatal'],
    ])
  })

  it('rewrites a data-descriptor entry with its sizes in the headers, content unchanged', () => {
    const zip = zipball([
      { name: 'a.sty', data: 'alpha '.repeat(40), dataDescriptor: true },
      { name: 'b.sty', data: 'beta', dataDescriptor: 'no-signature', method: 0 },
    ])
    const r = unwrapped(zip)
    const entries = readZipDirectory(r.bytes).directory!.entries
    expect(entries.map((e) => e.flags & 0x8)).toEqual([0, 0])
    expect(opened(r.bytes)).toEqual({
      files: [
        ['a.sty', 'alpha '.repeat(40)],
        ['b.sty', 'beta'],
      ],
      codes: [],
    })
  })

  it('refuses entries that share bytes or a header, whichever way they overlap', () => {
    // Two records pointing at one local header (after the wrapper folder's, which has no data),
    // and one pointing at the wrapper folder's header: no bytes shared, but one header twice.
    const same = zipball([
      { name: 'a.sty', data: 'aaaa' },
      { name: 'b.sty', data: 'bbbb', offset: 30 + W.length },
    ])
    const onFolder = zipball([
      { name: 'a.sty', data: 'aaaa' },
      { name: 'b.sty', data: 'bbbb', offset: 0 },
    ])
    // The first entry's data declared long enough to cover the second entry's header, or its
    // header and the start of its data.
    const payload = new Uint8Array(deflateRawSync('aaaa'))
    const [header, data] = [40, 58].map((more) =>
      zipball([
        { name: 'a.sty', data: 'aaaa', payload, compressedSize: payload.length + more },
        { name: 'b.sty', data: 'bbbb' },
      ]),
    )
    for (const zip of [same, onFolder, header!, data!]) {
      const r = unwrapZipball(zip)
      expect(r.ok).toBe(false)
      expect(codes(r)).toEqual(['pkg/overlapping-entries'])
    }
  })

  it('reads a ZIP64 zipball and writes the result without ZIP64 records', () => {
    const zip = zipball([{ name: 'a.sty', data: 'alpha', zip64: true }], {
      zip64End: true,
      comment: '0123456789abcdef0123456789abcdef01234567',
    })
    expect(readZipDirectory(zip).directory?.zip64).toBe(true)
    const r = unwrapped(zip)
    expect(r.commentCommit).toBe('0123456789abcdef0123456789abcdef01234567')
    expect(readZipDirectory(r.bytes).directory?.zip64).toBe(false)
    expect(opened(r.bytes)).toEqual({ files: [['a.sty', 'alpha']], codes: [] })
  })

  it('keeps a declared size past 4 GiB in a ZIP64 field, for the reader to refuse', () => {
    const zip = zipball([{ name: 'a.sty', data: 'alpha', size: 2 ** 33, zip64: true }])
    const r = unwrapped(zip)
    const [entry] = readZipDirectory(r.bytes, { maxUncompressedBytes: 2 ** 40 }).directory!.entries
    expect(entry!.size).toBe(2 ** 33)
    expect(opened(r.bytes).codes).toEqual(['pkg/too-large'])
  })

  it('sets no limit on declared bytes: the reader applies the package limits to the result', () => {
    const zip = zipball([{ name: 'a.sty', data: 'alpha', size: 100 * 1024 * 1024 }])
    expect(codes(readZipDirectory(zip))).toEqual(['pkg/too-large'])
    expect(opened(unwrapped(zip).bytes).codes).toEqual(['pkg/too-large'])
  })

  it('refuses more entries than a package and its repository files can have', () => {
    const specs = Array.from({ length: 1064 }, (_, i) => ({ name: `f${i}.sty`, data: '' }))
    expect(codes(unwrapZipball(zipball(specs.slice(1))))).toEqual([])
    expect(codes(unwrapZipball(zipball(specs)))).toEqual(['pkg/too-many-entries'])
  })

  it('refuses a truncated download, a damaged local header and data before the first entry', () => {
    const zip = zipball([{ name: 'a.sty', data: 'alpha' }])
    const truncated = [zip.subarray(0, zip.length - 10), zip.subarray(0, 40)]
    for (const t of truncated) expect(codes(unwrapZipball(t))).toEqual(['pkg/corrupt-archive'])
    expect(codes(unwrapZipball(new TextEncoder().encode('<html>')))).toEqual(['pkg/not-zip'])
    const renamed = zipball([{ name: 'a.sty', data: 'alpha', local: { name: `${W}b.sty` } }])
    expect(codes(unwrapZipball(renamed))).toEqual(['pkg/header-mismatch'])
    const prepended = zipball([{ name: 'a.sty', data: 'alpha' }], { prepend: new Uint8Array(16) })
    expect(codes(unwrapZipball(prepended))).toEqual(['pkg/unexpected-data'])
  })

  it('compares the top folder as written, byte for byte', () => {
    const other = buildArchive([
      { name: W, unixMode: 0o40755 },
      { name: `${W}a.sty`, data: 'a' },
      { name: `${W.toUpperCase()}b.sty`, data: 'b' },
    ])
    const r = unwrapZipball(other)
    expect(codes(r)).toEqual(['repo/unexpected-layout'])
    expect(r.diagnostics[0]!.message).toContain(`outside the top folder '${W}'`)
    expect(codes(unwrapZipball(buildArchive([])))).toEqual(['repo/unexpected-layout'])
  })
})
