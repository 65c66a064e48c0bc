/**
 * Browser side of the driver tests: runs the shared driver contract against the real
 * `localStorage` and IndexedDB of Chromium, plus the failures only a browser can produce.
 */

import { createStateStore } from '../../src/create-state-store'
import { createIndexedDbDriver } from '../../src/drivers/indexeddb'
import { createLocalStorageDriver } from '../../src/drivers/local-storage'
import { selectStateDriver } from '../../src/select-driver'
import { runDriverCases } from '../../src/testing'

let db = 0

async function quotaKeepsPreviousValue(): Promise<string | undefined> {
  localStorage.clear()
  const d = createLocalStorageDriver()
  await d.set('k', 'previous')
  try {
    await d.set('k', 'x'.repeat(12_000_000))
    return 'a value over the quota was accepted'
  } catch (error) {
    const code = (error as { code?: string }).code
    if (code !== 'state/storage-failed') return `quota error has code ${code}`
  }
  const back = await d.get('k')
  return back?.value === 'previous' ? undefined : `value after quota error: ${back?.value.slice(0, 20)}`
}

/** A save whose transaction aborts after the write was queued (tab closed, crash) keeps the old value. */
async function idbAbortKeepsPreviousValue(): Promise<string | undefined> {
  const d = createIndexedDbDriver({ database: 'abort-test' })
  await d.set('k', 'previous')
  const put = IDBObjectStore.prototype.put
  IDBObjectStore.prototype.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
    const request = put.apply(this, args)
    this.transaction.abort()
    return request
  }
  try {
    await d.set('k', 'x'.repeat(1_000_000))
    return 'an aborted save resolved'
  } catch (error) {
    const code = (error as { code?: string }).code
    if (code !== 'state/storage-failed') return `abort error has code ${code}`
  } finally {
    IDBObjectStore.prototype.put = put
  }
  const back = await d.get('k')
  return back?.value === 'previous' ? 'kept' : `value after abort: ${back?.value.slice(0, 20)}`
}

async function storeOverDefaultDriver(): Promise<string | undefined> {
  const { driver } = selectStateDriver('local', { database: 'select-test' })
  if (driver.name !== 'indexeddb') return `default local driver is ${driver.name}`
  const store = createStateStore(driver)
  const state = {
    format: 1 as const,
    id: 'story',
    variables: { gold: 2 },
    choices: {},
    visitedChoiceGroups: [],
    rng: { algorithm: 'mulberry32' as const, seed: 1, state: 2 },
    visitedParts: [],
    renderedParagraph: 0,
  }
  await store.save('story', state)
  const again = createStateStore(selectStateDriver('local', { database: 'select-test' }).driver)
  const loaded = await again.load('story')
  return JSON.stringify(loaded.state) === JSON.stringify(state)
    ? undefined
    : 'state did not survive a new store'
}

;(globalThis as { runAll?: () => Promise<unknown> }).runAll = async () => ({
  localStorage: await runDriverCases(() => {
    localStorage.clear()
    return createLocalStorageDriver()
  }),
  indexedDB: await runDriverCases(() => {
    db += 1
    return createIndexedDbDriver({ database: `contract-${db}` })
  }),
  quota: await quotaKeepsPreviousValue(),
  idbAbort: await idbAbortKeepsPreviousValue(),
  defaultDriver: await storeOverDefaultDriver(),
})
