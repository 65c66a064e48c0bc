import { resolveObjectURL } from 'node:buffer'
import { createHash } from 'node:crypto'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { crc32 as zlibCrc32 } from 'node:zlib'
import { createChecksumFile } from '@spkg/integrity'
import { encryptPackage, generateEncryptionKey } from '@spkg/integrity/encrypt'
import { generateSigningKeys, type SigningKeys, signChecksum } from '@spkg/integrity/sign'
import type { Diagnostic } from '@spkg/manifest'
import {
  buildArchive,
  buildPackage,
  type Content,
  deflateBomb,
  type EntrySpec,
  hasTool,
  packageFiles,
  TEST_STORY_ID,
  type ZipTool,
  zipWithTool,
} from '@spkg/test-utils'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import * as web from '../index'
import * as node from '../node'
import type { OpenOptions, OpenResult, SpkgPackage } from './types'

const enc = new TextEncoder()
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex')
const codes = (d: readonly Diagnostic[]) => d.map((x) => x.code)
const pathsOf = (d: readonly Diagnostic[], code: string) =>
  d.filter((x) => x.code === code).map((x) => x.path)

function opened(r: OpenResult): SpkgPackage {
  if (!r.ok) throw new Error(`refused: ${JSON.stringify(r.diagnostics, null, 1)}`)
  return r.package
}

/** A signed package: manifest with `signed`/`signature`, checksum over every file, signature. */
async function signedPackage(keys: SigningKeys, tamper?: (files: Map<string, Uint8Array>) => void) {
  const files = packageFiles({
    manifest: { title: 'Signed', signed: true, signature: keys.fingerprint },
    parts: { 'story/0001-a.sty': 'Hello.\n' },
  })
  files.set('META-PKG/author.pub', enc.encode(keys.publicKeyText))
  const checksum = createChecksumFile(new Map([...files].map(([k, v]) => [k, sha(v)])))
  files.set('META-PKG/checksum.sha256', checksum)
  files.set('META-PKG/signature.sig', enc.encode(await signChecksum(checksum, keys.secretKeyText)))
  tamper?.(files)
  return buildArchive(Object.fromEntries(files))
}

const backends = [
  ['web backend (JavaScript inflater + WebCrypto)', web.openPackage],
  ['node backend (node:zlib + node:crypto)', node.openPackage],
] as const

