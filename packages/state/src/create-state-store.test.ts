import { isSpkgError, type ReadingState } from '@spkg/manifest'
import { describe, expect, it } from 'vitest'
import { createStateStore } from './create-state-store'
import { createMemoryDriver } from './drivers/memory'
import type { StateDriver } from './types'

const STORY = '7f9c2ba4-e88f-4e2b-9d6a-0c1d2e3f4a5b'
const state = (renderedParagraph = 1): ReadingState => ({
  format: 1,
  id: STORY,
  version: '1.0.0',
  variables: { gold: 2, names: ['Mira', 'Ash'] },
  choices: { 'story/0002-road.sty:@end': ['>story/0003-forest.sty:edge'] },
  visitedChoiceGroups: ['story/0002-road.sty:@end'],
  rng: { algorithm: 'mulberry32', seed: 7, state: 1234 },
  currentPart: 'story/0003-forest.sty',
  visitedParts: ['story/0001-inn.sty', 'story/0002-road.sty'],
  renderedParagraph,
})

describe('createStateStore', () => {
  it('saves a state and loads it back equal, with its revision', async () => {
    const store = createStateStore(createMemoryDriver(), { storyId: STORY })
    const { revision } = await store.save(STORY, state())
    expect(await store.load(STORY)).toEqual({ state: state(), revision, diagnostics: [] })
    expect(await store.list()).toEqual([STORY])
  })

  it('saves and loads a 1.1 state whose variables hold sets and escaped maps', async () => {
    const store = createStateStore(createMemoryDriver(), { storyId: STORY })
    const variables = {
      inv: { $items: 'Tools', of: ['rope'] },
      cfg: { $map: { $items: 'not a set' } },
    }
    await store.save(STORY, { ...state(), variables })
    expect((await store.load(STORY)).state?.variables).toEqual(variables)
  })

  it('loads nothing, without diagnostics, when no state is saved', async () => {
    const store = createStateStore(createMemoryDriver())
    expect(await store.load(STORY)).toEqual({ diagnostics: [] })
  })

  it('loads a corrupt stored state as diagnostics, and lets the host start afresh over it', async () => {
    const driver = createMemoryDriver()
    await driver.set(STORY, '{"format":1,"variables":')
    const store = createStateStore(driver)
    const loaded = await store.load(STORY)
    expect(loaded.state).toBeUndefined()
    expect(loaded.diagnostics.map((d) => d.code)).toEqual(['state/not-json'])
    await store.save(STORY, state(0))
    expect((await store.load(STORY)).state).toEqual(state(0))
  })

  it('refuses a state of another story on load (state/other-story)', async () => {
    const driver = createMemoryDriver()
    await createStateStore(driver).save(STORY, state())
    const loaded = await createStateStore(driver, { storyId: 'other' }).load(STORY)
    expect(loaded.state).toBeUndefined()
    expect(loaded.diagnostics[0]).toMatchObject({ code: 'state/other-story' })
  })

  it('refuses to save a state of another story (state/other-story) and writes nothing', async () => {
    const driver = createMemoryDriver()
    // The README's old example: a store keyed by the slug, given a state whose id is the manifest UUID.
    const store = createStateStore(driver, { storyId: 'crooked-inn' })
    const error = await store.save('crooked-inn', state()).catch((e: unknown) => e)
    expect(error).toMatchObject({
      code: 'state/other-story',
      message: `the reading state belongs to story "${STORY}", not "crooked-inn"; "crooked-inn" was not written`,
      diagnostics: [{ code: 'state/other-story', severity: 'error', field: '/id' }],
    })
    expect(await driver.keys()).toEqual([])
    // The check runs before the compare-and-set: a refused save leaves the store's revision alone.
    const own = createStateStore(driver, { storyId: STORY })
    await own.save(STORY, state(0))
    await expect(own.save(STORY, { ...state(1), id: 'crooked-inn' })).rejects.toMatchObject({
      code: 'state/other-story',
    })
    await own.save(STORY, state(2))
    expect(await own.load(STORY)).toMatchObject({ state: state(2), diagnostics: [] })
  })

  it('keeps a state of another version with state/other-version', async () => {
    const driver = createMemoryDriver()
    await createStateStore(driver).save(STORY, state())
    const loaded = await createStateStore(driver, { version: '2.0.0' }).load(STORY)
    expect(loaded.state).toEqual(state())
    expect(loaded.diagnostics.map((d) => d.code)).toEqual(['state/other-version'])
  })

  it('refuses to save an invalid state with state/invalid and writes nothing', async () => {
    const driver = createMemoryDriver()
    const store = createStateStore(driver)
    const bad = { ...state(), renderedParagraph: -5 }
    await expect(store.save(STORY, bad)).rejects.toMatchObject({ code: 'state/invalid' })
    expect(await driver.keys()).toEqual([])
  })

  it('stops a second device from silently overwriting the first (state/conflict)', async () => {
    const cloud = createMemoryDriver()
    const phone = createStateStore(cloud)
    const tablet = createStateStore(cloud)
    await phone.save(STORY, state(0))
    await tablet.load(STORY)
    await phone.load(STORY)
    await phone.save(STORY, state(1))
    const error = await tablet.save(STORY, state(2)).catch((e: unknown) => e)
    expect(isSpkgError(error) && error.code).toBe('state/conflict')
    expect((await tablet.load(STORY)).state).toEqual(state(1))
    await tablet.save(STORY, state(2))
    expect((await phone.load(STORY)).state?.renderedParagraph).toBe(2)
  })

  it('refuses a first save over a state this store never loaded, unless forced', async () => {
    const cloud = createMemoryDriver()
    await createStateStore(cloud).save(STORY, state(0))
    const fresh = createStateStore(cloud)
    await expect(fresh.save(STORY, state(1))).rejects.toMatchObject({ code: 'state/conflict' })
    await fresh.save(STORY, state(1), { force: true })
    expect((await fresh.load(STORY)).state?.renderedParagraph).toBe(1)
  })

  it('saves repeatedly after its own saves without a conflict', async () => {
    const store = createStateStore(createMemoryDriver())
    for (let i = 0; i < 5; i++) await store.save(STORY, state(i))
    expect((await store.load(STORY)).state?.renderedParagraph).toBe(4)
  })

  it('turns a storage failure on load into state/storage-failed, never a throw', async () => {
    const broken: StateDriver = {
      ...createMemoryDriver(),
      async get() {
        throw new Error('disk on fire')
      },
    }
    const loaded = await createStateStore(broken).load(STORY)
    expect(loaded).toEqual({
      diagnostics: [
        {
          code: 'state/storage-failed',
          severity: 'error',
          message: `memory could not read "${STORY}"`,
        },
      ],
    })
  })

  it('keeps keys of different prefixes apart', async () => {
    const driver = createMemoryDriver()
    const a = createStateStore(driver, { prefix: 'player-a:' })
    const b = createStateStore(driver, { prefix: 'player-b:' })
    await a.save('s', state(0))
    await b.save('s', state(3))
    expect((await a.load('s')).state?.renderedParagraph).toBe(0)
    expect(await b.list()).toEqual(['s'])
    await a.remove('s')
    expect(await a.list()).toEqual([])
    expect(await b.list()).toEqual(['s'])
  })
})
