/**
 * `spkg pack` and the reader agree on which names collide: both key names with `collisionKey` of
 * `@spkg/manifest` (NFC and full case folding), so a folder that packs opens, and a pair of names
 * the reader would refuse in an archive is refused by pack before it writes one.
 */
import { rmSync } from 'node:fs'
import { openPackage } from '@spkg/reader'
import { buildArchive } from '@spkg/test-utils'
import { afterAll, describe, expect, it } from 'vitest'
import { freshDir, storyTree, writeTree } from '../../test/helpers/tree'
import { readFolder } from './read-folder'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

/** The codes pack's folder reader gives for a story folder with these two extra files. */
async function packCodes(a: string, b: string): Promise<string[]> {
  const root = freshDir('spkg-collide-')
  dirs.push(root)
  writeTree(root, { ...storyTree(), [`assets/${a}`]: 'one', [`assets/${b}`]: 'two' })
  const { diagnostics } = await readFolder(root, 'story', { read: false })
  return diagnostics.map((d) => d.code)
}

/** The codes the reader gives for an archive of the same story with these two extra entries. */
async function openCodes(a: string, b: string): Promise<string[]> {
  const bytes = buildArchive({ ...storyTree(), [`assets/${a}`]: 'one', [`assets/${b}`]: 'two' })
  const opened = await openPackage(bytes)
  return opened.diagnostics.map((d) => d.code)
}

describe('names that collide', () => {
  it.each([
    ['plain case', 'Lamp.txt', 'lamp.txt'],
    ['ß folds to ss (full case folding, not toLowerCase alone)', 'Straße.txt', 'STRASSE.txt'],
    ['the ﬁ ligature folds to fi', 'ﬁre.txt', 'FIRE.txt'],
    ['NFC and NFD of é', 'caf\u00e9.txt', 'cafe\u0301.txt'],
  ])('%s: refused by pack and by the reader', async (_, a, b) => {
    expect(await packCodes(a, b)).toContain('pkg/duplicate-entry')
    expect(await openCodes(a, b)).toContain('pkg/duplicate-entry')
  })

  it('two names that differ (ss and s): accepted by both', async () => {
    expect(await packCodes('strasse.txt', 'strase.txt')).not.toContain('pkg/duplicate-entry')
    expect(await openCodes('strasse.txt', 'strase.txt')).not.toContain('pkg/duplicate-entry')
  })
})

it('names both paths in the message', async () => {
  const root = freshDir('spkg-collide-')
  dirs.push(root)
  writeTree(root, { ...storyTree(), 'assets/Straße.txt': 'one', 'assets/STRASSE.txt': 'two' })
  const { diagnostics } = await readFolder(root, 'story', { read: false })
  const d = diagnostics.find((x) => x.code === 'pkg/duplicate-entry')
  expect(d?.message).toContain("'assets/Straße.txt'")
  expect(d?.message).toContain("'assets/STRASSE.txt'")
})