describe.each(backends)('openPackage, %s', (_, openPackage) => {
  const open = (bytes: Uint8Array, options?: OpenOptions) => openPackage(bytes, options)
  const refusal = async (bytes: Uint8Array, options?: OpenOptions) => {
    const r = await open(bytes, options)
    expect(r.ok).toBe(false)
    return codes(r.diagnostics.filter((d) => d.severity === 'fatal'))
  }

  describe('packaged layout', () => {
    it('exposes the canonical manifest, parts in manifest order, assets, session and entries', async () => {
      const bytes = buildPackage({
        manifest: {
          title: 'The Inn',
          parts: ['story/0002-b.sty', 'story/0001-a.sty'],
          assets: ['assets/cover.png'],
          cover: 'assets/cover.png',
        },
        parts: { 'story/0001-a.sty': 'A\n', 'story/0002-b.sty': 'B\n' },
        assets: { 'assets/cover.png': new Uint8Array([137, 80, 78, 71]) },
        session: { players: 2 },
      })
      const pkg = opened(await open(bytes))
      expect(pkg.layout).toBe('packaged')
      expect(pkg.type).toBe('story')
      expect(pkg.manifest?.id).toBe(TEST_STORY_ID)
      expect(pkg.manifest?.parts).toEqual([
        { file: 'story/0002-b.sty', name: 'B' },
        { file: 'story/0001-a.sty', name: 'A' },
      ])
      expect(pkg.entry).toBe('story/0002-b.sty')
      expect(pkg.parts).toEqual(['story/0002-b.sty', 'story/0001-a.sty'])
      expect(pkg.assets).toEqual(['assets/cover.png'])
      expect(pkg.session).toEqual({ players: 2 })
      expect(pkg.entries.map((e) => e.path)).toEqual([
        'manifest.json',
        'story/0001-a.sty',
        'story/0002-b.sty',
        'assets/cover.png',
        'session.json',
      ])
      expect(pkg.entries[0]).toMatchObject({ method: 'deflate', size: expect.any(Number) })
      expect(pkg.has('story/0001-a.sty')).toBe(true)
      expect(pkg.has('story/0003-c.sty')).toBe(false)
      expect(await pkg.readText(pkg.entry)).toBe('B\n')
      expect(await pkg.readBytes('assets/cover.png')).toEqual(new Uint8Array([137, 80, 78, 71]))
      await expect(pkg.readBytes('nope')).rejects.toMatchObject({ code: 'pkg/missing-file' })
      expect(pkg.signature).toEqual({ status: 'unsigned' })
      expect(pkg.mediaUrl('assets/cover.png')).toBeUndefined() // Node: bytes only
    })

    it('passes the manifest diagnostics through and normalises loose input', async () => {
      const r = await open(buildPackage({ manifest: { author: 'Ann', title: 5 } }))
      const pkg = opened(r)
      expect(pkg.manifest?.author).toEqual([{ name: 'Ann' }])
      expect(codes(r.diagnostics)).toContain('manifest/normalized')
      expect(codes(r.diagnostics)).toContain('manifest/invalid-type')
    })

    it.each([
      ['not JSON', '{ "id": ', 'manifest/not-json'],
      ['not an object', '[1, 2]', 'manifest/not-object'],
      ['without id', '{ "title": "x", "parts": ["story/0001-start.sty"] }', 'manifest/missing-id'],
    ])('refuses a manifest.json that is %s', async (_, text, code) => {
      expect(await refusal(buildPackage({ manifest: text }))).toEqual([code])
    })

    it('refuses a manifest.json that is not UTF-8', async () => {
      const files = packageFiles()
      files.set('manifest.json', new Uint8Array([0x7b, 0xff, 0x7d]))
      expect(await refusal(buildArchive(Object.fromEntries(files)))).toEqual(['manifest/not-json'])
    })

    it('loads with an error when a non-entry part is missing, and drops it from parts', async () => {
      const r = await open(
        buildPackage({ manifest: { parts: ['story/0001-start.sty', 'story/0002-gone.sty'] } }),
      )
      const pkg = opened(r)
      expect(pathsOf(r.diagnostics, 'pkg/missing-part')).toEqual(['story/0002-gone.sty'])
      expect(pkg.parts).toEqual(['story/0001-start.sty'])
    })

    it.each([
      ['the entry part is missing', { parts: ['story/0009-gone.sty', 'story/0001-start.sty'] }],
      ['there are no parts', { parts: [] }],
      ['the entry is an extension module', { parts: ['extensions/dice.xty'] }],
    ])('refuses with pkg/no-entry when %s', async (_, manifest) => {
      const bytes = buildPackage({ manifest, extensions: { 'extensions/dice.xty': 'fn d() {}' } })
      expect(await refusal(bytes)).toContain('pkg/no-entry')
    })

    it('reports referenced media that is missing, and loads', async () => {
      const r = await open(buildPackage({ manifest: { cover: 'assets/c.webp', assets: ['assets/a.ogg'] } }))
      expect(r.ok).toBe(true)
      expect(pathsOf(r.diagnostics, 'pkg/missing-file')).toEqual(['assets/c.webp', 'assets/a.ogg'])
    })

    it('reads an instruction package', async () => {
      const pkg = opened(
        await open(buildPackage({ manifest: { type: 'instruction', stories: ['the-inn'] } })),
      )
      expect(pkg.type).toBe('instruction')
      expect(pkg.manifest?.stories).toEqual(['the-inn'])
    })

    it('warns about a root .sty next to manifest.json', async () => {
      const r = await open(buildPackage({ files: { 'stray.sty': 'x' } }))
      expect(pathsOf(r.diagnostics, 'pkg/mixed-layout')).toEqual(['stray.sty'])
      expect(opened(r).entry).toBe('story/0001-start.sty')
    })
  })

  describe('extensions and requires', () => {
    const extensions = { 'extensions/b.xty': 'b', 'extensions/a.xty': 'a', 'extensions/C.xty': 'c' }

    it('loads modules in manifest.extensions order', async () => {
      const pkg = opened(
        await open(
          buildPackage({ extensions, manifest: { extensions: ['extensions/b.xty', 'extensions/a.xty'] } }),
        ),
      )
      expect(pkg.modules).toEqual([
        { path: 'extensions/b.xty', source: 'b' },
        { path: 'extensions/a.xty', source: 'a' },
      ])
    })

    it('loads every module by code point without the field', async () => {
      const pkg = opened(await open(buildPackage({ extensions })))
      expect(pkg.modules.map((m) => m.path)).toEqual([
        'extensions/C.xty',
        'extensions/a.xty',
        'extensions/b.xty',
      ])
    })

    it('refuses a listed module missing from the archive', async () => {
      const bytes = buildPackage({
        extensions,
        manifest: { extensions: ['extensions/a.xty', 'extensions/z.xty'] },
      })
      const r = await open(bytes)
      expect(r.ok).toBe(false)
      expect(pathsOf(r.diagnostics, 'pkg/missing-extension')).toEqual(['extensions/z.xty'])
    })

    it('refuses a required namespace the host has not registered, naming it', async () => {
      const bytes = buildPackage({ manifest: { requires: ['host', 'geo'] } })
      const r = await open(bytes, { hostNamespaces: ['host'] })
      expect(r.ok).toBe(false)
      const d = r.diagnostics.filter((x) => x.code === 'pkg/unsupported-requires')
      expect(d).toHaveLength(1)
      expect(d[0]!.message).toContain('"geo"')
      expect((await open(bytes, { hostNamespaces: ['host', 'geo'] })).ok).toBe(true)
    })
  })

  describe('flat layout', () => {
    it('takes the lowest root .sty by code point (case-sensitive) as the only part', async () => {
      const bytes = buildPackage({
        layout: 'flat',
        parts: { 'c.sty': 'c', 'a.sty': 'a', 'B.sty': 'B', 'Ä.sty': 'x' },
        assets: { 'map.png': 'png' },
      })
      const r = await open(bytes)
      const pkg = opened(r)
      expect(pkg.layout).toBe('flat')
      expect(pkg.manifest).toBeUndefined()
      expect(pkg.entry).toBe('B.sty')
      expect(pkg.parts).toEqual(['B.sty'])
      expect(pkg.assets).toEqual(['map.png'])
      expect(pkg.storySource().id).toBe('B.sty')
    })

    it('warns about files in folders', async () => {
      const r = await open(
        buildPackage({ layout: 'flat', parts: { 'a.sty': 'a' }, assets: { 'img/x.png': 'x' } }),
      )
      expect(pathsOf(r.diagnostics, 'pkg/misplaced-file')).toEqual(['img/x.png'])
      expect(r.ok).toBe(true)
    })
  })

  describe('layout refusals', () => {
    it('tells the author to zip the folder contents when everything sits in one folder', async () => {
      const bytes = buildArchive({
        'my-story/': '',
        'my-story/manifest.json': '{}',
        'my-story/story/a.sty': 'x',
      })
      const r = await open(bytes)
      expect(codes(r.diagnostics)).toEqual(['pkg/wrapped-layout'])
      expect(r.diagnostics[0]!.message).toContain('"my-story/"')
    })

    it.each([
      ['an empty archive', {}],
      ['only media', { 'a.png': 'x', 'b/c.png': 'y' }],
    ])('refuses %s with pkg/no-entry', async (_, files) => {
      expect(await refusal(buildArchive(files as Record<string, Content>))).toEqual(['pkg/no-entry'])
    })
  })

  describe('system clutter', () => {
    it('ignores __MACOSX/, ._* and .DS_Store with an info diagnostic, still checking them', async () => {
      const bytes = buildPackage({
        files: { '__MACOSX/story/._0001-start.sty': 'junk', 'story/.DS_Store': 'junk', 'assets/._x': 'j' },
      })
      const r = await open(bytes)
      const pkg = opened(r)
      expect(pathsOf(r.diagnostics, 'pkg/ignored-entry').sort()).toEqual([
        '__MACOSX/story/._0001-start.sty',
        'assets/._x',
        'story/.DS_Store',
      ])
      expect(r.diagnostics.find((d) => d.code === 'pkg/ignored-entry')?.severity).toBe('info')
      expect(pkg.has('story/.DS_Store')).toBe(false)
      expect(pkg.entries.map((e) => e.path)).toEqual(['manifest.json', 'story/0001-start.sty'])
      // Clutter is still inflated and CRC-checked.
      const bad = buildPackage({ files: { '.DS_Store': 'junk' }, entry: { '.DS_Store': { crc: 1 } } })
      expect(await refusal(bad)).toEqual(['pkg/corrupt-entry'])
    })
  })

  describe('limits on real bytes', () => {
    it('stops a zip bomb that declares a small size with pkg/too-large', async () => {
      const bomb: EntrySpec = {
        name: 'story/bomb.sty',
        payload: deflateBomb(80 * 2 ** 20),
        size: 1000,
        crc: 0,
      }
      const files = packageFiles()
      const bytes = buildArchive([...[...files].map(([name, data]) => ({ name, data })), bomb])
      expect(await refusal(bytes)).toEqual(['pkg/too-large'])
    })

    it('counts the real bytes over all entries with one shared budget', async () => {
      const crc = zlibCrc32(new Uint8Array(300_000))
      const big = (n: number): EntrySpec => ({
        name: `assets/${n}.bin`,
        payload: deflateBomb(300_000),
        size: 300_000,
        crc,
      })
      const entries = [...packageFiles()].map(([name, data]): EntrySpec => ({ name, data }))
      const limits = { maxUncompressedBytes: 800_000 }
      // Declared honestly, the sizes are refused from the directory alone.
      expect(await refusal(buildArchive([...entries, big(1), big(2), big(3)]), { limits })).toEqual([
        'pkg/too-large',
      ])
      // The third entry understates its size: its real bytes cross the budget left by the first two.
      const lying = buildArchive([...entries, big(1), big(2), { ...big(3), size: 10, crc: 0 }])
      const r = await open(lying, { limits })
      expect(pathsOf(r.diagnostics, 'pkg/too-large')).toEqual(['assets/3.bin'])
      expect(codes(r.diagnostics.filter((d) => d.severity === 'fatal'))).toEqual(['pkg/too-large'])
      expect(r.ok).toBe(false)
    })

    it('honours a smaller entry limit', async () => {
      expect(await refusal(buildPackage(), { limits: { maxEntries: 1 } })).toEqual(['pkg/too-many-entries'])
    })

    it.each([
      ['a bad CRC', { crc: 1234 }],
      ['a declared size larger than the data', { size: 5000 }],
      ['a declared size smaller than the data', { size: 2 }],
    ])('refuses %s with pkg/corrupt-entry', async (_, override) => {
      const bytes = buildPackage({ entry: { 'story/0001-start.sty': override } })
      expect(await refusal(bytes)).toEqual(['pkg/corrupt-entry'])
    })

    it('refuses a deflate stream that does not inflate', async () => {
      const bytes = buildPackage({
        entry: { 'story/0001-start.sty': { payload: new Uint8Array([0xff, 0xff, 0xff]), size: 7 } },
      })
      expect(await refusal(bytes)).toEqual(['pkg/corrupt-entry'])
    })
  })

  describe('integrity, checksums and signatures', () => {
    let keys: SigningKeys
    let stranger: SigningKeys
    beforeAll(async () => {
      keys = await generateSigningKeys()
      stranger = await generateSigningKeys()
    })

    it('verifies manifest.integrity', async () => {
      const r = await open(buildPackage({ integrity: true, assets: { 'assets/a.png': 'png' } }))
      expect(r.ok).toBe(true)
      expect(codes(r.diagnostics).filter((c) => c.startsWith('pkg/'))).toEqual([])
    })

    it('refuses a file whose hash differs from integrity, naming it', async () => {
      const files = packageFiles({ integrity: true })
      files.set('story/0001-start.sty', enc.encode('Tampered.\n'))
      const r = await open(buildArchive(Object.fromEntries(files)))
      expect(r.ok).toBe(false)
      expect(pathsOf(r.diagnostics, 'pkg/integrity-mismatch')).toEqual(['story/0001-start.sty'])
    })

    it('refuses a package whose integrity lists a hash that cannot be read, naming the file', async () => {
      const files = packageFiles({ integrity: true, assets: { 'assets/a.png': 'png' } })
      const manifest = JSON.parse(new TextDecoder().decode(files.get('manifest.json')))
      for (const bad of ['xyz', 'a'.repeat(63), 5, null, { sha256: 'x' }]) {
        manifest.integrity['assets/a.png'] = bad
        files.set('manifest.json', enc.encode(JSON.stringify(manifest)))
        const r = await open(buildArchive(Object.fromEntries(files)))
        expect(r.ok, JSON.stringify(bad)).toBe(false)
        expect(
          r.diagnostics.filter((d) => d.severity === 'fatal').map((d) => [d.code, d.path, d.field]),
        ).toEqual([['pkg/integrity-mismatch', 'assets/a.png', '/integrity/assets~1a.png']])
      }
    })

    it('refuses a package whose integrity is not an object: no file could be verified', async () => {
      for (const bad of ['abc', '', 0, true, ['story/0001-start.sty']]) {
        const r = await open(buildPackage({ manifest: { integrity: bad } }))
        expect(r.ok, JSON.stringify(bad)).toBe(false)
        const [fatal, ...more] = r.diagnostics.filter((d) => d.severity === 'fatal')
        expect(more).toEqual([])
        expect(fatal).toMatchObject({
          code: 'pkg/integrity-malformed',
          path: 'manifest.json',
          field: '/integrity',
        })
        expect(fatal?.message).toMatch(/^integrity must be an object .*, so no file can be verified/)
      }
    })

    it('still loads a manifest whose integrity is null or absent (nothing declared)', async () => {
      expect((await open(buildPackage({ manifest: { integrity: null } }))).ok).toBe(true)
      expect((await open(buildPackage())).ok).toBe(true)
    })

    it('reports a file integrity omits (closed world) and still loads', async () => {
      const files = packageFiles({ integrity: true })
      files.set('assets/extra.png', enc.encode('x'))
      const r = await open(buildArchive(Object.fromEntries(files)))
      expect(r.ok).toBe(true)
      expect(pathsOf(r.diagnostics, 'pkg/integrity-unlisted-file')).toEqual(['assets/extra.png'])
    })

    it('verifies a signature by a trusted key', async () => {
      const bytes = await signedPackage(keys)
      const r = await open(bytes, { trustedKeys: [keys.publicKeyText] })
      const pkg = opened(r)
      expect(pkg.signature).toEqual({ status: 'verified', fingerprint: keys.fingerprint })
      expect(r.diagnostics.filter((d) => d.severity !== 'info')).toEqual([])
      expect(pkg.has('META-PKG/author.pub')).toBe(true)
      expect(pkg.assets).toEqual([])
    })

    it('loads a valid signature by an untrusted key as unverified', async () => {
      const r = await open(await signedPackage(keys), { trustedKeys: [stranger.publicKeyText] })
      expect(opened(r).signature.status).toBe('unverified')
      expect(codes(r.diagnostics)).toContain('pkg/untrusted-key')
    })

    it('loads a signature that does not verify as unverified with pkg/signature-mismatch', async () => {
      const bytes = await signedPackage(keys, (files) => {
        files.set('META-PKG/author.pub', enc.encode(stranger.publicKeyText))
      })
      const r = await open(bytes, { trustedKeys: [keys.publicKeyText] })
      // author.pub changed, so the checksum no longer matches it: that is an integrity fatal.
      expect(r.ok).toBe(false)
      expect(pathsOf(r.diagnostics, 'pkg/integrity-mismatch')).toEqual(['META-PKG/author.pub'])
      const forged = await signedPackage(keys, (files) => {
        const sig = new TextDecoder().decode(files.get('META-PKG/signature.sig'))
        const [comment, b64] = sig.trim().split('\n')
        const raw = Buffer.from(b64!, 'base64')
        raw[raw.length - 1]! ^= 1
        files.set('META-PKG/signature.sig', enc.encode(`${comment}\n${raw.toString('base64')}\n`))
      })
      const f = await open(forged, { trustedKeys: [keys.publicKeyText] })
      expect(opened(f).signature.status).toBe('unverified')
      expect(codes(f.diagnostics)).toContain('pkg/signature-mismatch')
    })

    it('refuses a file whose hash differs from the checksum file', async () => {
      const bytes = await signedPackage(keys, (files) => {
        files.set('story/0001-a.sty', enc.encode('changed'))
      })
      const r = await open(bytes, { trustedKeys: [keys.publicKeyText] })
      expect(r.ok).toBe(false)
      expect(pathsOf(r.diagnostics, 'pkg/integrity-mismatch')).toEqual(['story/0001-a.sty'])
    })

    it('reports a signed package whose META-PKG files are missing', async () => {
      const r = await open(buildPackage({ manifest: { signed: true } }))
      expect(opened(r).signature.status).toBe('unverified')
      expect(codes(r.diagnostics)).toContain('pkg/signature-missing')
    })
  })

  describe('encrypted packages', () => {
    it('opens a .spkg.enc with its key and refuses it without or with another key', async () => {
      const key = generateEncryptionKey()
      const sealed = await encryptPackage(buildPackage({ manifest: { title: 'Secret' } }), key)
      expect(opened(await open(sealed, { decryptionKey: key })).manifest?.title).toBe('Secret')
      expect(await refusal(sealed)).toEqual(['pkg/key-required'])
      expect(await refusal(sealed, { decryptionKey: generateEncryptionKey() })).toEqual([
        'pkg/decrypt-failed',
      ])
      const tampered = sealed.slice()
      tampered[tampered.length - 20]! ^= 1
      expect(await refusal(tampered, { decryptionKey: key })).toEqual(['pkg/decrypt-failed'])
    })
  })

  describe('names', () => {
    it('reads an unflagged CP437 name with a warning', async () => {
      const files = [...packageFiles()].map(([name, data]): EntrySpec => ({ name, data }))
      files.push({
        name: new Uint8Array([...enc.encode('assets/caf'), 0x82, ...enc.encode('.png')]),
        data: 'x',
      })
      const r = await open(buildArchive(files))
      expect(opened(r).assets).toEqual(['assets/café.png'])
      expect(pathsOf(r.diagnostics, 'pkg/cp437-name')).toEqual(['assets/café.png'])
    })

    it('refuses unsafe names before reading any data', async () => {
      const bytes = buildArchive([
        { name: 'manifest.json', data: '{"id":"x","parts":["story/a.sty"]}' },
        { name: 'story/../../evil.sty', data: 'x', crc: 1 },
      ])
      expect(await refusal(bytes)).toEqual(['pkg/unsafe-path'])
    })
  })

  describe('the package object', () => {
    it('re-inflates large entries on read and keeps small ones', async () => {
      const big = 'x'.repeat(300_000)
      const pkg = opened(
        await open(
          buildPackage({
            assets: { 'assets/big.txt': big, 'assets/stored.bin': 'raw' },
            entry: { 'assets/stored.bin': { method: 0 } },
          }),
        ),
      )
      const a = await pkg.readBytes('assets/big.txt')
      const b = await pkg.readBytes('assets/big.txt')
      expect(a).not.toBe(b)
      expect(new TextDecoder().decode(a)).toBe(big)
      // Callers own what they get: writing into it changes nothing for later reads.
      for (const path of ['manifest.json', 'assets/big.txt', 'assets/stored.bin']) {
        const first = await pkg.readBytes(path)
        const copy = first.slice()
        first.fill(0x21)
        expect(await pkg.readBytes(path)).toEqual(copy)
      }
    })

    it('reads text strictly as UTF-8, dropping a BOM with a warning', async () => {
      const r = await open(buildPackage({ parts: { 'story/0001-a.sty': '\ufeffHello' } }))
      expect(await opened(r).readText('story/0001-a.sty')).toBe('Hello')
      expect(pathsOf(r.diagnostics, 'pkg/text-bom')).toEqual(['story/0001-a.sty'])
      const bad = await open(
        buildPackage({
          parts: { 'story/0001-a.sty': 'Hi', 'story/0002-b.sty': new Uint8Array([0x48, 0xff]) },
        }),
      )
      expect(pathsOf(bad.diagnostics, 'pkg/invalid-text')).toEqual(['story/0002-b.sty'])
      await expect(opened(bad).readText('story/0002-b.sty')).rejects.toMatchObject({
        code: 'pkg/invalid-text',
      })
    })

    it('refuses an entry story that is not UTF-8 text: there is no usable entry (pkg/no-entry)', async () => {
      const notText = new Uint8Array([0xff, 0xfe, 0x48, 0x69])
      const packaged = await open(
        buildPackage({ parts: { 'story/0001-a.sty': notText, 'story/0002-b.sty': 'Hi' } }),
      )
      expect(packaged.ok).toBe(false)
      expect(codes(packaged.diagnostics)).toEqual(
        expect.arrayContaining(['pkg/invalid-text', 'pkg/no-entry']),
      )
      expect(packaged.diagnostics.find((d) => d.code === 'pkg/no-entry')).toMatchObject({
        severity: 'fatal',
        path: 'story/0001-a.sty',
        field: '/parts/0/file',
      })
      // Flat: the entry is the lowest root .sty, so a bad a.sty refuses the package too.
      const flat = await open(
        buildArchive([
          { name: 'a.sty', data: notText },
          { name: 'b.sty', data: enc.encode('Hi') },
        ]),
      )
      expect(flat.ok).toBe(false)
      expect(pathsOf(flat.diagnostics, 'pkg/no-entry')).toEqual(['a.sty'])
    })

    it('gives the story engine its source', async () => {
      const pkg = opened(
        await open(
          buildPackage({
            manifest: { version: '1.2', storage: 'none', requires: ['host'], story_lang: '1.1' },
            extensions: { 'extensions/a.xty': 'fn a() {}' },
            session: { n: 1 },
          }),
          { hostNamespaces: ['host'] },
        ),
      )
      const src = pkg.storySource()
      expect(src).toMatchObject({
        id: TEST_STORY_ID,
        version: '1.2',
        lang: '1.1',
        parts: ['story/0001-start.sty'],
        session: { n: 1 },
        modules: [{ path: 'extensions/a.xty', source: 'fn a() {}' }],
        requires: ['host'],
        storage: 'none',
      })
      expect(await src.readPart('story/0001-start.sty')).toBe('Hello.\n')
      expect(await src.readPart('story/9.sty')).toBeUndefined()
      expect(src.hasAsset('extensions/a.xty')).toBe(true)
    })

    it('rejects reads after close', async () => {
      const pkg = opened(await open(buildPackage()))
      pkg.close()
      await expect(pkg.readText(pkg.entry)).rejects.toMatchObject({ code: 'pkg/closed' })
      pkg.close()
    })
  })
})

