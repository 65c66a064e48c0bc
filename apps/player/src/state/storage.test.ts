import type { ReadingState } from '@spkg/manifest'
import { createStateStore } from '@spkg/state'
import { createMemoryDriver } from '@spkg/state/drivers/memory'
import { createStoryRun } from '@spkg/story'
import { describe, expect, it } from 'vitest'
import { chooseStorage, createStateKeeper } from './storage'

const source = {
  id: 'keeper-story',
  parts: ['story.sty'],
  readPart: () => '# Start\nHello.\n[#g]\n* One\n  Said one.\n* Two\n  Said two.\n-> #g\n',
}

async function stateAtPause(answers: string[]): Promise<ReadingState> {
  const run = createStoryRun(source, { seed: 1 })
  for (let e = await run.next(); e; e = await run.next()) {
    if (e.type === 'pause') {
      const a = answers.shift()
      if (a === undefined) break
      run.choose({ option: a })
    }
  }
  return run.saveState()
}

describe('chooseStorage', () => {
  it('follows the manifest, then the sign-in', () => {
    expect(chooseStorage('none', true)).toBe('none')
    expect(chooseStorage('none', false)).toBe('none')
    expect(chooseStorage(undefined, false)).toBe('local')
    expect(chooseStorage('local', false)).toBe('local')
    expect(chooseStorage('cloud', false)).toBe('local')
    expect(chooseStorage('cloud', true)).toBe('cloud')
    expect(chooseStorage('local', true)).toBe('cloud')
  })
})

describe('createStateKeeper', () => {
  it('saves and loads a state, and forgets it on clear', async () => {
    const local = createMemoryDriver()
    const keeper = createStateKeeper({ storyId: source.id, local })
    expect(keeper.mode).toBe('local')
    expect(await keeper.load()).toBeUndefined()
    const s = await stateAtPause(['1'])
    await keeper.save(s)
    const again = createStateKeeper({ storyId: source.id, local })
    expect(await again.load()).toEqual(s)
    await again.clear()
    expect(await createStateKeeper({ storyId: source.id, local }).load()).toBeUndefined()
  })
  it('writes only the newest of states saved while a save is in flight, in order', async () => {
    const local = createMemoryDriver()
    const keeper = createStateKeeper({ storyId: source.id, local })
    const a = await stateAtPause([])
    const b = await stateAtPause(['1'])
    const c = await stateAtPause(['1', '2'])
    void keeper.save(a)
    void keeper.save(b)
    await keeper.save(c)
    await keeper.idle()
    expect(keeper.writes).toBe(2)
    expect(await createStateKeeper({ storyId: source.id, local }).load()).toEqual(c)
  })
  it('keeps this device’s progress when another device saved meanwhile (conflict)', async () => {
    const cloud = createMemoryDriver()
    const keeper = createStateKeeper({ storyId: source.id, cloud })
    expect(keeper.mode).toBe('cloud')
    await keeper.save(await stateAtPause([]))
    // Another device writes over it.
    const other = createStateStore(cloud, { storyId: source.id })
    await other.load(source.id)
    await other.save(source.id, await stateAtPause(['2']))
    const mine = await stateAtPause(['1'])
    await keeper.save(mine)
    expect(keeper.lastError).toBeUndefined()
    expect(await createStateKeeper({ storyId: source.id, cloud }).load()).toEqual(mine)
  })
  it('saves nothing when the manifest says storage none', async () => {
    const local = createMemoryDriver()
    const keeper = createStateKeeper({ storyId: source.id, local, manifestStorage: 'none' })
    expect(keeper.mode).toBe('none')
    await keeper.save(await stateAtPause(['1']))
    expect(keeper.writes).toBe(0)
    expect(await keeper.load()).toBeUndefined()
    expect(await local.keys()).toEqual([])
  })
})
