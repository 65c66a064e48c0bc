/**
 * The browser path in a browser: DecompressionStream('deflate-raw') under the budget, the
 * inflater chooser's defaults and the whole open pipeline in Debian's Chromium (bundled with
 * esbuild, no Node built-ins). Skips if Chromium is absent.
 */
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { buildArchive, buildPackage, deflateBomb, type EntrySpec, packageFiles } from '@spkg/test-utils'
import { CHROMIUM_PATH, openEntryInChromium } from '@spkg/test-utils/chromium'
import { deflateSync } from 'fflate'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callInPage } from '../helpers/call-in-page'
import type { ChromiumInput } from './chromium-page'

const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64')
const text = new TextEncoder().encode('the inn door creaks open. '.repeat(4000))
const prose = (n: number, seed: number) => {
  let s = ''
  for (let x = seed; s.length < n; x = (x * 1103515245 + 12345) & 0x7fffffff) s += `${x % 97} fire `
  return s
}
const parts = Object.fromEntries(
  Array.from({ length: 8 }, (_, i) => [`story/${i}-p.sty`, prose(i % 2 ? 300 : 60_000, i + 1)]),
)

let browser: Browser | undefined
let r: Record<string, unknown>
let strict: Browser | undefined
let underCsp: Record<string, unknown>

describe.skipIf(!existsSync(CHROMIUM_PATH))('the browser path in Chromium', () => {
  beforeAll(async () => {
    const entries = [...packageFiles()].map(([name, data]): EntrySpec => ({ name, data }))
    const input: ChromiumInput = {
      text: b64(text),
      packed: b64(deflateSync(text)),
      bomb: b64(deflateBomb(256 * 2 ** 20)),
      good: b64(buildPackage({ parts, integrity: true })),
      bombPackage: b64(
        buildArchive([
          ...entries,
          { name: 'story/bomb.sty', payload: deflateBomb(80 * 2 ** 20), size: 1000, crc: 0 },
        ]),
      ),
      badCrcPackage: b64(
        buildPackage({
          parts: { 'story/0001-start.sty': prose(50_000, 5) },
          entry: { 'story/0001-start.sty': { crc: 1 } },
        }),
      ),
      random: b64(randomBytes(70_000)),
    }
    const opened = await openEntryInChromium(new URL('./chromium-page.ts', import.meta.url), 'runReader')
    browser = opened.browser
    r = await callInPage<Record<string, unknown>>(opened.page, 'runReader', input)
    // A page whose Content Security Policy does not allow WebAssembly ('wasm-unsafe-eval').
    const csp = await openEntryInChromium(
      new URL('./chromium-page.ts', import.meta.url),
      'openGood',
      'http://localhost',
      { 'content-security-policy': "script-src 'self'" },
    )
    strict = csp.browser
    underCsp = await callInPage<Record<string, unknown>>(csp.page, 'openGood', input.good)
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await strict?.close()
  })

  it('streams entries from 1 KiB and hashes with WebCrypto by default', () => {
    expect(r.options).toEqual({ streamFrom: 1024, jsHashBelow: 0 })
  })

  it('inflates exactly the declared size under a roomy and a tight budget', () => {
    expect(r.roomy).toBe(true)
    expect(r.tight).toBe(true)
  })

  it('reports size mismatches and corrupt or truncated streams', () => {
    expect(r.longer).toMatchObject({ ok: false, reason: 'size' })
    expect(r.shorter).toMatchObject({ ok: false, reason: 'size' })
    expect(r.corrupt).toMatchObject({ ok: false, reason: 'corrupt' })
    expect(r.truncated).toMatchObject({ ok: false })
  })

  it('stops a bomb just past the limit and cancels the stream', () => {
    const bombs = r.bombs as Array<{ limit: number; ok: boolean; reason: string; produced: number }>
    expect(bombs).toHaveLength(3)
    for (const b of bombs) {
      expect(b).toMatchObject({ ok: false, reason: 'limit' })
      expect(b.produced).toBeGreaterThan(b.limit)
      expect(b.produced).toBeLessThanOrEqual(b.limit + 2 * 1032 * 512)
    }
  })

  it('opens a package through the default web backend, and refuses a bomb and a bad CRC', () => {
    expect(r.wasm).toEqual({ loaded: true, ready: true })
    expect(r.good).toEqual({ ok: true, fatal: [] })
    expect(r.goodText).toBe(parts['story/1-p.sty'])
    expect(r.bombPackage).toEqual(['pkg/too-large'])
    expect(r.badCrcPackage).toEqual(['pkg/corrupt-entry'])
  })

  it('opens the same package in JavaScript where the page refuses WebAssembly', () => {
    expect(underCsp).toEqual({
      wasm: { loaded: false, ready: false },
      good: { ok: true, fatal: [] },
      goodText: parts['story/1-p.sty'],
    })
  })

  it('hashes with the JS SHA-256 exactly like WebCrypto', () => {
    for (const [js, web] of r.sha as Array<[string, string]>) expect(js).toBe(web)
  })
})
