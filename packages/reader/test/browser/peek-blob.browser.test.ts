/**
 * `peekPackage` of a File in Chromium reads the tail, the central directory and the manifest
 * through `Blob.slice`, then the cover when asked: never the whole file. Skips if Chromium is
 * absent. (The cold time is printed by the measurement in the README, not asserted here: this
 * machine's load makes a time bound flaky.)
 */
import { existsSync } from 'node:fs'
import { buildPackage } from '@spkg/test-utils'
import { CHROMIUM_PATH, openEntryInChromium } from '@spkg/test-utils/chromium'
import type { Browser } from 'playwright-core'
import { afterAll, describe, expect, it } from 'vitest'
import { callInPage } from '../helpers/call-in-page'

const MiB = 1024 * 1024
const cover = new Uint8Array(20 * 1024).map((_, i) => (i * 31) % 251)
/** A 48 MiB package: the cover, two parts and a large stored film. */
const big = buildPackage({
  manifest: { title: 'The Long Road', cover: 'assets/cover.webp' },
  parts: { 'story/0001-road.sty': 'The road bends.\n'.repeat(400), 'story/0002-end.sty': 'The end.\n' },
  assets: { 'assets/cover.webp': cover, 'assets/film.webm': new Uint8Array(48 * MiB).fill(7) },
  entry: { 'assets/film.webm': { method: 0 }, 'assets/cover.webp': { method: 0 } },
})

let browser: Browser | undefined
afterAll(async () => {
  await browser?.close()
})

describe.skipIf(!existsSync(CHROMIUM_PATH))('peekPackage of a large File in Chromium', () => {
  it('reads a cover and a title from a 48 MiB File through a few small slices', async () => {
    const opened = await openEntryInChromium(new URL('./peek-blob-page.ts', import.meta.url), 'peekFile')
    browser = opened.browser
    await opened.page.route('http://localhost/big.spkg', (route) =>
      route.fulfill({ contentType: 'application/octet-stream', body: Buffer.from(big) }),
    )
    const r = await callInPage<Record<string, unknown>>(opened.page, 'peekFile', '/big.spkg')
    expect(r).toMatchObject({
      ok: true,
      title: 'The Long Road',
      cover: cover.length,
      size: big.length,
      whole: false,
    })
    // The first and last 64 KiB (the manifest, the end records, the central directory), then the
    // cover: about 150 KiB of 48 MiB.
    expect(r.sliced).toBeLessThan(2 * 64 * 1024 + cover.length + 2048)
  }, 60_000)
})