describe('media blob URLs (browser environment)', () => {
  afterEach(() => vi.unstubAllGlobals())

  it('maps media to blob: URLs with their MIME type and revokes them on close', async () => {
    vi.stubGlobal('document', {})
    const png = new Uint8Array([137, 80, 78, 71, 1, 2, 3])
    const pkg = opened(await web.openPackage(buildPackage({ assets: { 'assets/cover.png': png } })))
    const url = pkg.mediaUrl('assets/cover.png')!
    expect(url).toMatch(/^blob:/)
    expect(pkg.mediaUrl('assets/cover.png')).toBe(url)
    expect(pkg.mediaUrl('assets/none.png')).toBeUndefined()
    const blob = resolveObjectURL(url)!
    expect(blob.type).toBe('image/png')
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(png)
    pkg.close()
    expect(resolveObjectURL(url)).toBeUndefined()
    expect(pkg.mediaUrl('assets/cover.png')).toBeUndefined()
  })
})

describe('inputs', () => {
  it('accepts an ArrayBuffer and a Blob', async () => {
    const bytes = buildPackage()
    expect((await web.openPackage(bytes.slice().buffer)).ok).toBe(true)
    expect((await web.openPackage(new Blob([bytes as Uint8Array<ArrayBuffer>]))).ok).toBe(true)
  })

  it('refuses a Blob too big to be a package before reading it', async () => {
    const r = await web.openPackage(new Blob([new Uint8Array(9 * 2 ** 20)]), {
      limits: { maxUncompressedBytes: 100 },
    })
    expect(codes(r.diagnostics)).toEqual(['pkg/too-large'])
  })

  it('refuses what is not a ZIP', async () => {
    expect(codes((await web.openPackage(enc.encode('hello, world'))).diagnostics)).toEqual(['pkg/not-zip'])
  })

  it('opens and peeks a file by path, and reports a file that cannot be read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spkg-reader-'))
    const file = join(dir, 'inn.spkg')
    writeFileSync(file, buildPackage({ manifest: { title: 'Inn' } }))
    expect(opened(await node.openPackageFile(file)).manifest?.title).toBe('Inn')
    const peek = await node.peekPackageFile(file)
    expect(peek.ok && peek.manifest?.title).toBe('Inn')
    const missing = await node.openPackageFile(join(dir, 'none.spkg'))
    expect(codes(missing.diagnostics)).toEqual(['pkg/fetch-failed'])
    expect(missing.diagnostics[0]!.message).toContain('ENOENT')
    expect(missing.diagnostics[0]!.message).not.toContain(dir)
  })

  it('reads small files (one synchronous read) and large ones alike, under the same limits', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spkg-reader-'))
    const small = join(dir, 'small.spkg')
    const large = join(dir, 'large.spkg')
    writeFileSync(small, buildPackage({ manifest: { title: 'Small' } }))
    // Over 1 MiB: the asynchronous path.
    const noise = new Uint8Array(1_200_000).map((_, i) => (i * 7919) % 251)
    writeFileSync(large, buildPackage({ manifest: { title: 'Large' }, assets: { 'assets/n.bin': noise } }))
    expect(opened(await node.openPackageFile(small)).manifest?.title).toBe('Small')
    expect(opened(await node.openPackageFile(large)).manifest?.title).toBe('Large')
    const limits = { maxUncompressedBytes: 10 }
    for (const file of [small, large])
      expect(codes((await node.openPackageFile(file, { limits })).diagnostics)).toEqual(['pkg/too-large'])
    expect(codes((await node.openPackageFile(dir)).diagnostics)).toEqual(['pkg/fetch-failed'])
  })

  it('rejects with the abort reason when the signal aborts', async () => {
    const controller = new AbortController()
    controller.abort(new Error('stop'))
    await expect(web.openPackage(buildPackage(), { signal: controller.signal })).rejects.toThrow('stop')
  })

  it('stops between entries when the signal aborts during the open', async () => {
    const controller = new AbortController()
    const pending = web.openPackage(buildPackage({ integrity: true }), { signal: controller.signal })
    controller.abort(new Error('late'))
    await expect(pending).rejects.toThrow('late')
  })
})

