import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseManifest } from '@spkg/manifest'
import { describe, expect, it } from 'vitest'
import { runCli } from '../../test/helpers/cli'
import { freshDir, writeTree } from '../../test/helpers/tree'

const repo = join(import.meta.dirname, '../../../..')
const example = join(repo, 'examples/crooked-inn/manifest.json')
const broken = join(repo, 'examples/broken-manifest.json')

describe('spkg manifest check', () => {
  it('accepts the example manifest (canonical: nothing to say) with exit 0', async () => {
    const r = await runCli(['manifest', 'check', example])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/: no problems\n$/)
  })
  it('reports every problem of a broken manifest with codes and fields, and exits 1', async () => {
    const r = await runCli(['manifest', 'check', broken, '--format', 'json'])
    expect(r.code).toBe(1)
    const out = JSON.parse(r.stdout)
    expect(out.valid).toBe(false)
    expect(out.manifest).toBeNull()
    const got = out.diagnostics.map((d: { code: string; field: string }) => `${d.code} ${d.field}`)
    expect(got).toEqual(
      expect.arrayContaining([
        'manifest/missing-id /id',
        'manifest/invalid-type /title',
        'manifest/invalid-type /author/0/name',
        'manifest/invalid-language /language',
        'manifest/invalid-direction /direction',
        'manifest/path-outside-dir /parts/0/file',
        'manifest/unsafe-path /parts/1/file',
        'manifest/progressive-only /preload',
        'manifest/unknown-part /preload/0',
        'manifest/invalid-readers /readers/0',
        'manifest/invalid-age /age',
        'manifest/invalid-hash /integrity/manifest.json',
        'manifest/type-mismatch /stories',
        'manifest/unknown-version /story_lang',
      ]),
    )
    expect(out.counts).toEqual({ fatal: 1, error: 11, warning: 2, info: 1 })
  })
  it('prints text lines with the file, severity, code and field', async () => {
    const r = await runCli(['manifest', 'check', broken])
    expect(r.stdout).toContain(
      `${broken}: error manifest/invalid-age: "age/min" (12) is greater than "age/max" (8). [/age]`,
    )
    expect(r.stdout).toMatch(/1 fatal error, 11 errors, 2 warnings, 1 info\n$/)
  })
  it('prints GitHub annotations', async () => {
    const r = await runCli(['manifest', 'check', broken, '--format', 'github', '--quiet'])
    expect(r.stdout.split('\n')[0]).toMatch(
      /^::error file=.*broken-manifest\.json,title=manifest\/missing-id::/,
    )
    expect(r.stdout).not.toContain('::warning')
  })
  it('reads standard input with -', async () => {
    const r = await runCli(['manifest', 'check', '-', '--format', 'json'], { stdin: '{"id": 5}' })
    expect(r.code).toBe(1)
    expect(JSON.parse(r.stdout).diagnostics[0].code).toBe('manifest/missing-id')
  })
  it('reports JSON and UTF-8 errors as fatal', async () => {
    expect((await runCli(['manifest', 'check', '-'], { stdin: '{' })).stdout).toContain(
      'fatal manifest/not-json',
    )
    const bad = await runCli(['manifest', 'check', '-'], { stdin: new Uint8Array([0x7b, 0xff, 0x7d]) })
    expect(bad.stdout).toContain('is not valid UTF-8 text')
  })
  it('exits 2 on a missing file and on a bad --format', async () => {
    const r = await runCli(['manifest', 'check', 'does-not-exist.json'])
    expect(r).toMatchObject({ code: 2, stdout: '' })
    expect(r.stderr).toContain("cannot read 'does-not-exist.json': no such file or directory")
    expect((await runCli(['manifest', 'check', example, '--format', 'xml'])).code).toBe(2)
  })
})

