import { openEntryInChromium } from '@spkg/test-utils/chromium'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DRIVER_CASES } from '../../src/testing'

type CaseResult = { name: string; error?: string }
type Results = {
  localStorage: CaseResult[]
  indexedDB: CaseResult[]
  quota?: string
  idbAbort?: string
  defaultDriver?: string
}

let browser: Browser
let results: Results

beforeAll(async () => {
  // A real http origin, so localStorage and IndexedDB are available.
  const opened = await openEntryInChromium(
    new URL('./drivers-page.ts', import.meta.url),
    'runAll',
    'http://spkg.test',
  )
  browser = opened.browser
  const page = opened.page
  results = (await page.evaluate(() =>
    (globalThis as unknown as { runAll: () => Promise<unknown> }).runAll(),
  )) as Results
}, 60_000)

afterAll(async () => {
  await browser?.close()
})

describe('browser drivers in Chromium', () => {
  for (const driver of ['localStorage', 'indexedDB'] as const) {
    describe(`${driver} driver contract`, () => {
      for (const c of DRIVER_CASES) {
        it(c.name, () => {
          const r = results[driver].find((x) => x.name === c.name)
          expect(r).toBeDefined()
          expect(r?.error).toBeUndefined()
        })
      }
    })
  }

  it('keeps the previous localStorage value when a save exceeds the quota', () => {
    expect(results.quota).toBeUndefined()
  })

  it('keeps the previous IndexedDB value when a save is interrupted after its write was queued', () => {
    expect(results.idbAbort).toBe('kept')
  })

  it('picks IndexedDB for storage "local" and keeps a state across stores', () => {
    expect(results.defaultDriver).toBeUndefined()
  })
})
