import type { Manifest } from '@spkg/manifest'
import { describe, expect, it } from 'vitest'
import {
  effectiveHand,
  formatValue,
  HANDEDNESS_KEY,
  loadHandedness,
  orderForHand,
  readTabBar,
  readVariables,
  saveHandedness,
  sectionValues,
} from './tab-bar-model'

const manifest = (tabBar: unknown) => ({ id: 'x', reader: { tabBar } }) as unknown as Manifest

const all = {
  enabled: true,
  // Written in another order than the SPEC's: the bar's order does not follow the manifest's.
  help: { enabled: true },
  map: { enabled: true, image: 'assets/map.png', alt: 'The harbour' },
  bag: { enabled: true, variables: ['coins', { name: 'loot', label: 'Loot' }] },
  character: { enabled: true, label: 'Crew', icon: '🦜' },
  actions: { enabled: true, qrScan: true, audio: 'yes' },
}

describe('readTabBar', () => {
  it('is off unless the master switch is true', () => {
    expect(readTabBar(undefined)).toBeUndefined()
    expect(readTabBar(manifest({ ...all, enabled: false }))).toBeUndefined()
    expect(readTabBar(manifest({ help: { enabled: true } }))).toBeUndefined()
    expect(readTabBar(manifest({ enabled: true }))).toBeUndefined()
  })

  it('keeps the SPEC order, closest first, and only enabled sections', () => {
    const bar = readTabBar(manifest(all))!
    expect(bar.sections.map((s) => s.name)).toEqual(['actions', 'character', 'bag', 'map', 'help'])
    const some = readTabBar(manifest({ ...all, character: { enabled: false }, map: { label: 'No switch' } }))!
    expect(some.sections.map((s) => s.name)).toEqual(['actions', 'bag', 'help'])
  })

  it('fills labels and icons, keeps overrides and section attributes', () => {
    const bar = readTabBar(manifest(all))!
    const by = Object.fromEntries(bar.sections.map((s) => [s.name, s]))
    expect(by.character).toMatchObject({ label: 'Crew', icon: '🦜', iconIsPath: false })
    expect(by.help).toMatchObject({ label: 'Help', icon: '?' })
    expect(by.map).toMatchObject({ image: 'assets/map.png', alt: 'The harbour' })
    // Only a literal true asks for a capture action.
    expect(by.actions).toMatchObject({ qrScan: true, photo: false, audio: false })
    expect(by.bag!.variables).toEqual([
      { name: 'coins', label: 'Coins' },
      { name: 'loot', label: 'Loot' },
    ])
    expect(bar.priorityHand).toBe('reader')
    expect(readTabBar(manifest({ ...all, priorityHand: 'left' }))!.priorityHand).toBe('left')
    expect(readTabBar(manifest({ ...all, priorityHand: 'feet' }))!.priorityHand).toBe('reader')
  })

  it('takes an image path as an icon', () => {
    const bar = readTabBar(manifest({ enabled: true, bag: { enabled: true, icon: 'assets/bag.webp' } }))!
    expect(bar.sections[0]).toMatchObject({ icon: 'assets/bag.webp', iconIsPath: true })
  })
})

describe('thumb order by hand', () => {
  const closest = ['actions', 'character', 'bag', 'map', 'help']
  it('puts the closest section at the edge of the holding hand', () => {
    expect(orderForHand(closest, 'left')).toEqual(closest)
    expect(orderForHand(closest, 'right')).toEqual(['help', 'map', 'bag', 'character', 'actions'])
    expect(closest[0]).toBe('actions')
  })
  it('follows the reader only for priorityHand reader', () => {
    expect(effectiveHand('reader', 'left')).toBe('left')
    expect(effectiveHand('reader', 'right')).toBe('right')
    expect(effectiveHand('left', 'right')).toBe('left')
    expect(effectiveHand('right', 'left')).toBe('right')
  })
  it('remembers the reader’s handedness', () => {
    const map = new Map<string, string>()
    const storage = {
      getItem: (k: string) => map.get(k) ?? null,
      setItem: (k: string, v: string) => void map.set(k, v),
    }
    expect(loadHandedness(storage)).toBe('right')
    saveHandedness(storage, 'left')
    expect(map.get(HANDEDNESS_KEY)).toBe('left')
    expect(loadHandedness(storage)).toBe('left')
    const broken = {
      getItem: () => {
        throw new Error('denied')
      },
      setItem: () => {
        throw new Error('denied')
      },
    }
    expect(loadHandedness(broken)).toBe('right')
    expect(() => saveHandedness(broken, 'left')).not.toThrow()
  })
})

describe('exposed variables', () => {
  it('drops names a story cannot read and duplicates', () => {
    expect(
      readVariables(['gold', 'gold', 'not a name', 'if', 7, { label: 'x' }, { name: 'hp', label: '' }]),
    ).toEqual([
      { name: 'gold', label: 'Gold' },
      { name: 'hp', label: 'Hp' },
    ])
    expect(readVariables('gold')).toEqual([])
  })
  it('prints values as a reader reads them', () => {
    expect(formatValue(['Ada', 'Bram'])).toBe('Ada, Bram')
    expect(formatValue(true)).toBe('yes')
    expect(formatValue(-0)).toBe('0')
    expect(formatValue({ a: 1, b: [2, 3] })).toBe('a: 1, b: 2, 3')
    expect(formatValue(undefined)).toBe('—')
    expect(formatValue([])).toBe('none')
  })
  it('reads the section values from the story variables', () => {
    const bar = readTabBar(manifest(all))!
    const bag = bar.sections.find((s) => s.name === 'bag')!
    expect(sectionValues(bag, { coins: 3 })).toEqual([
      { name: 'coins', label: 'Coins', value: '3', set: true },
      { name: 'loot', label: 'Loot', value: '—', set: false },
    ])
  })
})