describe('peekPackage', () => {
  it('reads only the directory and the manifest', async () => {
    const bytes = buildPackage({
      manifest: { title: 'Peek', cover: 'assets/c.png' },
      assets: { 'assets/c.png': 'img' },
      entry: { 'story/0001-start.sty': { crc: 99 } }, // damaged: open refuses, peek does not look
    })
    expect((await web.openPackage(bytes)).ok).toBe(false)
    for (const peekPackage of [web.peekPackage, node.peekPackage]) {
      const peek = await peekPackage(bytes)
      if (!peek.ok) throw new Error('peek refused')
      expect(peek.manifest?.title).toBe('Peek')
      expect(peek.entry).toBe('story/0001-start.sty')
      expect(peek.layout).toBe('packaged')
      expect(new TextDecoder().decode(await peek.readBytes('assets/c.png'))).toBe('img')
      await expect(peek.readBytes('story/0001-start.sty')).rejects.toMatchObject({
        code: 'pkg/corrupt-entry',
      })
    }
  })

  it('does not read other local headers: readBytes checks an entry when asked, open refuses', async () => {
    const bytes = buildPackage({
      manifest: { title: 'Quick', cover: 'assets/c.png' },
      assets: { 'assets/c.png': 'img', 'assets/d.png': 'ok' },
      entry: { 'assets/c.png': { local: { crc: 1234 } } },
    })
    for (const [peekPackage, openPackage] of [
      [web.peekPackage, web.openPackage],
      [node.peekPackage, node.openPackage],
    ] as const) {
      expect(codes((await openPackage(bytes)).diagnostics)).toEqual(['pkg/header-mismatch'])
      const peek = await peekPackage(bytes)
      if (!peek.ok) throw new Error(JSON.stringify(peek.diagnostics))
      expect(peek.manifest?.title).toBe('Quick')
      expect(codes(peek.diagnostics.filter((d) => d.code.startsWith('pkg/')))).toEqual([])
      await expect(peek.readBytes('assets/c.png')).rejects.toMatchObject({
        code: 'pkg/header-mismatch',
        diagnostics: [expect.objectContaining({ code: 'pkg/header-mismatch', path: 'assets/c.png' })],
      })
      expect(new TextDecoder().decode(await peek.readBytes('assets/d.png'))).toBe('ok')
    }
  })

  it('lists the files open lists: no directory entries, no system clutter, in directory order', async () => {
    const bytes = buildArchive([
      { name: 'story/', data: '' },
      { name: 'manifest.json', data: JSON.stringify({ id: TEST_STORY_ID, parts: ['story/a.sty'] }) },
      { name: '__MACOSX/._a', data: 'x' },
      { name: 'story/a.sty', data: 'a' },
      { name: 'assets/c.png', data: 'img', method: 0 },
      { name: 'story/.DS_Store', data: 'x' },
    ])
    const files = ['manifest.json', 'story/a.sty', 'assets/c.png']
    for (const [peekPackage, openPackage] of [
      [web.peekPackage, web.openPackage],
      [node.peekPackage, node.openPackage],
    ] as const) {
      const peek = await peekPackage(bytes)
      if (!peek.ok) throw new Error(JSON.stringify(peek.diagnostics))
      expect(peek.entries.map((e) => e.path)).toEqual(files)
      expect(peek.entries[2]).toEqual({ path: 'assets/c.png', size: 3, compressedSize: 3, method: 'stored' })
      expect(opened(await openPackage(bytes)).entries).toEqual(peek.entries)
    }
  })

  it('tells the layouts apart as open does: a manifest next to root stories, a flat archive', async () => {
    const mixed = buildPackage({ files: { 'b.sty': 'b', 'a.sty': 'a' } })
    const flat = buildPackage({
      layout: 'flat',
      parts: { 'b.sty': 'b', 'a.sty': 'a' },
      assets: { 'img/x.png': 'x' },
    })
    for (const peekPackage of [web.peekPackage, node.peekPackage]) {
      const m = await peekPackage(mixed)
      expect(m.ok && m.layout).toBe('packaged')
      expect(pathsOf(m.diagnostics, 'pkg/mixed-layout')).toEqual(['a.sty', 'b.sty'])
      const f = await peekPackage(flat)
      expect(f.ok && [f.layout, f.entry]).toEqual(['flat', 'a.sty'])
      expect(pathsOf(f.diagnostics, 'pkg/misplaced-file')).toEqual(['img/x.png'])
    }
  })

  it('still checks the local header of manifest.json before inflating it', async () => {
    for (const local of [{ crc: 5 }, { name: 'manifest.jsoX' }, { method: 0 }]) {
      const bytes = buildPackage({ entry: { 'manifest.json': { local } } })
      for (const peekPackage of [web.peekPackage, node.peekPackage]) {
        const peek = await peekPackage(bytes)
        expect(peek.ok).toBe(false)
        expect(codes(peek.diagnostics)).toEqual(['pkg/header-mismatch'])
      }
    }
    const missing = buildPackage({ entry: { 'manifest.json': { omitLocal: true } } })
    expect((await web.peekPackage(missing)).ok).toBe(false)
  })

  it('refuses, from the central directory alone, records that overlap or start after a stub', async () => {
    const shared = buildArchive([
      { name: 'manifest.json', data: '{}' },
      { name: 'b.sty', data: 'b', offset: 0 },
    ])
    expect(codes((await web.peekPackage(shared)).diagnostics)).toEqual(['pkg/overlapping-entries'])
    const stub = buildPackage({}, { prepend: new Uint8Array(10) })
    expect(codes((await web.peekPackage(stub)).diagnostics)).toEqual(
      codes((await web.openPackage(stub)).diagnostics),
    )
    const long = buildPackage({ entry: { 'manifest.json': { compressedSize: 1_000_000 } } })
    expect(codes((await web.peekPackage(long)).diagnostics)).toEqual(['pkg/overlapping-entries'])
  })

  it('refuses what open refuses structurally', async () => {
    const peek = await web.peekPackage(buildArchive({ '../x.sty': 'x' }))
    expect(peek.ok).toBe(false)
    expect(codes(peek.diagnostics)).toEqual(['pkg/unsafe-path'])
  })
})

