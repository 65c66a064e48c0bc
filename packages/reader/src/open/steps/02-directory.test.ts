import type { Diagnostic } from '@spkg/manifest'
import { buildArchive, buildPackage } from '@spkg/test-utils'
import { describe, expect, it } from 'vitest'
import { readDirectory } from './02-directory'

const limits = { maxEntries: 500, maxUncompressedBytes: 50 * 1024 * 1024 }

describe('step 2: the central directory', () => {
  it('reads every entry, all local headers checked for an open', () => {
    const out: Diagnostic[] = []
    const dir = readDirectory(buildPackage({ assets: { 'assets/a.png': 'a' } }), limits, false, out)
    expect(dir?.directory.entries.map((e) => e.name)).toEqual([
      'manifest.json',
      'story/0001-start.sty',
      'assets/a.png',
    ])
    expect(dir?.directory.entries.every((e) => e.dataOffset > 0)).toBe(true)
    expect(dir?.confirm).toBeUndefined()
    expect(out).toEqual([])
  })

  it('leaves local headers to be confirmed when read, for a quick look', () => {
    const dir = readDirectory(buildPackage(), limits, true, [])!
    const story = dir.directory.entries[1]!
    expect(story.dataOffset).toBe(-1)
    expect(dir.confirm?.(story, [])?.dataOffset).toBeGreaterThan(0)
  })

  it('stops at a fatal finding: an unsafe name, too many entries', () => {
    const out: Diagnostic[] = []
    expect(readDirectory(buildArchive({ '../evil.sty': 'x' }), limits, false, out)).toBeUndefined()
    expect(readDirectory(buildPackage(), { ...limits, maxEntries: 1 }, false, out)).toBeUndefined()
    expect(out.map((d) => d.code)).toEqual(['pkg/unsafe-path', 'pkg/too-many-entries'])
  })
})
