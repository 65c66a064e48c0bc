import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { CACHE_CASES } from '../../test/helpers/cache-contract'
import { createMemoryCacheDriver } from '../cache/memory-driver'
import { createFolderCacheDriver } from './cache-folder-driver'

const roots: string[] = []
afterAll(async () => {
  for (const r of roots) await rm(r, { recursive: true, force: true })
})

const drivers = {
  memory: async () => createMemoryCacheDriver(),
  folder: async () => {
    const root = await mkdtemp(join(tmpdir(), 'spkg-cache-'))
    roots.push(root)
    return createFolderCacheDriver(root)
  },
}

for (const [name, make] of Object.entries(drivers))
  describe(`cache contract: ${name} driver`, () => {
    for (const c of CACHE_CASES) it(c.name, async () => c.run(await make()))
  })

describe('folder driver', () => {
  it('writes through a temp file and rename, leaving no temp file behind', async () => {
    const root = await mkdtemp(join(tmpdir(), 'spkg-cache-'))
    roots.push(root)
    const driver = createFolderCacheDriver(root)
    await driver.write('f/ab/cd', new Uint8Array([1, 2, 3]))
    expect(await readdir(join(root, 'f', 'ab'))).toEqual(['cd'])
    expect([...((await driver.read('f/ab/cd')) ?? [])]).toEqual([1, 2, 3])
    expect(await driver.list('f/')).toEqual(['f/ab/cd'])
    await expect(driver.write('../x', new Uint8Array())).rejects.toThrow(/invalid cache key/)
  })
})
