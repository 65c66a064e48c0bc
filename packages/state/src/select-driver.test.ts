import { afterEach, describe, expect, it } from 'vitest'
import { createMemoryDriver } from './drivers/memory'
import { selectStateDriver } from './select-driver'

const g = globalThis as { localStorage?: unknown; indexedDB?: unknown }

describe('selectStateDriver', () => {
  afterEach(() => {
    delete g.localStorage
    delete g.indexedDB
  })

  it('keeps nothing beyond the session for storage "none"', () => {
    const picked = selectStateDriver('none')
    expect(picked).toMatchObject({ persistent: false, diagnostics: [] })
    expect(picked.driver.name).toBe('memory')
  })

  it('uses the cloud driver for "cloud"', () => {
    const cloud = { ...createMemoryDriver(), name: 'http' }
    expect(selectStateDriver('cloud', { cloud })).toEqual({
      driver: cloud,
      persistent: true,
      diagnostics: [],
    })
  })

  it('falls back from "cloud" without a cloud driver to local storage, with a warning', () => {
    const local = createMemoryDriver()
    const picked = selectStateDriver('cloud', { local })
    expect(picked.driver).toBe(local)
    expect(picked.diagnostics).toEqual([
      {
        code: 'state/storage-unavailable',
        severity: 'warning',
        message: 'storage "cloud" needs a cloud driver; saving locally instead',
        path: 'manifest.json',
        field: '/storage',
      },
    ])
  })

  it('prefers IndexedDB, then localStorage, for "local" and for no storage field', () => {
    g.localStorage = {}
    expect(selectStateDriver(undefined).driver.name).toBe('local-storage')
    g.indexedDB = {}
    expect(selectStateDriver('local').driver.name).toBe('indexeddb')
  })

  it('keeps states in memory with a warning where a runtime has no local storage', () => {
    const picked = selectStateDriver('local')
    expect(picked.driver.name).toBe('memory')
    expect(picked.persistent).toBe(false)
    expect(picked.diagnostics.map((d) => d.code)).toEqual(['state/storage-unavailable'])
  })
})