describe('archives shaped like the desktop tools write them', () => {
  const tree = [...packageFiles({ manifest: { title: 'Desktop' }, assets: { 'assets/é.png': 'png' } })]

  it('macOS Finder: directory records, data descriptors, Unix modes and __MACOSX/ resource forks', async () => {
    const entries: EntrySpec[] = [
      { name: 'story/', unixMode: 0o40755 },
      { name: 'assets/', unixMode: 0o40755 },
      ...tree.map(([name, data]): EntrySpec => ({ name, data, dataDescriptor: true, unixMode: 0o100644 })),
      { name: '__MACOSX/', unixMode: 0o40755 },
      { name: '__MACOSX/._manifest.json', data: 'Mac OS X  resource fork', dataDescriptor: true },
    ]
    const r = await node.openPackage(buildArchive(entries))
    const pkg = opened(r)
    expect(pkg.manifest?.title).toBe('Desktop')
    expect(pkg.assets).toEqual(['assets/é.png'])
    expect(codes(r.diagnostics.filter((d) => d.code.startsWith('pkg/')))).toEqual([
      'pkg/ignored-entry',
      'pkg/ignored-entry',
    ])
  })

  it('Windows Explorer: names without the UTF-8 flag (valid UTF-8 read as UTF-8), DOS attributes', async () => {
    const entries = tree.map(
      ([name, data]): EntrySpec => ({
        name,
        data,
        flags: 0,
        versionMadeBy: 0x0014,
        externalAttributes: 0x20,
      }),
    )
    const pkg = opened(await web.openPackage(buildArchive(entries)))
    expect(pkg.has('assets/é.png')).toBe(true)
  })
})

