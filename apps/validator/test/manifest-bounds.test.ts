/**
 * `spkg validate --format json` reports the manifest bounds of @spkg/manifest with the
 * same code, path and pointer an upload gets in its 422: a 40 MiB description (the 41 KB
 * package of the issue), a description over its 10,000 characters, a nesting of 5,000 levels,
 * and a version that is a path.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { buildPackage } from '@spkg/test-utils'
import { describe, expect, it } from 'vitest'
import { runCli } from './helpers/cli'
import { freshDir, storyTree, writeTree } from './helpers/tree'

interface Finding {
  code: string
  severity: string
  path?: string
  field?: string
}

const ID = '0b7c2f4e-9a1d-4c3b-8e5f-6a7b8c9d0e1f'

async function validateFile(bytes: Uint8Array) {
  const dir = freshDir()
  writeFileSync(join(dir, 'inn.spkg'), bytes)
  const r = await runCli(['validate', 'inn.spkg', '--format', 'json'], { cwd: dir })
  const json = JSON.parse(r.stdout) as { valid: boolean; loads: boolean; diagnostics: Finding[] }
  return { code: r.code, json }
}

const base = { id: ID, title: 'The Inn', version: '1.0.0', parts: ['story/0001-inn.sty'] }
const parts = { 'story/0001-inn.sty': '# Inn\n\nDawn at the inn.\n' }

describe('spkg validate --format json and the manifest bounds', () => {
  it('a 40 MiB description in a small package: manifest/too-large on manifest.json, not loaded', async () => {
    const bytes = buildPackage({ manifest: { ...base, description: 'a'.repeat(40 * 1024 * 1024) }, parts })
    expect(bytes.length).toBeLessThan(100_000)
    const { code, json } = await validateFile(bytes)
    expect(code).toBe(1)
    expect(json.valid).toBe(false)
    expect(json.loads).toBe(false)
    expect(json.diagnostics).toContainEqual(
      expect.objectContaining({ code: 'manifest/too-large', severity: 'fatal', path: 'manifest.json' }),
    )
  })

  it('a description over 10,000 characters: manifest/too-long at /description, in a package and in a folder', async () => {
    const manifest = { ...base, description: 'd'.repeat(10_001) }
    const { code, json } = await validateFile(buildPackage({ manifest, parts }))
    expect(code).toBe(1)
    const expected = expect.objectContaining({
      code: 'manifest/too-long',
      severity: 'error',
      path: 'manifest.json',
      field: '/description',
    })
    expect(json.diagnostics).toContainEqual(expected)
    const folder = writeTree(freshDir(), storyTree({ description: 'd'.repeat(10_001) }))
    const r = await runCli(['validate', folder, '--format', 'json'])
    expect(r.code).toBe(1)
    expect(JSON.parse(r.stdout).diagnostics).toContainEqual(
      expect.objectContaining({ code: 'manifest/too-long', field: '/description' }),
    )
  })

  it('a manifest nested 5,000 levels deep: manifest/too-deep with the pointer where it passes 64', async () => {
    const text = `${JSON.stringify(base).slice(0, -1)},"extra":${'{"a":'.repeat(5000)}0${'}'.repeat(5000)}}`
    const { code, json } = await validateFile(buildPackage({ manifest: text, parts }))
    expect(code).toBe(1)
    expect(json.diagnostics).toContainEqual(
      expect.objectContaining({
        code: 'manifest/too-deep',
        severity: 'fatal',
        path: 'manifest.json',
        field: `/extra${'/a'.repeat(63)}`,
      }),
    )
  })

  it('a version that is a path: manifest/invalid-version at /version', async () => {
    const { code, json } = await validateFile(
      buildPackage({ manifest: { ...base, version: '../../x' }, parts }),
    )
    expect(code).toBe(1)
    expect(json.diagnostics).toContainEqual(
      expect.objectContaining({ code: 'manifest/invalid-version', severity: 'error', field: '/version' }),
    )
  })
})