describe('spkg manifest normalize', () => {
  it('prints the canonical form of a loose manifest', async () => {
    const r = await runCli(['manifest', 'normalize', example])
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout)
    expect(out.author).toEqual([{ name: 'Ann Author' }])
    expect(out.parts[1]).toEqual({ file: 'story/0002-road.sty', name: 'Road' })
    expect(out.assets).toEqual([{ file: 'assets/cover.svg' }])
    expect(parseManifest(out).diagnostics).toEqual([])
  })
  it('writes to a file atomically with -o, and writes nothing for a broken manifest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spkg-norm-'))
    const target = join(dir, 'out.json')
    expect((await runCli(['manifest', 'normalize', example, '-o', 'out.json'], { cwd: dir })).code).toBe(0)
    expect(JSON.parse(readFileSync(target, 'utf8')).id).toBe('6f1c2a8e-4b7d-4e39-9a51-2f0d3c8b7e14')
    writeFileSync(target, 'untouched')
    const r = await runCli(['manifest', 'normalize', broken, '-o', 'out.json'], { cwd: dir })
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('nothing was written')
    expect(readFileSync(target, 'utf8')).toBe('untouched')
  })

  it('completes the source as pack does, so the folder then packs without notes about its manifest', async () => {
    const schema = 'https://example.org/spkg/manifest.schema.json'
    const dir = writeTree(freshDir(), {
      'manifest.json': JSON.stringify({
        $schema: schema,
        id: '6f1c2a8e-4b7d-4e39-9a51-2f0d3c8b7e14',
        cover: 'assets/cover.webp',
      }),
      'story/0001-inn.sty': '# Inn\nDawn.\n[[ 0002-road.sty ]]\n',
      'story/0002-road.sty': '# Road\nThe road.\n',
      'assets/cover.webp': 'img',
    })
    const manifest = join(dir, 'manifest.json')
    const out = freshDir()
    const before = await runCli(['pack', dir, '-o', join(out, 'a.spkg')])
    expect(before.stdout).toContain('pkg/non-canonical-manifest')
    expect(before.stdout).toContain('"parts" was completed')

    const r = await runCli(['manifest', 'normalize', manifest, '-o', manifest])
    expect(r.code).toBe(0)
    expect(r.stderr).toContain('"parts" was completed from the .sty files under story/')
    const written = JSON.parse(readFileSync(manifest, 'utf8'))
    // $schema stays first in the author's file, for editors.
    expect(Object.keys(written).slice(0, 3)).toEqual(['$schema', 'story_lang', 'manifest'])
    expect(written).toMatchObject({
      $schema: schema,
      story_lang: '1.0',
      manifest: '1.0',
      parts: [
        { file: 'story/0001-inn.sty', name: 'Inn' },
        { file: 'story/0002-road.sty', name: 'Road' },
      ],
      assets: [{ file: 'assets/cover.webp' }],
    })

    const after = await runCli(['pack', dir, '-o', join(out, 'b.spkg')])
    expect(after.code).toBe(0)
    expect(after.stdout).not.toContain('manifest.json:')
    // Normalising again changes nothing.
    const again = await runCli(['manifest', 'normalize', manifest])
    expect(again.stdout).toBe(readFileSync(manifest, 'utf8'))
    expect(again.stderr).toBe('')
    // The package never carries $schema.
    const v = JSON.parse((await runCli(['validate', join(out, 'b.spkg'), '--format', 'json'])).stdout)
    expect(v.manifest.$schema).toBeUndefined()
    expect(JSON.stringify(v.diagnostics)).not.toContain('$schema')
  })

  it('writes a new id into a manifest that has none, and says so', async () => {
    const dir = writeTree(freshDir(), { 'manifest.json': '{"title": "Draft"}' })
    const r = await runCli(['manifest', 'normalize', join(dir, 'manifest.json')])
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout)
    expect(out.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(r.stderr).toContain(
      `warning pkg/generated-id: the manifest had no usable "id"; the new id ${out.id}`,
    )
    // No story/ folder beside it: nothing inferred, no empty "parts".
    expect(out.parts).toBeUndefined()
  })
})