const TOOLS: ZipTool[] = ['zip', 'python', '7z', 'bsdtar']
describe.each(TOOLS)('archives written by %s', (tool) => {
  it.skipIf(!hasTool(tool))('open with the same content through both backends', async () => {
    const tree: Record<string, Content> = {
      'manifest.json': JSON.stringify({
        id: TEST_STORY_ID,
        parts: ['story/0001-ünïcode.sty', 'story/0002-b.sty'],
      }),
      'story/0001-ünïcode.sty': 'Grüße\n'.repeat(200),
      'story/0002-b.sty': 'B\n',
      'assets/noise.bin': new Uint8Array(70_000).map((_, i) => (i * 7919) % 251),
      'extensions/x.xty': 'fn x() {}',
    }
    const bytes = zipWithTool(tool, tree)
    for (const [, openPackage] of backends) {
      const r = await openPackage(bytes)
      const pkg = opened(r)
      expect(r.diagnostics.filter((d) => d.severity !== 'info')).toEqual([])
      expect(pkg.parts).toEqual(['story/0001-ünïcode.sty', 'story/0002-b.sty'])
      for (const [path, data] of Object.entries(tree))
        expect(await pkg.readBytes(path)).toEqual(typeof data === 'string' ? enc.encode(data) : data)
    }
  })
})

