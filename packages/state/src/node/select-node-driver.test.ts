import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createStateStore } from '../create-state-store'
import { createMemoryDriver } from '../drivers/memory'
import { selectNodeStateDriver } from './select-node-driver'

const dir = await mkdtemp(join(tmpdir(), 'spkg-select-'))
afterAll(() => rm(dir, { recursive: true, force: true }))

const state = {
  format: 1 as const,
  id: 'story',
  variables: {},
  choices: {},
  visitedChoiceGroups: [],
  rng: { algorithm: 'mulberry32' as const, seed: 1, state: 1 },
  visitedParts: [],
  renderedParagraph: -1,
}

describe('selectNodeStateDriver', () => {
  it('saves "local" states as files that a new process can load', async () => {
    const { driver, persistent, diagnostics } = selectNodeStateDriver('local', { dir })
    expect([driver.name, persistent, diagnostics]).toEqual(['fs', true, []])
    await createStateStore(driver).save('story', state)
    expect(await readdir(dir)).toEqual(['story.json'])
    const again = createStateStore(selectNodeStateDriver(undefined, { dir }).driver)
    expect((await again.load('story')).state).toEqual(state)
  })

  it('writes no file for "none"', async () => {
    const empty = join(dir, 'none')
    const { driver, persistent } = selectNodeStateDriver('none', { dir: empty })
    await createStateStore(driver).save('story', state)
    expect(persistent).toBe(false)
    await expect(readdir(empty)).rejects.toMatchObject({ code: 'ENOENT' })
  })

  it('uses the cloud driver for "cloud"', () => {
    const cloud = createMemoryDriver()
    expect(selectNodeStateDriver('cloud', { dir, cloud }).driver).toBe(cloud)
  })
})
