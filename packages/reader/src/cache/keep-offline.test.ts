import { buildPackage } from '@spkg/test-utils'
import { describe, expect, it } from 'vitest'
import { openPackage } from '../index'
import { webBackend } from '../zip/backend'
import { createPackageCache } from './create-package-cache'
import { createMemoryCacheDriver } from './memory-driver'
import { keepOffline, openCached } from './offline'

const files = {
  parts: { 'story/0001-inn.sty': 'You push the door.\n', 'story/0002-yard.sty': 'The yard.\n' },
  assets: { 'assets/door.png': new Uint8Array(3000).fill(9) },
  integrity: true,
}

describe('keepOffline', () => {
  it('stores an offline: true package, reading each file once through the package, lazily', async () => {
    const cache = createPackageCache(createMemoryCacheDriver())
    const opened = await openPackage(
      buildPackage({ ...files, manifest: { id: 'the-inn', version: '1.0.0', offline: true } }),
    )
    if (!opened.ok) throw new Error('should open')
    const read: string[] = []
    // A progressive package fetches a part when it is read: count the reads.
    const lazy = {
      ...opened.package,
      readBytes: (p: string) => {
        read.push(p)
        return opened.package.readBytes(p)
      },
    }
    const ready = keepOffline(cache, lazy)
    expect(ready).toBeInstanceOf(Promise)
    expect((await ready)?.files.map((f) => f.path).sort()).toEqual([
      'assets/door.png',
      'manifest.json',
      'story/0001-inn.sty',
      'story/0002-yard.sty',
    ])
    expect(read.sort()).toEqual([
      'assets/door.png',
      'manifest.json',
      'story/0001-inn.sty',
      'story/0002-yard.sty',
    ])
    const again = await openCached(cache, { id: 'the-inn', version: '1.0.0' }, {}, webBackend)
    expect(again.ok && (await again.package.readText('story/0002-yard.sty'))).toBe('The yard.\n')
  })

  it('leaves other packages alone', async () => {
    const cache = createPackageCache(createMemoryCacheDriver())
    const opened = await openPackage(
      buildPackage({ ...files, manifest: { id: 'the-inn', version: '1.0.0' } }),
    )
    if (!opened.ok) throw new Error('should open')
    expect(keepOffline(cache, opened.package)).toBeUndefined()
    expect(await cache.versions('the-inn')).toEqual([])
  })

  it('an aborted background download leaves the version incomplete', async () => {
    const cache = createPackageCache(createMemoryCacheDriver())
    const opened = await openPackage(
      buildPackage({ ...files, manifest: { id: 'the-inn', version: '1.0.0', offline: true } }),
    )
    if (!opened.ok) throw new Error('should open')
    const controller = new AbortController()
    const pkg = {
      ...opened.package,
      readBytes: (p: string) => {
        controller.abort(new Error('gone'))
        return opened.package.readBytes(p)
      },
    }
    await expect(keepOffline(cache, pkg, { signal: controller.signal })).rejects.toThrow('gone')
    expect((await cache.versions('the-inn')).every((v) => !v.complete)).toBe(true)
    expect(await openCached(cache, { id: 'the-inn', version: '1.0.0' }, {}, webBackend)).toMatchObject({
      ok: false,
    })
  })
})