describe('peekPackageFile (sparse read)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'spkg-peek-file-'))
  const write = (name: string, bytes: Uint8Array) => {
    const file = join(dir, name)
    writeFileSync(file, bytes)
    return file
  }

  it.each([
    ['ZIP64 records and data descriptors', { zip64: true, dataDescriptor: true }],
    ['long local extra fields', { localExtra: new Uint8Array([0x99, 0x99, 200, 0, ...new Uint8Array(200)]) }],
  ])('reads the structure it needs: %s', async (_, override) => {
    const entries = [
      ...packageFiles({ manifest: { title: 'Sparse' }, assets: { 'assets/a.png': 'png' } }),
    ].map(([name, data]): EntrySpec => ({ name, data, ...override }))
    const file = write('a.spkg', buildArchive(entries, { zip64End: 'zip64' in override }))
    const peek = await node.peekPackageFile(file)
    if (!peek.ok) throw new Error(JSON.stringify(peek.diagnostics))
    expect(peek.manifest?.title).toBe('Sparse')
    expect(new TextDecoder().decode(await peek.readBytes('assets/a.png'))).toBe('png')
  })

  it('refuses what the whole-file peek refuses', async () => {
    const bytes = buildPackage({}, { prepend: new Uint8Array(10) })
    const file = write('b.spkg', bytes)
    expect(codes((await node.peekPackageFile(file)).diagnostics)).toEqual(
      codes((await node.peekPackage(bytes)).diagnostics),
    )
  })

  it('peeks an encrypted package with its key', async () => {
    const key = generateEncryptionKey()
    const file = write(
      'c.spkg.enc',
      await encryptPackage(buildPackage({ manifest: { title: 'Sealed' } }), key),
    )
    const peek = await node.peekPackageFile(file, { decryptionKey: key })
    expect(peek.ok && peek.manifest?.title).toBe('Sealed')
    expect(codes((await node.peekPackageFile(file)).diagnostics)).toEqual(['pkg/key-required'])
  })

  it('reports a missing file', async () => {
    expect(codes((await node.peekPackageFile(join(dir, 'none'))).diagnostics)).toEqual(['pkg/fetch-failed'])
  })
})
