/**
 * Isomorphism: the same library code gives the same SHA-256, Ed25519 and decryption results in
 * Chromium (bundled with esbuild, no Node built-ins) as in Node. Skips if Chromium is absent.
 */
import { existsSync } from 'node:fs'
import { CHROMIUM_PATH, openEntryInChromium } from '@spkg/test-utils/chromium'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decryptPackage, encryptPackage, generateEncryptionKey } from '../../src/encrypt'
import { sha256Hex } from '../../src/index'
import { generateSigningKeys, type SigningKeys, signChecksum } from '../../src/sign'
import type { BrowserInput } from './entry'

const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64')

let browser: Browser | undefined
let results: Record<string, unknown>
let keys: SigningKeys
let input: BrowserInput
const data = new Uint8Array(200_000).map((_, i) => (i * 31) % 256)
const checksum = new TextEncoder().encode(`${'a'.repeat(64)}  manifest.json\n`)
const key = generateEncryptionKey()

describe.skipIf(!existsSync(CHROMIUM_PATH))('the same results in Chromium as in Node', () => {
  beforeAll(async () => {
    keys = await generateSigningKeys()
    input = {
      data: b64(data),
      checksum: b64(checksum),
      signatureText: await signChecksum(checksum, keys.secretKeyText),
      publicKeyText: keys.publicKeyText,
      secretKeyText: keys.secretKeyText,
      sealed: b64(await encryptPackage(data, key)),
      key: b64(key),
    }
    // A secure-context http origin, where crypto.subtle exists.
    const opened = await openEntryInChromium(new URL('./entry.ts', import.meta.url), 'runIntegrity')
    browser = opened.browser
    const page = opened.page
    results = (await page.evaluate(
      (i) => (globalThis as unknown as { runIntegrity: (x: unknown) => Promise<unknown> }).runIntegrity(i),
      input,
    )) as Record<string, unknown>
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
  })

  it('hashes like Node', async () => {
    expect(results.sha256).toBe(await sha256Hex(data))
    expect(results.sha256Empty).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
  })

  it('detects an Ed25519 backend and verifies with both WebCrypto (if present) and @noble', () => {
    expect(['webcrypto', 'noble']).toContain(results.detectedBackend)
    expect(results.verify_noble).toBe('verified')
    if (results.detectedBackend === 'webcrypto') expect(results.verify_webcrypto).toBe('verified')
  })

  it('reports pkg/signature-unsupported without WebCrypto Ed25519 and without the opt-in fallback', () => {
    expect(results.verify_unsupported).toBe('invalid pkg/signature-unsupported')
  })

  it('signs byte-for-byte like Node (Ed25519 is deterministic)', () => {
    expect(results.sign_noble).toBe(input.signatureText)
    if (results.detectedBackend === 'webcrypto') expect(results.sign_webcrypto).toBe(input.signatureText)
  })

  it('decrypts what Node encrypted, and Node decrypts what it encrypted', async () => {
    expect(results.decrypted).toBe(input.data)
    const back = await decryptPackage(Buffer.from(results.encrypted as string, 'base64'), key)
    expect(b64(back)).toBe(input.data)
    expect(results.tamperedCode).toBe('pkg/decrypt-failed')
  })
})
